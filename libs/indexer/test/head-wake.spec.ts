import { startTestNode, setUpWorld, deployTestRaffle, buyTicket, type HardhatNode, type TestWorld, type TestRaffle } from "@raffle/chain/testing";

import { Indexer } from "../src/indexer";
import { silentLogger, type IndexerLogger } from "../src/logger";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";

/** Far longer than any wait below: whatever is indexed in time was woken by a head, not by a poll. */
const POLL_MS = 10_000;

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("indexer woken by new heads over WebSocket", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;
  let db: IndexedDatabase;
  const messages: string[] = [];

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "ERC20");
    const logger: IndexerLogger = {
      info: (message) => messages.push(message),
      warn: (message) => messages.push(message),
      error: (message) => messages.push(message),
    };
    db = await indexedDatabase("head_wake", node.provider, world.deployment, { pollIntervalMs: POLL_MS, wsUrl: node.wsUrl, logger });
  });

  afterAll(async () => {
    await db?.close();
    await node?.stop();
  });

  it("indexes a purchase well within the poll interval; a follower is not woken; stop() does not wait for the poll", async () => {
    db.indexer.start();
    await waitUntil(() => db.indexer.status().leader, 20_000);
    const follower = new Indexer(db.dataSource, node.provider, {
      deployment: world.deployment,
      pollIntervalMs: POLL_MS,
      wsUrl: node.wsUrl,
      logger: silentLogger,
    });
    try {
      follower.start();
      // Caught up after its first step and subscribed: from here on only a head or the poll 10 s later runs a step.
      const head = await node.provider.getBlockNumber();
      await waitUntil(() => db.indexer.status().cursor === head && messages.includes("following new heads"), 20_000);

      const ticketId = await buyTicket(world, raffle, world.players[0], 7n);
      const mined = Date.now();
      await waitUntil(async () => {
        const rows = await db.dataSource.query(
          `SELECT 1 FROM ticket t JOIN contract c ON c.id = t.contract_id WHERE c.address = $1 AND t.token_id = $2`,
          [raffle.ticket, ticketId.toString()],
        );
        return rows.length > 0;
      }, POLL_MS);
      // Well before the poll, even on a loaded machine (suites run side by side): a head woke it.
      expect(Date.now() - mined).toBeLessThan(POLL_MS / 2);
      expect(db.indexer.status().headWakes).toBeGreaterThan(0);
      expect(follower.status()).toMatchObject({ leader: false, headWakes: 0 });
    } finally {
      await follower.stop();
    }

    const stopping = Date.now();
    await db.indexer.stop();
    expect(Date.now() - stopping).toBeLessThan(POLL_MS / 2);
  });
});
