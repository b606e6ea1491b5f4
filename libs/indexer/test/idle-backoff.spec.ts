import {
  buyTicket,
  deployTestRaffle,
  rpcProvider,
  setUpWorld,
  startTestNode,
  type HardhatNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { rpcProxy, type RpcProxy } from "./support/rpc-proxy";

const POLL_MS = 50;
const IDLE_MAX_MS = 400;
const WATCH_MS = 2_400;

/** Until `check` holds, asked every 10 ms (the shared `eventually`, which retries a check that throws). */
function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  return eventually(
    async () => {
      if (!(await check())) throw new Error("timed out waiting");
    },
    timeoutMs,
    10,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A quiet chain costs next to nothing: the leader's poll backs off from POLL_MS to IDLE_MAX_MS while nothing happens
 * (no blocks, or blocks without the platform's events), and comes back to POLL_MS once events arrive. Without a
 * WebSocket (as here), a purchase after a quiet spell is indexed within one backed-off wait.
 */
describe("indexer polling a quiet chain backs off", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let proxy: RpcProxy;
  let db: IndexedDatabase;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
    proxy = await rpcProxy(node.rpcUrl);
    db = await indexedDatabase("idle_backoff", rpcProvider(proxy.url), world.deployment, { pollIntervalMs: POLL_MS, idlePollMaxMs: IDLE_MAX_MS });
  });

  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await node?.stop();
  });

  /** Calls of `method` the indexer made during `ms`. */
  async function callsDuring(method: string, ms: number): Promise<number> {
    const before = proxy.calls(method);
    await sleep(ms);
    return proxy.calls(method) - before;
  }

  it("polls an idle chain about once per IDLE_MAX_MS, reads no logs, and still indexes a purchase within one backed-off wait", async () => {
    db.indexer.start();
    const head = await node.provider.getBlockNumber();
    await waitUntil(() => db.indexer.status().cursor === head, 30_000);
    await sleep(IDLE_MAX_MS * 2);

    // Every step asks for the head once. At the poll interval that would be 48 calls in WATCH_MS; backed off, about 6
    // (a loaded machine only makes fewer).
    const idleHeads = await callsDuring("eth_blockNumber", WATCH_MS);
    expect(idleHeads).toBeLessThanOrEqual(WATCH_MS / IDLE_MAX_MS + 2);
    expect(idleHeads).toBeGreaterThan(0);
    expect(proxy.calls("eth_getLogs")).toBeGreaterThan(0);
    expect(await callsDuring("eth_getLogs", WATCH_MS)).toBe(0);

    const ticketId = await buyTicket(world, raffle, world.players[0], 3n);
    const mined = Date.now();
    await waitUntil(async () => {
      const rows = await db.dataSource.query(
        `SELECT 1 FROM ticket t JOIN contract c ON c.id = t.contract_id WHERE c.address = $1 AND t.token_id = $2`,
        [raffle.ticket, ticketId.toString()],
      );
      return rows.length > 0;
    }, 30_000);
    // One backed-off wait and a step; generous for a loaded machine, far below what a stuck loop would take.
    expect(Date.now() - mined).toBeLessThan(IDLE_MAX_MS + 5_000);
  }, 60_000);

  it("backs off on a chain that makes blocks without the platform's events: few eth_getLogs calls, not one per block", async () => {
    await sleep(IDLE_MAX_MS * 2);
    // A block every 100 ms, mined from here: the nodes disagree on evm_setIntervalMining's unit (Hardhat ms, anvil s).
    const mining = setInterval(() => void node.provider.send("evm_mine", []).catch(() => undefined), 100);
    try {
      // A block every 100 ms: stepping at the poll interval would read logs about 24 times in WATCH_MS.
      await sleep(IDLE_MAX_MS * 3);
      const logReads = await callsDuring("eth_getLogs", WATCH_MS);
      expect(logReads).toBeLessThanOrEqual(WATCH_MS / IDLE_MAX_MS + 2);
      expect(logReads).toBeGreaterThan(0);
      // The index keeps up with the blocks all the same, one backed-off wait behind at most.
      const head = await node.provider.getBlockNumber();
      await waitUntil(() => (db.indexer.status().cursor ?? 0) >= head, IDLE_MAX_MS + 5_000);
    } finally {
      clearInterval(mining);
    }
  }, 60_000);
});
