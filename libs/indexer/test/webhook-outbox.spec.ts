import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestWorld } from "@raffle/chain/testing";

import { Indexer } from "../src/indexer";
import { silentLogger } from "../src/logger";
import { resetIndexedChain } from "../src/reset";
import { WEBHOOK_EVENT_TYPES } from "../src/webhook-outbox";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";

/** The webhook outbox is written in the batch's transaction: a failed batch leaves no message, a replay adds none. */
describe("webhook outbox", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let db: IndexedDatabase;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    db = await indexedDatabase("webhook_outbox", node.provider, world.deployment, { batchBlocks: 50 });
    await db.indexer.syncToHead();
    // The merchant exists before its raffle does (it got an API key and registered an endpoint).
    const [{ id: merchantId }] = await db.dataSource.query(
      `INSERT INTO merchant (wallet) VALUES ($1) ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
      [await world.merchant.getAddress()],
    );
    await db.dataSource.query(`INSERT INTO webhook_endpoint (merchant_id, url, events, secret) VALUES ($1, 'https://example.com/h', $2, 'sealed')`, [
      merchantId,
      [...WEBHOOK_EVENT_TYPES],
    ]);
  });

  afterAll(async () => {
    try {
      await db?.close();
    } finally {
      await node?.stop();
    }
  });

  const messages = async () =>
    (await db.dataSource.query(`SELECT type, event_id, body FROM webhook_message ORDER BY seq`)) as Array<{
      type: string;
      event_id: string;
      body: string;
    }>;

  it("writes nothing when a batch's transaction fails, and each message once when it commits", async () => {
    const raffle = await deployTestRaffle(world, "ERC20");
    await db.indexer.syncToHead();
    expect((await messages()).map((message) => message.type)).toEqual(["raffle.deployed", "round.started"]);
    await buyTicket(world, raffle, world.players[0], 5n);
    // The cursor is written last in the batch: failing there rolls back everything the batch wrote before.
    await db.dataSource.query(`CREATE FUNCTION fail_cursor() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$`);
    await db.dataSource.query(`CREATE TRIGGER fail_cursor BEFORE UPDATE ON indexer_cursor FOR EACH ROW EXECUTE FUNCTION fail_cursor()`);
    await expect(db.indexer.step()).rejects.toThrow(/injected/);
    expect((await messages()).map((message) => message.type)).toEqual(["raffle.deployed", "round.started"]);
    const [{ count: before }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM webhook_delivery`);
    expect(before).toBe(2);

    await db.dataSource.query(`DROP TRIGGER fail_cursor ON indexer_cursor`);
    await db.indexer.syncToHead();
    const written = await messages();
    expect(written.map((message) => message.type)).toEqual(["raffle.deployed", "round.started", "ticket.purchased"]);
    expect(new Set(written.map((message) => message.event_id)).size).toBe(3);
    const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM webhook_delivery WHERE status = 'PENDING'`);
    expect(count).toBe(3);
    // Assets as the API shows them: the token type by name.
    const started = JSON.parse(written[1].body);
    expect(started.data.price).toMatchObject({ tokenType: "ERC20", token: world.token, amount: raffle.price.amount.toString() });
    expect(started.data.ticket).toMatchObject({ tokenType: "ERC721", token: raffle.ticket });
  });

  it("does not announce an event again when the chain is indexed anew after a reset", async () => {
    await db.indexer.stop();
    await resetIndexedChain(db.dataSource, world.deployment.chainId);
    const again = new Indexer(db.dataSource, node.provider, { deployment: world.deployment, logger: silentLogger, batchBlocks: 50 });
    try {
      await again.syncToHead();
    } finally {
      await again.stop();
    }
    expect((await messages()).map((message) => message.type)).toEqual(["raffle.deployed", "round.started", "ticket.purchased"]);
  });
});
