import { PausableItem721__factory, Raffle__factory, TestItems1155__factory, TokenType } from "@raffle/chain";
import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";

import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { buyTickets, claimPrizes, endAndDraw, restartRound } from "./support/v2-world";

describe("indexer reorg handling", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let db: IndexedDatabase;
  const reorgs: Array<{ chainId: number; from: number; ancestor: number; depth: number }> = [];

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
    db = await indexedDatabase("reorg", node.provider, world.deployment, { batchBlocks: 5, onReorg: (reorg) => reorgs.push(reorg) });
  });

  afterAll(async () => {
    await db?.close();
    await node?.stop();
  });

  it("rolls back to the common ancestor and re-projects the new branch", async () => {
    const [alice, bob, carol] = world.players;
    await buyTicket(world, raffle, alice, 1n);
    await buyTicket(world, raffle, bob, 1n);
    await db.indexer.syncToHead();
    const snapshotId: string = await node.provider.send("evm_snapshot", []);

    // The branch that will disappear: more tickets, a pause, the draw of the round.
    await buyTicket(world, raffle, carol, 1n);
    await buyTicket(world, raffle, carol, 1n);
    await (await Raffle__factory.connect(raffle.raffle, world.merchant).pause()).wait();
    await (await Raffle__factory.connect(raffle.raffle, world.merchant).unpause()).wait();
    await endAndDraw(world, raffle);
    await db.indexer.syncToHead();
    const [{ count: before }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM ticket`);
    expect(before).toBe(4);

    // The new branch: one different purchase, and more blocks than the old branch had.
    expect(await node.provider.send("evm_revert", [snapshotId])).toBe(true);
    await buyTicket(world, raffle, bob, 1n);
    for (let i = 0; i < 12; i += 1) await node.provider.send("evm_mine", []);

    const eventsBefore = db.indexer.status().eventsIndexed;
    expect(eventsBefore).toBeGreaterThan(0);
    const first = await db.indexer.step();
    expect(first.kind).toBe("reorg");
    // What the metrics read: one reorg, its depth from the old cursor down to the common ancestor.
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0]).toMatchObject({ chainId: world.deployment.chainId, ancestor: (first as { ancestor: number }).ancestor });
    expect(reorgs[0].depth).toBe(reorgs[0].from - reorgs[0].ancestor);
    expect(reorgs[0].depth).toBeGreaterThan(0);
    expect(db.indexer.status()).toMatchObject({ reorgs: 1, cursor: reorgs[0].ancestor });
    await db.indexer.syncToHead();
    expect(db.indexer.status()).toMatchObject({ lag: 0, lagSeconds: 0 });
    expect(db.indexer.status().eventsIndexed).toBeGreaterThan(eventsBefore);

    const [round] = await db.dataSource.query(`SELECT ticket_count, round_status, end_timestamp, winning_ticket_id FROM round`);
    expect(round).toEqual({ ticket_count: 3, round_status: "ACTIVE", end_timestamp: null, winning_ticket_id: null });
    const claims = await db.dataSource.query(`SELECT id FROM claim`);
    expect(claims).toHaveLength(0);

    // Exactly what a clean index of the surviving chain gives, orphans included.
    const clean = await indexedDatabase("reorg_clean", node.provider, world.deployment, { batchBlocks: 50 });
    try {
      await clean.indexer.syncToHead();
      const reorged = await projectionSnapshot(db.dataSource);
      expect(reorged).toEqual(await projectionSnapshot(clean.dataSource));
      expect(reorged.orphans).toEqual([{ prices: 0, components: 0, tickets: 0, winners: 0, claims: 0 }]);
    } finally {
      await clean.close();
    }
  });

  it("undoes only what the removed blocks changed: a title the merchant set meanwhile stays", async () => {
    const raffleContract = Raffle__factory.connect(raffle.raffle, world.merchant);
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    await (await raffleContract.pause()).wait();
    await db.indexer.syncToHead();
    await db.dataSource.query(`UPDATE contract SET title = 'Set by the merchant' WHERE address = $1`, [raffle.raffle]);

    await node.provider.send("evm_revert", [snapshotId]);
    for (let i = 0; i < 4; i += 1) await node.provider.send("evm_mine", []);
    await db.indexer.syncToHead();
    const [row] = await db.dataSource.query(`SELECT title, is_paused FROM contract WHERE address = $1`, [raffle.raffle]);
    expect(row).toEqual({ title: "Set by the merchant", is_paused: false });
    const [{ count }] = await db.dataSource.query(
      `SELECT count(*)::int AS count FROM indexer_undo WHERE block_number > (SELECT block_number FROM indexer_cursor)`,
    );
    expect(count).toBe(0);
  });

  it("refuses, naming the way out, a reorg below its undo window", async () => {
    const shallow = await indexedDatabase("reorg_shallow", node.provider, world.deployment, { batchBlocks: 50, reorgWindowBlocks: 2 });
    try {
      await shallow.indexer.syncToHead();
      const snapshotId: string = await node.provider.send("evm_snapshot", []);
      for (let i = 0; i < 4; i += 1) await buyTicket(world, raffle, world.players[0], 1n);
      await shallow.indexer.syncToHead();
      await node.provider.send("evm_revert", [snapshotId]);
      for (let i = 0; i < 8; i += 1) await node.provider.send("evm_mine", []);
      await expect(shallow.indexer.step()).rejects.toThrow(/below the undo window .*`npm run indexer -- reset --chain 31337`/);
    } finally {
      await shallow.close();
    }
  });

  it("keeps a round's row id through a reorg that only removes its later events", async () => {
    const [{ id: roundRowId }] = await db.dataSource.query(`SELECT id FROM round`);
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    await endAndDraw(world, raffle);
    await db.indexer.syncToHead();
    expect((await db.dataSource.query(`SELECT round_status FROM round`))[0].round_status).toBe("DRAWN");
    expect(await db.dataSource.query(`SELECT claim_status FROM claim`)).toHaveLength(1);

    await node.provider.send("evm_revert", [snapshotId]);
    for (let i = 0; i < 8; i += 1) await node.provider.send("evm_mine", []);
    await db.indexer.syncToHead();

    expect(await db.dataSource.query(`SELECT id, round_status, ticket_count FROM round`)).toEqual([
      { id: roundRowId, round_status: "ACTIVE", ticket_count: 3 },
    ]);
    expect(await db.dataSource.query(`SELECT id FROM claim`)).toHaveLength(0);
  });
  it("indexes a round priced in a token whose first use a reorg removed (no stale cached row id)", async () => {
    // No NATIVE round so far: the first one creates the native coin's contract row, inside the blocks reorged away.
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    const removed = await deployTestRaffle(world, "NATIVE");
    await db.indexer.syncToHead();
    const nativeRows = () => db.dataSource.query(`SELECT contract_type FROM contract WHERE contract_type = 'NATIVE'`);
    expect(await nativeRows()).toHaveLength(1);

    await node.provider.send("evm_revert", [snapshotId]);
    for (let i = 0; i < 8; i += 1) await node.provider.send("evm_mine", []);
    // The same raffle again on the new branch: its first round needs the native coin's row anew.
    const again = await deployTestRaffle(world, "NATIVE");
    expect(again.raffle).toBe(removed.raffle);
    await db.indexer.syncToHead();

    const [round] = await db.dataSource.query(
      `SELECT r.round_status, tc.contract_type AS price_token
         FROM round r JOIN contract c ON c.id = r.contract_id JOIN price_component pc ON pc.price_id = r.price_id
         JOIN contract tc ON tc.id = pc.contract_id WHERE c.address = $1`,
      [again.raffle],
    );
    expect(round).toEqual({ round_status: "ACTIVE", price_token: "NATIVE" });
    expect(await nativeRows()).toHaveLength(1);
  });
  it("rolls back item prizes: a draw, claims and a failed transfer a reorg removed leave the escrow a clean index gives", async () => {
    const [alice, bob, carol] = world.players;
    const merchant = await world.merchant.getAddress();
    const itemRaffle = await deployTestRaffle(world, "ERC20");
    const sword = await new PausableItem721__factory(world.admin).deploy();
    const potions = await new TestItems1155__factory(world.admin).deploy();
    await (await sword.mint(merchant)).wait();
    await (await potions.mint(merchant, 7n, 50n)).wait();
    await (await sword.connect(world.merchant).setApprovalForAll(itemRaffle.raffle, true)).wait();
    await (await potions.connect(world.merchant).setApprovalForAll(itemRaffle.raffle, true)).wait();
    await (
      await Raffle__factory.connect(itemRaffle.raffle, world.merchant).setItemPrizes([
        { position: 1, asset: { tokenType: TokenType.ERC721, token: await sword.getAddress(), tokenId: 1n, amount: 1n } },
        { position: 2, asset: { tokenType: TokenType.ERC1155, token: await potions.getAddress(), tokenId: 7n, amount: 50n } },
      ])
    ).wait();
    await restartRound(world, itemRaffle);
    await db.indexer.syncToHead();
    const snapshotId: string = await node.provider.send("evm_snapshot", []);

    // The branch that will disappear: sold, drawn, the sword's transfer refused by its paused token, then claimed.
    await buyTickets(world, itemRaffle, alice, 1);
    await buyTickets(world, itemRaffle, bob, 1);
    const roundId = await endAndDraw(world, itemRaffle);
    const winners = await Raffle__factory.connect(itemRaffle.raffle, world.merchant).getWinners(roundId);
    await (await sword.setPaused(true)).wait();
    await claimPrizes(
      world,
      itemRaffle,
      roundId,
      winners.map((winner) => winner.ticketId),
    );
    const items = `SELECT i.position, i.status, i.failed_to IS NOT NULL AS failed FROM round_item i JOIN round r ON r.id = i.round_id
                     JOIN contract c ON c.id = r.contract_id WHERE c.address = $1 ORDER BY i.position`;
    await db.indexer.syncToHead();
    expect(await db.dataSource.query(items, [itemRaffle.raffle])).toEqual([
      { position: 1, status: "ESCROWED", failed: true },
      { position: 2, status: "CLAIMED", failed: false },
    ]);
    expect(await db.dataSource.query(`SELECT claim_status FROM claim WHERE claim_type = 'RAFFLE_ITEM' ORDER BY token_id`)).toHaveLength(2);

    // The new branch: one other purchase, and more blocks than the old branch had.
    await node.provider.send("evm_revert", [snapshotId]);
    await buyTickets(world, itemRaffle, carol, 1);
    for (let i = 0; i < 12; i += 1) await node.provider.send("evm_mine", []);
    await db.indexer.syncToHead();
    expect(await db.dataSource.query(items, [itemRaffle.raffle])).toEqual([
      { position: 1, status: "ESCROWED", failed: false },
      { position: 2, status: "ESCROWED", failed: false },
    ]);
    expect(await db.dataSource.query(`SELECT id FROM claim WHERE claim_type = 'RAFFLE_ITEM'`)).toHaveLength(0);
    const clean = await indexedDatabase("reorg_items_clean", node.provider, world.deployment, { batchBlocks: 50 });
    try {
      await clean.indexer.syncToHead();
      // The rows the item round wrote (a raffle's title set by an earlier case is the merchant's, not the chain's).
      const projected = async (dataSource: typeof db.dataSource) => {
        const { rounds, tickets, winners, items, claims } = await projectionSnapshot(dataSource);
        return { rounds, tickets, winners, items, claims };
      };
      const reorged = await projected(db.dataSource);
      expect(reorged.items).toHaveLength(2);
      expect(reorged).toEqual(await projected(clean.dataSource));
    } finally {
      await clean.close();
    }
  });
});
