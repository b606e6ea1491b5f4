import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { createTestDatabase } from "@raffle/db/testing";

import type { IndexerLogger } from "../src/logger";
import { LOCK_NAMESPACE } from "../src/leadership";
import { IndexResetRequired, resetChainIndex } from "../src/reset";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Issue 31, item 8: an index that fails for good (a reorg below the undo window) says so in its status and names the
 * operator's command, and resetChainIndex (the command's core) brings a running indexer back, without a restart, to
 * exactly the rows of a clean index.
 */
describe("an index that fails for good, and its reset", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let db: IndexedDatabase | undefined;
  let clean: IndexedDatabase | undefined;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await clean?.close();
    await node?.stop();
  });

  it("marks the chain resetRequired with the command, and a reset under the running indexer ends in a clean index", async () => {
    const errors: string[] = [];
    const logger: IndexerLogger = { info: () => undefined, warn: () => undefined, error: (_message, fields) => errors.push(String(fields?.error)) };
    db = await indexedDatabase("reset_cmd", node.provider, world.deployment, { batchBlocks: 50, reorgWindowBlocks: 2, pollIntervalMs: 50, logger });
    await buyTicket(world, raffle, world.players[0], 1n);
    await db.indexer.syncToHead();
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    for (let i = 0; i < 4; i += 1) await buyTicket(world, raffle, world.players[1], 1n);
    await db.indexer.syncToHead();
    // A reorg deeper than the window: the removed branch is replaced by another, with another purchase.
    await node.provider.send("evm_revert", [snapshotId]);
    await buyTicket(world, raffle, world.players[2], 1n);
    for (let i = 0; i < 8; i += 1) await node.provider.send("evm_mine", []);

    await expect(db.indexer.step()).rejects.toBeInstanceOf(IndexResetRequired);
    db.indexer.start();
    await until(() => db!.indexer.status().resetRequired, 30_000, "the indexer to fail for good");
    expect(db.indexer.status().lastError).toMatch(/below the undo window .*`npm run indexer -- reset --chain 31337`/);
    expect(errors.some((error) => error.includes("npm run indexer -- reset --chain 31337"))).toBe(true);

    // The command opens its own connection, as the CLI does, while the indexer keeps running and leading.
    const cli = await openDatabase({ url: db.database.url, poolSize: 2 });
    try {
      // The running leader was ended; it may have taken the lock again once before the reset won it (a second end).
      const { leadersEnded } = await resetChainIndex(cli, world.deployment.chainId);
      expect(leadersEnded).toBeGreaterThanOrEqual(1);
      expect(leadersEnded).toBeLessThanOrEqual(3);
    } finally {
      await cli.destroy();
    }

    const head = await node.provider.getBlockNumber();
    await until(
      () => {
        const status = db!.indexer.status();
        return status.leader && !status.resetRequired && status.lastError === null && status.cursor === head;
      },
      60_000,
      "the indexer to index the chain again",
    );
    await db.indexer.stop();
    clean = await indexedDatabase("reset_clean", node.provider, world.deployment, { batchBlocks: 50 });
    await clean.indexer.syncToHead();
    const [tickets] = await db.dataSource.query(`SELECT count(*)::int AS count FROM ticket`);
    expect(tickets.count).toBe(2);
    expect(await projectionSnapshot(db.dataSource)).toEqual(await projectionSnapshot(clean.dataSource));
  }, 180_000);

  it("ends only its own database's leader, never the leader of the same chain id in another database", async () => {
    // Another environment (or test suite) on the same PostgreSQL server indexes a chain of the same id: its lock is its
    // database's, and a reset of this database must neither end its session nor count it.
    const here = await createTestDatabase("reset_here");
    const elsewhere = await createTestDatabase("reset_elsewhere");
    const [local, other] = await Promise.all([openDatabase({ url: here.url, poolSize: 2 }), openDatabase({ url: elsewhere.url, poolSize: 1 })]);
    const localLeader = (await openDatabase({ url: here.url, poolSize: 1 })).createQueryRunner();
    const otherLeader = other.createQueryRunner();
    const chainId = world.deployment.chainId;
    const lead = async (runner: typeof localLeader) =>
      (await runner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_NAMESPACE, chainId]))[0].locked;
    try {
      expect([await lead(localLeader), await lead(otherLeader)]).toEqual([true, true]);
      expect(await resetChainIndex(local, chainId, { timeoutMs: 5_000 })).toEqual({ leadersEnded: 1 });
      await expect(localLeader.query(`SELECT 1`)).rejects.toThrow();
      const [{ alive }] = await otherLeader.query(`SELECT 1 AS alive`);
      expect(alive).toBe(1);
    } finally {
      await otherLeader.release();
      await localLeader.connection.destroy().catch(() => undefined);
      await Promise.all([local.destroy(), other.destroy()]);
      await Promise.all([here.drop(), elsewhere.drop()]);
    }
  }, 60_000);
});
