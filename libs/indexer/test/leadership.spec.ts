import { Client } from "pg";
import type { DataSource } from "typeorm";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { buyTicket, deployTestRaffle, setUpWorld, startHardhatNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";

import { Indexer } from "../src/indexer";
import { Leadership, LeadershipLostError } from "../src/leadership";
import type { IndexerLogger } from "../src/logger";
import { indexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";

const LOCK_NAMESPACE = 0x72616666;

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Two API processes' indexers on one database: one leads; terminating its lock's session moves the lead, once. */
describe("indexing leadership under pg_terminate_backend", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let database: TestDatabase;
  let admin: Client;
  const dataSources: DataSource[] = [];
  const indexers: Indexer[] = [];
  const reorgLogs: string[] = [];
  /** Ends the first test's sampling loop, also when that test fails half-way (else Jest never exits). */
  let stopSampling = () => {};

  beforeAll(async () => {
    node = await startHardhatNode();
    world = await setUpWorld(node.provider);
    // Room for every purchase the load below makes, however long the takeover takes (on anvil, which mines at
    // once, a slow takeover once sold out a 100-ticket round and the next purchase reverted).
    raffle = await deployTestRaffle(world, "ERC20", 1_000_000n);
    database = await createTestDatabase("leadership");
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });

  afterAll(async () => {
    stopSampling();
    for (const indexer of indexers) await indexer.stop();
    for (const dataSource of dataSources) await dataSource.destroy();
    await admin?.end();
    await database?.drop();
    await node?.stop();
  });

  /** An indexer in a data source (a connection pool) of its own, as in its own process. */
  async function replica(name: string): Promise<Indexer> {
    const dataSource = await openDatabase({ url: database.url, poolSize: 4 });
    dataSources.push(dataSource);
    const log = (message: string) => {
      if (message.startsWith("reorg")) reorgLogs.push(`${name}: ${message}`);
    };
    const logger: IndexerLogger = { info: log, warn: log, error: log };
    const indexer = new Indexer(dataSource, node.provider, { deployment: world.deployment, pollIntervalMs: 50, logger });
    indexers.push(indexer);
    return indexer;
  }

  /** The backend pid of the session that holds the chain's indexing lock in the test database. */
  async function lockHolderPid(): Promise<number | null> {
    const { rows } = await admin.query(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [LOCK_NAMESPACE, world.deployment.chainId],
    );
    return rows[0]?.pid ?? null;
  }

  it("moves to the other process, whose batches alone commit from then on, and a reorg is rolled back once", async () => {
    const [first, second] = [await replica("first"), await replica("second")];
    first.start();
    await waitUntil(() => first.status().leader, 20_000, "the first indexer leads");
    second.start();

    // Load: purchases keep coming while the lock's session is terminated.
    let buying = true;
    let bought = 0;
    const load = (async () => {
      while (buying) {
        await buyTicket(world, raffle, world.players[bought % world.players.length], 1n);
        bought += 1;
        // A steady stream, not a flood: the two indexers and the node share the test's CPU.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    // How long both report leading at once, sampled every few milliseconds from here to the end of the test.
    let bothLeadingMs = 0;
    let sampling = true;
    stopSampling = () => {
      sampling = false;
    };
    const sampler = (async () => {
      let last = Date.now();
      while (sampling) {
        const now = Date.now();
        if (first.status().leader && second.status().leader) bothLeadingMs += now - last;
        last = now;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    try {
      await waitUntil(() => bought >= 3, 30_000, "the load runs");
      const pid = await lockHolderPid();
      expect(pid).not.toBeNull();
      const { rows } = await admin.query(`SELECT pg_terminate_backend($1) AS terminated`, [pid]);
      expect(rows[0].terminated).toBe(true);
      const terminatedAt = Date.now();

      // The former leader steps down within a step or two, and the other process takes over.
      // (Generous bounds: on a loaded 2-core machine the takeover once took over 10 s. Without fencing the former
      // leader never steps down, so any bound tells the two apart.)
      await waitUntil(() => !first.status().leader, 30_000, "the first indexer steps down");
      await waitUntil(() => second.status().leader, 30_000, "the second indexer leads");
      expect(Date.now() - terminatedAt).toBeLessThan(30_000);
      await waitUntil(() => bought >= 8, 30_000, "more purchases happen under the new leader");
    } finally {
      buying = false;
      await load;
    }

    // A reorg under the new leader is rolled back by it alone, once.
    await waitUntil(async () => second.status().cursor === (await node.provider.getBlockNumber()), 10_000, "the index is at the head");
    const snapshotId: string = await node.provider.send("evm_snapshot", []);
    await buyTicket(world, raffle, world.players[0], 1n);
    await waitUntil(async () => second.status().cursor === (await node.provider.getBlockNumber()), 10_000, "the doomed block is indexed");
    expect(await node.provider.send("evm_revert", [snapshotId])).toBe(true);
    for (let i = 0; i < 3; i += 1) await node.provider.send("evm_mine", []);
    await waitUntil(() => reorgLogs.length > 0, 10_000, "the reorg is handled");
    await waitUntil(async () => second.status().cursor === (await node.provider.getBlockNumber()), 10_000, "the new branch is indexed");
    await new Promise((resolve) => setTimeout(resolve, 500));
    sampling = false;
    await sampler;

    expect(reorgLogs).toEqual(["second: reorg: rolled back to the common ancestor"]);
    // Never two leaders at once, beyond the moment between the new leader's start and the old one's next (failing)
    // step; and whatever the old one had in flight could not commit (the batch fence, tested below).
    expect(bothLeadingMs).toBeLessThan(3_000);
    expect(first.status().leader).toBe(false);

    // What the two wrote together is exactly a clean index of the chain.
    const clean = await indexedDatabase("leadership_clean", node.provider, world.deployment, { batchBlocks: 50 });
    try {
      await clean.indexer.syncToHead();
      expect(await projectionSnapshot(dataSources[1])).toEqual(await projectionSnapshot(clean.dataSource));
    } finally {
      await clean.close();
    }
    const [{ count }] = await dataSources[1].query(`SELECT count(*)::int AS count FROM ticket`);
    expect(count).toBe(bought);
  });

  it("never commits a batch in a transaction whose session no longer holds the lock", async () => {
    const dataSource = dataSources[0];
    const leadership = new Leadership(dataSource, 999_999);
    expect(await leadership.tryAcquire()).toBe(true);
    // The lock gone while the session lives (as after a session-level reset): the fence inside the transaction sees it.
    await leadership.manager.query(`SELECT pg_advisory_unlock($1, $2)`, [LOCK_NAMESPACE, 999_999]);
    await expect(
      leadership.transaction((manager) =>
        manager.query(`INSERT INTO merchant (wallet, title) VALUES ('0x000000000000000000000000000000000000dEaD', 'fenced')`),
      ),
    ).rejects.toBeInstanceOf(LeadershipLostError);
    expect(await dataSource.query(`SELECT id FROM merchant WHERE title = 'fenced'`)).toEqual([]);
    expect(await leadership.confirm()).toBe(false);
    expect(leadership.isHeld).toBe(false);
  });
});
