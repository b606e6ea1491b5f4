import type { DataSource } from "typeorm";
import { buyTicket, deployTestRaffle, setUpWorld, startAnvilNode, type DevNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";

import { Indexer } from "../src/indexer";
import type { IndexerLogger } from "../src/logger";
import { chainRows } from "./support/chain-rows";
import { indexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { endAndDraw } from "./support/v2-world";

interface Chain {
  chainId: number;
  node: DevNode;
  world: TestWorld;
  /** ERC20-priced, deployed before any reorg: it exists on both chains at the same address. */
  raffle: TestRaffle;
  indexer: Indexer;
  /** The indexer's warnings (a rollback logs one). */
  warnings: string[];
}

/**
 * Real reorgs on one of two anvil chains (anvil has `anvil_rollback` and `anvil_reorg`; Hardhat has not), both chains
 * indexed by two Indexers of one process into one database. The reorged chain must end exactly as a clean index of its
 * final chain; the other chain's rows must not change by one byte. This file starts its own anvil nodes whatever
 * TEST_NODE says: it runs in the Hardhat pass of `npm test`, and the anvil pass (`test:anvil`) leaves `*.anvil.*` out.
 */
describe("a reorg on one of two chains indexed into one database (anvil)", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let a: Chain;
  let b: Chain;

  async function chain(chainId: number): Promise<Chain> {
    const node = await startAnvilNode({ chainId });
    const world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "ERC20");
    const warnings: string[] = [];
    const logger: IndexerLogger = { info: () => undefined, warn: (message) => warnings.push(message), error: () => undefined };
    const indexer = new Indexer(dataSource, node.provider, { deployment: world.deployment, batchBlocks: 5, pollIntervalMs: 50, logger });
    return { chainId, node, world, raffle, indexer, warnings };
  }

  beforeAll(async () => {
    database = await createTestDatabase("anvil_multi_reorg");
    dataSource = await openDatabase({ url: database.url, poolSize: 6 });
    [a, b] = await Promise.all([chain(31337), chain(31338)]);
    // Some history on both chains before anything is reorged.
    for (const side of [a, b]) {
      await buyTicket(side.world, side.raffle, side.world.players[0], 1n);
      await buyTicket(side.world, side.raffle, side.world.players[1], 1n);
    }
    await Promise.all([a.indexer.syncToHead(), b.indexer.syncToHead()]);
  });

  afterAll(async () => {
    await a?.indexer.stop();
    await b?.indexer.stop();
    await dataSource?.destroy();
    await database?.drop();
    await Promise.all([a?.node.stop(), b?.node.stop()]);
  });

  /** The reorged chain's rows in the shared database equal those of a fresh database that indexed it alone. */
  async function expectCleanIndexOf(side: Chain): Promise<void> {
    const clean = await indexedDatabase(`anvil_multi_clean_${side.chainId}`, side.node.provider, side.world.deployment, { batchBlocks: 500 });
    try {
      await clean.indexer.syncToHead();
      const shared = await projectionSnapshot(dataSource, side.chainId);
      expect(shared).toEqual(await projectionSnapshot(clean.dataSource));
      expect(shared.orphans).toEqual([{ prices: 0, components: 0, tickets: 0, winners: 0, claims: 0 }]);
    } finally {
      await clean.close();
    }
  }

  async function raffleRows(address: string): Promise<Array<{ chain_id: number }>> {
    return dataSource.query(`SELECT chain_id FROM contract WHERE address = $1 AND contract_module = 'RAFFLE' ORDER BY chain_id`, [address]);
  }

  it("rolls back chain A below a raffle that chain B also has at the same address; chain B's rows stay byte for byte", async () => {
    const forkPoint = await a.node.provider.getBlockNumber();
    // On both chains: a second raffle, NATIVE-priced, at the same address on both (same merchant nonces).
    const [secondA, secondB] = await Promise.all([deployTestRaffle(a.world, "NATIVE"), deployTestRaffle(b.world, "NATIVE")]);
    expect(secondB.raffle).toBe(secondA.raffle);
    // Chain A's branch that will disappear: purchases on both raffles and a draw (a prize claim).
    await buyTicket(a.world, secondA, a.world.players[2], 1n);
    await buyTicket(a.world, secondA, a.world.players[3], 1n);
    await buyTicket(a.world, a.raffle, a.world.players[2], 1n);
    await endAndDraw(a.world, a.raffle);
    await buyTicket(b.world, secondB, b.world.players[3], 1n);
    await Promise.all([a.indexer.syncToHead(), b.indexer.syncToHead()]);
    expect(await raffleRows(secondA.raffle)).toEqual([{ chain_id: 31337 }, { chain_id: 31338 }]);
    expect((await dataSource.query(`SELECT count(*)::int AS claims FROM claim`))[0].claims).toBe(1);
    const before = await chainRows(dataSource, b.chainId);
    expect(before.indexer_undo.length).toBeGreaterThan(0);

    // Chain A only: back to before the second raffle, then a new branch longer than the old one. The new branch
    // deploys the second raffle again (same address, new registration) and buys on the first raffle.
    const oldHead = await a.node.provider.getBlockNumber();
    await a.node.provider.send("anvil_rollback", [oldHead - forkPoint]);
    expect(await a.node.provider.getBlockNumber()).toBe(forkPoint);
    await buyTicket(a.world, a.raffle, a.world.players[3], 1n);
    const again = await deployTestRaffle(a.world, "NATIVE");
    expect(again.raffle).toBe(secondA.raffle);
    while ((await a.node.provider.getBlockNumber()) <= oldHead) await a.node.provider.send("evm_mine", []);

    expect(await a.indexer.step()).toEqual({ kind: "reorg", ancestor: forkPoint });
    await a.indexer.syncToHead();
    await b.indexer.syncToHead();

    await expectCleanIndexOf(a);
    expect(await chainRows(dataSource, b.chainId)).toEqual(before);
    // The draw on chain A was undone; chain B never had one.
    expect((await dataSource.query(`SELECT count(*)::int AS claims FROM claim`))[0].claims).toBe(0);
    expect(a.warnings.filter((message) => message.startsWith("reorg"))).toHaveLength(1);
    expect(b.warnings).toEqual([]);
  });

  it("rolls back chain B (anvil_reorg) while both chains' loops run; chain A's rows stay byte for byte", async () => {
    for (const side of [a, b]) side.indexer.start();
    await buyTicket(b.world, b.raffle, b.world.players[2], 1n);
    await buyTicket(b.world, b.raffle, b.world.players[3], 1n);
    const head = await b.node.provider.getBlockNumber();
    await eventually(async () => expect(b.indexer.status().cursor).toBe(head), 20_000);
    const [{ tickets: ticketsBefore }] = await dataSource.query(
      `SELECT count(*)::int AS tickets FROM ticket t JOIN contract c ON c.id = t.contract_id WHERE c.chain_id = 31338`,
    );
    const before = await chainRows(dataSource, a.chainId);

    // The last 3 blocks of chain B (the two purchases among them) are replaced by 3 empty ones: same height, new hashes.
    await b.node.provider.send("anvil_reorg", [3, []]);
    const reorgedHead = await b.node.provider.getBlock("latest");
    expect(reorgedHead!.number).toBe(head);
    await eventually(async () => {
      expect(b.warnings.filter((message) => message.startsWith("reorg"))).toHaveLength(1);
      expect(b.indexer.status().cursor).toBe(head);
      const [stored] = await dataSource.query(`SELECT block_hash FROM indexer_cursor WHERE chain_id = 31338`);
      expect(stored.block_hash).toBe(reorgedHead!.hash);
    }, 20_000);

    const [{ tickets: ticketsAfter }] = await dataSource.query(
      `SELECT count(*)::int AS tickets FROM ticket t JOIN contract c ON c.id = t.contract_id WHERE c.chain_id = 31338`,
    );
    expect(ticketsAfter).toBe(ticketsBefore - 2);
    await expectCleanIndexOf(b);
    expect(await chainRows(dataSource, a.chainId)).toEqual(before);
    expect(a.indexer.status()).toMatchObject({ leader: true, lastError: null });
  });
});
