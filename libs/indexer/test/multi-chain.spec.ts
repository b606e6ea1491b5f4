import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";
import {
  buyTicket,
  deployTestRaffle,
  rpcProvider,
  setUpWorld,
  startTestNode,
  type DevNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";

import { Indexer } from "../src/indexer";
import type { IndexerLogger } from "../src/logger";
import { indexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { TcpGate } from "@raffle/testing";

const LOCK_NAMESPACE = 0x72616666;

/** One chain of the test: its node, the platform on it, a raffle, and the indexer of the shared database. */
interface Chain {
  chainId: number;
  node: DevNode;
  world: TestWorld;
  raffle: TestRaffle;
  /** The indexer's own provider (chain A's goes through the gate). */
  provider: JsonRpcProvider;
  indexer: Indexer;
  /** Errors the indexer logged: a failing node is logged once, not at every retry. */
  errors: string[];
}

/**
 * Two chains indexed by two Indexers in one process on one database, as the API runs them. The platform is deployed on
 * both from the same deployer nonces, so the Exchange, the factory and even the raffle have the same address on both
 * chains: only (chain id, address) keeps the chains apart. Chain A's indexer reaches its node through a TCP gate that
 * the test cuts (a node outage as its client sees it) and restores, while the node keeps its state.
 */
describe("two chains indexed in one process on one database", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let gate: TcpGate;
  let a: Chain;
  let b: Chain;

  async function chain(chainId: number, node: DevNode, provider: JsonRpcProvider, wsUrl: string): Promise<Chain> {
    const world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "NATIVE");
    const errors: string[] = [];
    const logger: IndexerLogger = {
      info: () => undefined,
      warn: () => undefined,
      error: (message, fields) => errors.push(`${message}: ${String(fields?.error)}`),
    };
    const indexer = new Indexer(dataSource, provider, { deployment: world.deployment, pollIntervalMs: 100, wsUrl, logger });
    return { chainId, node, world, raffle, provider, indexer, errors };
  }

  beforeAll(async () => {
    const [nodeA, nodeB] = await Promise.all([startTestNode({ chainId: 31337 }), startTestNode({ chainId: 31338 })]);
    gate = new TcpGate({ host: "127.0.0.1", port: nodeA.port });
    await gate.open();
    database = await createTestDatabase("multi_chain");
    dataSource = await openDatabase({ url: database.url, poolSize: 6 });
    [a, b] = await Promise.all([
      chain(31337, nodeA, rpcProvider(gate.rpcUrl), gate.wsUrl),
      chain(31338, nodeB, rpcProvider(nodeB.rpcUrl), nodeB.wsUrl),
    ]);
  });

  afterAll(async () => {
    for (const side of [a, b]) {
      await side?.indexer.stop();
      side?.provider.destroy();
    }
    await gate?.cut();
    await dataSource?.destroy();
    await database?.drop();
    await Promise.all([a?.node.stop(), b?.node.stop()]);
  });

  /** Per chain and raffle address: the round's ticket count and the ticket rows, with their buyers. */
  async function projected(): Promise<Array<{ chain_id: number; raffle: string; ticket_count: number; tickets: number; accounts: string[] }>> {
    return dataSource.query(
      `SELECT c.chain_id, c.address AS raffle, r.ticket_count, count(t.id)::int AS tickets,
              coalesce(array_agg(DISTINCT t.account) FILTER (WHERE t.id IS NOT NULL), '{}') AS accounts
         FROM round r JOIN contract c ON c.id = r.contract_id LEFT JOIN ticket t ON t.round_id = r.id
        GROUP BY c.chain_id, c.address, r.ticket_count ORDER BY c.chain_id`,
    );
  }

  async function buy(side: Chain, player: number, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) await buyTicket(side.world, side.raffle, side.world.players[player], 1n);
  }

  /** Resolves once the indexer's cursor stands at its node's head (read from the node directly, not through the gate). */
  async function caughtUp(side: Chain, timeoutMs = 20_000): Promise<void> {
    const head = await side.node.provider.getBlockNumber();
    await eventually(async () => expect(side.indexer.status().cursor).toBe(head), timeoutMs);
  }

  it("gives both chains the same addresses, and each indexer leads its own chain at the same time", async () => {
    expect(b.world.deployment.exchange).toBe(a.world.deployment.exchange);
    expect(b.world.deployment.raffleFactory).toBe(a.world.deployment.raffleFactory);
    expect(b.raffle.raffle).toBe(a.raffle.raffle);
    expect(b.raffle.ticket).toBe(a.raffle.ticket);

    a.indexer.start();
    b.indexer.start();
    await eventually(async () => {
      expect(a.indexer.status().leader).toBe(true);
      expect(b.indexer.status().leader).toBe(true);
    }, 20_000);
    // Two locks, one per chain, held by two sessions of this one process: the lock key is (namespace, chain id).
    const locks: Array<{ chain: number; pid: number }> = await dataSource.query(
      `SELECT objid::int AS chain, pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY objid`,
      [LOCK_NAMESPACE],
    );
    expect(locks.map((lock) => lock.chain)).toEqual([31337, 31338]);
    expect(locks[0].pid).not.toBe(locks[1].pid);
  });

  it("projects each chain's purchases under its own chain id, though the addresses are equal", async () => {
    await Promise.all([buy(a, 0, 3), buy(b, 1, 2)]);
    await Promise.all([caughtUp(a), caughtUp(b)]);

    const [playerA, playerB] = [await a.world.players[0].getAddress(), await b.world.players[1].getAddress()];
    expect(await projected()).toEqual([
      { chain_id: 31337, raffle: a.raffle.raffle, ticket_count: 3, tickets: 3, accounts: [playerA] },
      { chain_id: 31338, raffle: b.raffle.raffle, ticket_count: 2, tickets: 2, accounts: [playerB] },
    ]);
    const exchanges = await dataSource.query(`SELECT chain_id FROM contract WHERE address = $1 ORDER BY chain_id`, [a.world.deployment.exchange]);
    expect(exchanges).toEqual([{ chain_id: 31337 }, { chain_id: 31338 }]);
    const events = await dataSource.query(
      `SELECT chain_id, count(*)::int AS purchases FROM indexer_event WHERE name = 'TicketsPurchased' GROUP BY chain_id ORDER BY chain_id`,
    );
    expect(events).toEqual([
      { chain_id: 31337, purchases: 3 },
      { chain_id: 31338, purchases: 2 },
    ]);
  });

  it("keeps indexing the other chain while one chain's node is cut off, and the cut one catches up when it returns", async () => {
    await gate.cut();
    // Chain A's steps fail from now on: its indexer reports it, and keeps its lock (the database is fine).
    await eventually(async () => expect(a.indexer.status().lastError).not.toBeNull(), 20_000);
    const cursorA = a.indexer.status().cursor;

    // Purchases on both chains during the outage; only chain B's can be indexed now.
    await Promise.all([buy(a, 0, 2), buy(b, 1, 2)]);
    await caughtUp(b);
    // A few more of chain A's failing steps, so chain B's batches above ran while A's were failing, not before.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(b.indexer.status()).toMatchObject({ leader: true, lastError: null });
    expect(a.indexer.status()).toMatchObject({ leader: true, cursor: cursorA });
    expect(a.indexer.status().lastError).not.toBeNull();
    expect((await projected()).map((row) => [row.chain_id, row.ticket_count, row.tickets])).toEqual([
      [31337, 3, 3],
      [31338, 4, 4],
    ]);
    // An outage is one distinct error for chain A, however many steps failed; chain B logged none.
    expect(a.errors.length).toBeGreaterThanOrEqual(1);
    expect(a.errors.length).toBeLessThanOrEqual(3);
    expect(b.errors).toEqual([]);

    await gate.open();
    await caughtUp(a, 30_000);
    await eventually(async () => expect(a.indexer.status().lastError).toBeNull(), 10_000);
    expect((await projected()).map((row) => [row.chain_id, row.ticket_count, row.tickets])).toEqual([
      [31337, 5, 5],
      [31338, 4, 4],
    ]);
  });

  it("holds, per chain, exactly what a clean index of that chain alone holds", async () => {
    for (const side of [a, b]) {
      const clean = await indexedDatabase(`multi_chain_clean_${side.chainId}`, side.node.provider, side.world.deployment, { batchBlocks: 500 });
      try {
        await clean.indexer.syncToHead();
        const shared = await projectionSnapshot(dataSource, side.chainId);
        expect(shared).toEqual(await projectionSnapshot(clean.dataSource));
        expect(shared.cursor).toEqual([{ chain_id: side.chainId, block_number: expect.any(String), block_hash: expect.any(String) }]);
      } finally {
        await clean.close();
      }
    }
  });
});
