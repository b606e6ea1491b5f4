import { ZeroAddress } from "ethers";
import { Raffle__factory, RaffleTicket__factory, Exchange__factory } from "@raffle/chain";
import {
  startTestNode,
  setUpWorld,
  deployTestRaffle,
  buyTicket,
  startNextRound,
  type HardhatNode,
  type TestWorld,
  type TestRaffle,
} from "@raffle/chain/testing";

import { PrizeRedemptionTx1763900000000 } from "@raffle/db";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { endAndDraw } from "./support/v2-world";

describe("indexer backfill of a scripted history", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let erc20: TestRaffle;
  let native: TestRaffle;
  let db: IndexedDatabase;
  const winners: Record<string, string> = {};

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    const [alice, bob, carol] = world.players;
    erc20 = await deployTestRaffle(world, "ERC20");
    native = await deployTestRaffle(world, "NATIVE", 5n);

    // Round 1 of each raffle: purchases, a pause in between, a draw and a claim.
    await buyTicket(world, erc20, alice, 11n);
    await buyTicket(world, erc20, bob, 11n);
    await buyTicket(world, native, carol, 21n);
    const raffleAsMerchant = Raffle__factory.connect(native.raffle, world.merchant);
    await (await raffleAsMerchant.pause()).wait();
    await (await raffleAsMerchant.unpause()).wait();
    await buyTicket(world, erc20, carol, 11n);
    await buyTicket(world, native, alice, 21n);
    await endAndDraw(world, erc20);
    await endAndDraw(world, native);

    const round = await Raffle__factory.connect(erc20.raffle, world.merchant).getRound(1n);
    const ticket = RaffleTicket__factory.connect(erc20.ticket, world.provider);
    const owner = await ticket.ownerOf(round.winningTicketId);
    winners.erc20 = owner;
    await (
      await Raffle__factory.connect(erc20.raffle, await node.provider.getSigner(owner)).claimPrizes([
        { roundId: 1n, ticketId: round.winningTicketId },
      ])
    ).wait();

    // Round 2 of the ERC20 raffle: one ticket wins at once; then the winning ticket changes hands.
    await startNextRound(world, erc20);
    const lonely = await buyTicket(world, erc20, bob, 12n);
    await endAndDraw(world, erc20);
    await (await RaffleTicket__factory.connect(erc20.ticket, bob).transferFrom(await bob.getAddress(), await carol.getAddress(), lonely)).wait();

    // The Exchange stays paused at the end.
    await (await Exchange__factory.connect(world.deployment.exchange, world.admin).pause()).wait();

    db = await indexedDatabase("backfill", node.provider, world.deployment, { batchBlocks: 7 });
    await db.indexer.syncToHead();
  });

  afterAll(async () => {
    await db?.close();
    await node?.stop();
  });

  it("registers the platform and the factory's raffles for their merchant", async () => {
    const contracts = await db.dataSource.query(
      `SELECT c.address, c.contract_module, c.contract_type, c.contract_features::text[] AS contract_features, c.from_block, c.is_paused, c.parameters, m.wallet
         FROM contract c JOIN merchant m ON m.id = c.merchant_id ORDER BY c.id`,
    );
    const byAddress = new Map(contracts.map((row: { address: string }) => [row.address, row]));
    const merchant = await world.merchant.getAddress();
    expect(byAddress.get(world.deployment.exchange)).toMatchObject({ contract_module: "SYSTEM", is_paused: true });
    expect(byAddress.get(world.deployment.raffleFactory)).toMatchObject({ contract_module: "SYSTEM", is_paused: false });
    expect(byAddress.get(erc20.raffle)).toMatchObject({
      contract_module: "RAFFLE",
      contract_type: null,
      contract_features: ["RANDOM", "ALLOWANCE", "PAUSABLE"],
      wallet: merchant,
      is_paused: false,
      parameters: { commission: "1000", timeLagBeforeRelease: "86400", schedule: "0 0 * * *", roundId: 2 },
    });
    expect(byAddress.get(erc20.ticket)).toMatchObject({ contract_module: "RAFFLE", contract_type: "ERC721", wallet: merchant });
    expect(byAddress.get(native.raffle)).toMatchObject({ parameters: { roundId: 1 } });
    expect(byAddress.get(world.token)).toMatchObject({ contract_module: "HIERARCHY", contract_type: "ERC20" });
    expect(byAddress.get(ZeroAddress)).toMatchObject({ contract_type: "NATIVE" });
    const receipt = await node.provider.getTransactionReceipt(
      (await db.dataSource.query(`SELECT tx_hash FROM indexer_event WHERE name = 'RaffleDeployed' ORDER BY block_number LIMIT 1`))[0].tx_hash,
    );
    expect(Number((byAddress.get(erc20.raffle) as { from_block: string }).from_block)).toBe(receipt!.blockNumber);
  });

  it("projects rounds with their price, counts, states and winners", async () => {
    const rounds = await db.dataSource.query(
      `SELECT c.address, r.round_id, r.ticket_count, r.max_tickets, r.round_status, r.end_timestamp IS NOT NULL AS ended,
              r.winning_ticket_id, pc.token_type, pc.amount
         FROM round r JOIN contract c ON c.id = r.contract_id JOIN price_component pc ON pc.price_id = r.price_id
        ORDER BY c.address, r.round_id`,
    );
    const summary = rounds.map((r: Record<string, unknown>) => [r.address, r.round_id, r.ticket_count, r.round_status, r.token_type, r.amount]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [erc20.raffle, "1", 3, "CLAIMED", "ERC20", erc20.price.amount.toString()],
        [erc20.raffle, "2", 1, "DRAWN", "ERC20", erc20.price.amount.toString()],
        [native.raffle, "1", 2, "DRAWN", "NATIVE", native.price.amount.toString()],
      ]),
    );
    expect(rounds).toHaveLength(3);
    for (const round of rounds) expect(round.ended).toBe(true);
    const onChain = await Raffle__factory.connect(native.raffle, node.provider).getRound(1n);
    expect(rounds.find((r: { address: string }) => r.address === native.raffle).winning_ticket_id).toBe(onChain.winningTicketId.toString());
  });

  it("projects tickets with serials, owners and the prize flag, and prize claims", async () => {
    const tickets = await db.dataSource.query(
      `SELECT c.address, t.token_id, t.serial, t.account, t.buyer, t.external_id, t.is_prize
         FROM ticket t JOIN contract c ON c.id = t.contract_id ORDER BY c.address, t.token_id`,
    );
    expect(tickets).toHaveLength(6);
    const erc20Tickets = tickets.filter((t: { address: string }) => t.address === erc20.ticket);
    expect(erc20Tickets.map((t: { serial: number }) => t.serial)).toEqual([1, 2, 3, 1]);
    expect(erc20Tickets.map((t: { external_id: string }) => t.external_id)).toEqual(["11", "11", "11", "12"]);
    const [, bob, carol] = await Promise.all(world.players.map((player) => player.getAddress()));
    expect(erc20Tickets[3]).toMatchObject({ buyer: bob, account: carol, is_prize: true });
    expect(tickets.filter((t: { is_prize: boolean }) => t.is_prize)).toHaveLength(3);
    // The claimed winner of round 1 says so, as its on-chain prize status (getWinners) does; the other winners still carry a prize.
    const statuses = await db.dataSource.query(
      `SELECT raffle.address, r.round_id, t.token_id, t.ticket_status, w.claim_status
         FROM ticket t JOIN round r ON r.id = t.round_id JOIN contract raffle ON raffle.id = r.contract_id
         JOIN round_winner w ON w.round_id = r.id AND w.ticket_id = t.token_id WHERE t.is_prize`,
    );
    expect(statuses).toHaveLength(3);
    for (const row of statuses as Array<{ address: string; round_id: string; token_id: string; ticket_status: string; claim_status: string }>) {
      const winners = await Raffle__factory.connect(row.address, node.provider).getWinners(BigInt(row.round_id));
      const onChain = winners.find((winner) => winner.ticketId.toString() === row.token_id)!.status;
      expect([row.ticket_status, row.claim_status, onChain]).toEqual(onChain === 2n ? ["PRIZE_CLAIMED", "CLAIMED", 2n] : ["ACTIVE", "UNCLAIMED", 1n]);
    }
    expect(statuses.filter((row: { ticket_status: string }) => row.ticket_status === "PRIZE_CLAIMED")).toHaveLength(1);

    const claims = await db.dataSource.query(
      `SELECT c.address, r.round_id, cl.account, cl.claim_status, cl.items, cl.redeemed_tx_hash FROM claim cl
         JOIN contract c ON c.id = cl.contract_id JOIN round r ON r.id = cl.round_id ORDER BY c.address, r.round_id`,
    );
    const erc20Round1 = claims.find((c: { address: string; round_id: string }) => c.address === erc20.raffle && c.round_id === "1");
    expect(erc20Round1).toMatchObject({
      account: winners.erc20,
      claim_status: "REDEEMED",
      redeemed_tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const [claimedBy] = await db.dataSource.query(
      `SELECT tx_hash FROM indexer_event WHERE name = 'PrizeClaimed' AND address = $1 AND args->>'roundId' = '1'`,
      [erc20.raffle],
    );
    expect(erc20Round1.redeemed_tx_hash).toBe(claimedBy.tx_hash);
    // Pot of 3 tickets less 10% commission.
    expect(erc20Round1.items[0].amount).toBe(((erc20.price.amount * 3n * 9n) / 10n).toString());
    const erc20Round2 = claims.find((c: { address: string; round_id: string }) => c.address === erc20.raffle && c.round_id === "2");
    expect(erc20Round2).toMatchObject({ account: carol, claim_status: "NEW", redeemed_tx_hash: null });
  });

  it("fills the claiming transaction of prizes redeemed before the indexer recorded it (migration)", async () => {
    const redeemed = `SELECT id, redeemed_tx_hash FROM claim WHERE claim_type = 'RAFFLE_PRIZE' AND claim_status = 'REDEEMED' ORDER BY id`;
    const before = await db.dataSource.query(redeemed);
    expect(before.length).toBeGreaterThan(0);
    await db.dataSource.query(`UPDATE claim SET redeemed_tx_hash = NULL WHERE claim_type = 'RAFFLE_PRIZE'`);
    const runner = db.dataSource.createQueryRunner();
    try {
      await new PrizeRedemptionTx1763900000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await db.dataSource.query(redeemed)).toEqual(before);
  });

  it("records every log of the registered contracts and ends at the head", async () => {
    const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM indexer_event WHERE status = 'APPLIED'`);
    expect(count).toBeGreaterThan(30);
    const head = await node.provider.getBlockNumber();
    expect(db.indexer.status()).toMatchObject({ cursor: head, lag: 0 });
    const snapshot = await projectionSnapshot(db.dataSource);
    expect(snapshot.orphans).toEqual([{ prices: 0, components: 0, tickets: 0, winners: 0, claims: 0 }]);
  });
});
