import { parseUnits } from "ethers";
import { RaffleTicket__factory, Raffle__factory } from "@raffle/chain";
import { deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";

import { EVENT_HANDLERS, type ProjectedTable } from "../src/event-handlers";
import { Indexer } from "../src/indexer";
import { silentLogger } from "../src/logger";
import { resetIndexedChain } from "../src/reset";
import { WEBHOOK_EVENT_TYPES } from "../src/webhook-outbox";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { buyTickets, claimPrizes, endAndDraw, refundTickets, restartRound, setRules } from "./support/v2-world";

const gold = (amount: number) => parseUnits(String(amount), 18);

/**
 * Raffle v2 on a real chain, projected: round rules, bundle purchases (one ticket row per ticket, with its tier and
 * what it paid), a three-winner draw with every position's prize, claims and the release of the rest, a round below
 * its minimum refunding every ticket, the webhooks of both, and a reorg taking a draw back.
 */
describe("indexer: raffle v2 rounds", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let db: IndexedDatabase;
  let alice: string, bob: string, carol: string;
  const rules = {
    prizeShares: [5000, 3000, 2000],
    minTickets: 3,
    maxTicketsPerWallet: 10,
    bundles: [
      { quantity: 5, price: gold(45) },
      { quantity: 10, price: gold(80) },
    ],
  };

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    [alice, bob, carol] = await Promise.all(world.players.slice(0, 3).map((player) => player.getAddress()));
    db = await indexedDatabase("raffle_v2", node.provider, world.deployment, { batchBlocks: 6 });
    await db.indexer.syncToHead();
    const [{ id: merchantId }] = await db.dataSource.query(
      `INSERT INTO merchant (wallet) VALUES ($1) ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
      [await world.merchant.getAddress()],
    );
    await db.dataSource.query(`INSERT INTO webhook_endpoint (merchant_id, url, events, secret) VALUES ($1, 'https://example.com/h', $2, 'sealed')`, [
      merchantId,
      [...WEBHOOK_EVENT_TYPES],
    ]);
    raffle = await deployTestRaffle(world, "ERC20");
    await setRules(world, raffle, rules);
    await restartRound(world, raffle); // round 1 closes empty; round 2 plays by the rules
  });

  afterAll(async () => {
    try {
      await db?.close();
    } finally {
      await node?.stop();
    }
  });

  const round = async (roundId: string) =>
    (
      await db.dataSource.query(
        `SELECT r.id, r.round_status, r.ticket_count, r.pot, r.random_word, r.refund_reason, r.rules_version, r.prize_shares, r.min_tickets,
                r.max_tickets_per_wallet, r.bundles, r.winning_ticket_id
           FROM round r JOIN contract c ON c.id = r.contract_id WHERE c.address = $1 AND r.round_id = $2`,
        [raffle.raffle, roundId],
      )
    )[0];
  const messages = async (type: string) =>
    (
      (await db.dataSource.query(`SELECT body FROM webhook_message WHERE type = $1 AND NOT removed ORDER BY seq`, [type])) as Array<{ body: string }>
    ).map((row) => JSON.parse(row.body));

  it("projects each round's rules and every ticket of a bundle purchase with its tier and price", async () => {
    const aliceTickets = await buyTickets(world, raffle, world.players[0], 5, 2n);
    await buyTickets(world, raffle, world.players[1], 1, 2n);
    await buyTickets(world, raffle, world.players[2], 10, 2n);
    await db.indexer.syncToHead();

    expect(await round("1")).toMatchObject({ round_status: "CLOSED", ticket_count: 0, pot: "0", prize_shares: [10000], bundles: [] });
    expect(await round("2")).toMatchObject({
      round_status: "ACTIVE",
      ticket_count: 16,
      pot: gold(45 + 10 + 80).toString(),
      rules_version: 1,
      prize_shares: [5000, 3000, 2000],
      min_tickets: "3",
      max_tickets_per_wallet: "10",
      bundles: [
        { quantity: 5, price: gold(45).toString() },
        { quantity: 10, price: gold(80).toString() },
      ],
    });
    const onChain = await Raffle__factory.connect(raffle.raffle, world.provider).getRound(2n);
    expect((await round("2")).pot).toBe(onChain.pot.toString());

    const tickets = await db.dataSource.query(
      `SELECT t.token_id, t.serial, t.buyer, t.tier, t.paid_amount FROM ticket t JOIN round r ON r.id = t.round_id WHERE r.id = $1 ORDER BY t.token_id`,
      [(await round("2")).id],
    );
    expect(tickets).toHaveLength(16);
    expect(tickets.map((t: { serial: number }) => t.serial)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(tickets[0].token_id).toBe(aliceTickets[0].toString());
    expect(tickets.map((t: { buyer: string }) => t.buyer)).toEqual([...Array(5).fill(alice), bob, ...Array(10).fill(carol)]);
    expect(tickets.map((t: { tier: number }) => t.tier)).toEqual([...Array(5).fill(1), 0, ...Array(10).fill(2)]);
    expect(tickets.map((t: { paid_amount: string }) => t.paid_amount)).toEqual([
      ...Array(5).fill(gold(9).toString()),
      gold(10).toString(),
      ...Array(10).fill(gold(8).toString()),
    ]);
    const purchased = await messages("ticket.purchased");
    expect(purchased.map((message) => message.data)).toEqual([
      expect.objectContaining({ account: alice, quantity: "5", amount: gold(45).toString(), firstTicketId: aliceTickets[0].toString() }),
      expect.objectContaining({ account: bob, quantity: "1", amount: gold(10).toString() }),
      expect.objectContaining({ account: carol, quantity: "10", amount: gold(80).toString() }),
    ]);
  });

  it("projects a draw left to finishDraw, and takes back the draw, its winners and prize claims when a reorg removes them", async () => {
    const before = await projectionSnapshot(db.dataSource);
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    // The VRF answer with an estimated gas limit only records the word; anyone's finishDraw then draws the winners.
    await endAndDraw(world, raffle, { finish: false, gasLimit: null });
    await db.indexer.syncToHead();
    const word = (await Raffle__factory.connect(raffle.raffle, world.provider).getRound(2n)).randomWord;
    expect(await round("2")).toMatchObject({ round_status: "WINNERS_PENDING", random_word: word.toString(), winning_ticket_id: null });
    await (await Raffle__factory.connect(raffle.raffle, world.players[3]).finishDraw(2n)).wait();
    await db.indexer.syncToHead();
    expect((await round("2")).round_status).toBe("DRAWN");
    expect(await db.dataSource.query(`SELECT id FROM round_winner`)).toHaveLength(3);
    expect(await db.dataSource.query(`SELECT id FROM claim WHERE claim_type = 'RAFFLE_PRIZE'`)).toHaveLength(3);

    expect(await node.provider.send("evm_revert", [snapshotId])).toBe(true);
    for (let i = 0; i < 10; i += 1) await node.provider.send("evm_mine", []);
    await db.indexer.syncToHead();
    expect(db.indexer.status().reorgs).toBe(1);
    expect(await db.dataSource.query(`SELECT id FROM round_winner`)).toHaveLength(0);
    expect(await db.dataSource.query(`SELECT id FROM claim`)).toHaveLength(0);
    const after = await projectionSnapshot(db.dataSource);
    expect({ ...after, events: [], cursor: [] }).toEqual({ ...before, events: [], cursor: [] });
    // The round.drawn message was retracted.
    const drawn = await db.dataSource.query(`SELECT removed FROM webhook_message WHERE type = 'round.drawn' ORDER BY seq`);
    expect(drawn).toEqual([{ removed: false }, { removed: true }]);
  });

  it("projects a three-winner draw: every position's ticket, holder, share, amount and prize claim, as the contract has them", async () => {
    const roundId = await endAndDraw(world, raffle);
    expect(roundId).toBe(2n);
    await db.indexer.syncToHead();
    const contract = Raffle__factory.connect(raffle.raffle, world.provider);
    const onChain = await contract.getWinners(roundId);
    const view = await contract.getRound(roundId);
    expect(await round("2")).toMatchObject({
      round_status: "DRAWN",
      random_word: view.randomWord.toString(),
      winning_ticket_id: onChain[0].ticketId.toString(),
    });
    expect(view.randomWord).not.toBe(0n);

    const winners = await db.dataSource.query(`SELECT position, ticket_id, account, share, amount, claim_status FROM round_winner ORDER BY position`);
    expect(winners).toEqual(
      await Promise.all(
        onChain.map(async (winner, position) => ({
          position,
          ticket_id: winner.ticketId.toString(),
          account: await RaffleTicket__factory.connect(raffle.ticket, world.provider).ownerOf(winner.ticketId),
          share: Number(winner.share),
          amount: winner.amount.toString(),
          claim_status: "UNCLAIMED",
        })),
      ),
    );
    expect(winners.reduce((sum: bigint, winner: { amount: string }) => sum + BigInt(winner.amount), 0n)).toBe(view.pot);

    const claims = await db.dataSource.query(
      `SELECT account, token_id, items, claim_status, parameters FROM claim WHERE claim_type = 'RAFFLE_PRIZE' ORDER BY (parameters->>'position')::int`,
    );
    expect(claims).toHaveLength(3);
    claims.forEach((claim: { account: string; token_id: string; items: Array<{ amount: string }>; parameters: { position: number } }, i: number) => {
      expect(claim).toMatchObject({ account: winners[i].account, token_id: winners[i].ticket_id, claim_status: "NEW", parameters: { position: i } });
      // Less the raffle's 10% commission.
      expect(claim.items[0].amount).toBe(((BigInt(winners[i].amount) * 9n) / 10n).toString());
    });

    const [drawn] = (await messages("round.drawn")).slice(-1);
    expect(drawn.data.winners).toEqual(
      winners.map((winner: { position: number; ticket_id: string; account: string; share: number; amount: string }, i: number) => ({
        position: winner.position,
        ticketId: winner.ticket_id,
        account: winner.account,
        share: winner.share,
        amount: winner.amount,
        prize: claims[i].items[0],
        claimId: expect.any(Number),
        // A round without item prizes: no position carries an item.
        item: null,
        itemClaimId: null,
      })),
    );
    expect(drawn.data).toMatchObject({ winner: winners[0].account, ticketIds: winners.map((w: { ticket_id: string }) => w.ticket_id) });
  });

  it("settles each prize claimed on its own, and releases the rest of the round at once", async () => {
    const winners: Array<{ ticket_id: string }> = await db.dataSource.query(`SELECT ticket_id FROM round_winner ORDER BY position`);
    await claimPrizes(world, raffle, 2n, [BigInt(winners[0].ticket_id), BigInt(winners[1].ticket_id)]);
    await db.indexer.syncToHead();
    expect((await round("2")).round_status).toBe("DRAWN");
    expect(await db.dataSource.query(`SELECT claim_status FROM round_winner ORDER BY position`)).toEqual([
      { claim_status: "CLAIMED" },
      { claim_status: "CLAIMED" },
      { claim_status: "UNCLAIMED" },
    ]);
    const claimStatuses = async () =>
      (
        await db.dataSource.query(
          `SELECT claim_status, redeemed_tx_hash IS NOT NULL AS redeemed FROM claim WHERE claim_type = 'RAFFLE_PRIZE' ORDER BY (parameters->>'position')::int`,
        )
      ).map((row: { claim_status: string; redeemed: boolean }) => [row.claim_status, row.redeemed]);
    expect(await claimStatuses()).toEqual([
      ["REDEEMED", true],
      ["REDEEMED", true],
      ["NEW", false],
    ]);

    await node.provider.send("evm_increaseTime", [86_401]);
    await (await Raffle__factory.connect(raffle.raffle, world.merchant).releasePrize(2n)).wait();
    await db.indexer.syncToHead();
    expect((await round("2")).round_status).toBe("RELEASED");
    expect(
      (await db.dataSource.query(`SELECT claim_status FROM round_winner ORDER BY position`)).map((w: { claim_status: string }) => w.claim_status),
    ).toEqual(["CLAIMED", "CLAIMED", "RELEASED"]);
    expect(await claimStatuses()).toEqual([
      ["REDEEMED", true],
      ["REDEEMED", true],
      ["RELEASED", false],
    ]);
    const statuses = await db.dataSource.query(
      `SELECT t.ticket_status FROM ticket t JOIN round_winner w ON w.ticket_id = t.token_id ORDER BY w.position`,
    );
    expect(statuses.map((row: { ticket_status: string }) => row.ticket_status)).toEqual(["PRIZE_CLAIMED", "PRIZE_CLAIMED", "PRIZE_RELEASED"]);
  });

  it("makes a round below its minimum refundable: a refund claim per ticket at what it paid, redeemed by refundTickets, and round.refundable", async () => {
    await setRules(world, raffle, { ...rules, minTickets: 20 });
    await restartRound(world, raffle); // round 2 is over; round 3 needs 20 tickets
    const bundle = await buyTickets(world, raffle, world.players[0], 5, 3n);
    const [single] = await buyTickets(world, raffle, world.players[1], 1, 3n);
    await (await Raffle__factory.connect(raffle.raffle, world.merchant).endRound()).wait();
    await db.indexer.syncToHead();
    expect(await round("3")).toMatchObject({ round_status: "REFUNDABLE", refund_reason: "MINIMUM_NOT_REACHED", ticket_count: 6, min_tickets: "20" });

    const refunds = async () =>
      db.dataSource.query(
        `SELECT account, token_id, items -> 0 ->> 'amount' AS amount, claim_status, end_timestamp FROM claim WHERE claim_type = 'RAFFLE_REFUND' ORDER BY token_id`,
      );
    expect(await refunds()).toEqual([
      ...bundle.map((ticketId) => ({
        account: alice,
        token_id: ticketId.toString(),
        amount: gold(9).toString(),
        claim_status: "NEW",
        end_timestamp: null,
      })),
      { account: bob, token_id: single.toString(), amount: gold(10).toString(), claim_status: "NEW", end_timestamp: null },
    ]);
    const [refundable] = await messages("round.refundable");
    expect(refundable.data).toMatchObject({ roundId: "3", reason: "MINIMUM_NOT_REACHED", ticketCount: 6 });

    await refundTickets(world, raffle, 3n, bundle);
    await db.indexer.syncToHead();
    const after = await refunds();
    expect(after.map((row: { claim_status: string }) => row.claim_status)).toEqual([
      "REDEEMED",
      "REDEEMED",
      "REDEEMED",
      "REDEEMED",
      "REDEEMED",
      "NEW",
    ]);
    const refunded = await db.dataSource.query(
      `SELECT args->>'amount' AS amount FROM indexer_event WHERE name = 'TicketRefunded' ORDER BY log_index`,
    );
    expect(refunded.map((row: { amount: string }) => row.amount)).toEqual(Array(5).fill(gold(9).toString()));
    const ticketStatuses = await db.dataSource.query(`SELECT ticket_status FROM ticket WHERE token_id = ANY($1::numeric[]) ORDER BY token_id`, [
      [...bundle, single].map(String),
    ]);
    expect(ticketStatuses.map((row: { ticket_status: string }) => row.ticket_status)).toEqual([...Array(5).fill("REFUNDED"), "ACTIVE"]);
  });

  it("writes no table its events' entries of the event table leave out (the undo log shows every row change, per block)", async () => {
    // Every block of this history is within the undo window, so the log holds each table changed in each block.
    const blocks: Array<{ block: string; tables: string[]; events: string[] }> = await db.dataSource.query(
      `SELECT u.block_number AS block, array_agg(DISTINCT u.table_name) AS tables,
              (SELECT array_agg(DISTINCT e.name) FROM indexer_event e WHERE e.chain_id = $1 AND e.block_number = u.block_number) AS events
         FROM indexer_undo u WHERE u.chain_id = $1 GROUP BY u.block_number ORDER BY u.block_number`,
      [world.deployment.chainId],
    );
    const written = new Set(blocks.flatMap((block) => block.tables));
    // The history reaches the tables of rounds, purchases, draws, claims and price tokens.
    expect([...written].sort()).toEqual(expect.arrayContaining(["claim", "contract", "price", "round", "round_winner", "ticket"]));
    for (const { block, tables, events } of blocks) {
      const declared = new Set(EVENT_HANDLERS.filter((handler) => (events ?? []).includes(handler.event)).flatMap((handler) => handler.writes));
      expect({ block, undeclared: tables.filter((table) => !declared.has(table as ProjectedTable)) }).toEqual({ block, undeclared: [] });
    }
  });

  it("indexes the same history from scratch into the same rows", async () => {
    const clean = await indexedDatabase("raffle_v2_clean", node.provider, world.deployment, { batchBlocks: 50 });
    try {
      await clean.indexer.syncToHead();
      const replayed = await projectionSnapshot(clean.dataSource);
      const live = await projectionSnapshot(db.dataSource);
      expect(replayed).toEqual(live);
      expect(live.orphans).toEqual([{ prices: 0, components: 0, tickets: 0, winners: 0, claims: 0 }]);
    } finally {
      await clean.close();
    }
  });

  it("forgets winners, prize and refund claims at a reset of the chain's index, and rebuilds the same rows", async () => {
    const before = await projectionSnapshot(db.dataSource);
    expect(before.claims.length).toBeGreaterThan(0);
    await db.indexer.stop();
    await resetIndexedChain(db.dataSource, world.deployment.chainId);
    const emptied = await projectionSnapshot(db.dataSource);
    expect({ winners: emptied.winners, claims: emptied.claims, orphans: emptied.orphans }).toEqual({
      winners: [],
      claims: [],
      orphans: [{ prices: 0, components: 0, tickets: 0, winners: 0, claims: 0 }],
    });
    const again = new Indexer(db.dataSource, node.provider, { deployment: world.deployment, logger: silentLogger, batchBlocks: 50 });
    try {
      await again.syncToHead();
    } finally {
      await again.stop();
    }
    expect(await projectionSnapshot(db.dataSource)).toEqual(before);
  });
});
