import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestWorld } from "@raffle/chain/testing";

import { indexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";

/**
 * A batch whose transaction fails rolls back every row it created, among them the price token's contract row that the
 * projector caches. The next step must not reuse what was rolled back (it failed on a foreign key for good before).
 */
describe("a failed batch", () => {
  let node: HardhatNode;
  let world: TestWorld;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    const raffle = await deployTestRaffle(world, "ERC20");
    await buyTicket(world, raffle, world.players[0], 1n);
  });

  afterAll(async () => {
    await node?.stop();
  });

  it("leaves nothing remembered of its rows: the retry projects the same as a clean run", async () => {
    const failing = await indexedDatabase("failed_batch", node.provider, world.deployment, { batchBlocks: 1_000 });
    const clean = await indexedDatabase("failed_batch_clean", node.provider, world.deployment, { batchBlocks: 1_000 });
    try {
      // The batch's last write, the cursor's move, fails once: after the projection (and the price token's row) is done.
      await failing.dataSource.query(`
        CREATE TABLE fail_once (armed boolean);
        INSERT INTO fail_once VALUES (true);
        CREATE FUNCTION fail_cursor_once() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.block_number >= 0 AND (SELECT armed FROM fail_once) THEN
            UPDATE fail_once SET armed = false;
            RAISE EXCEPTION 'the batch fails once';
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER fail_cursor_once BEFORE UPDATE ON indexer_cursor FOR EACH ROW EXECUTE FUNCTION fail_cursor_once();`);
      await expect(failing.indexer.step().then(() => failing.indexer.step())).rejects.toThrow(/the batch fails once/);
      // The rollback undid the flag too: disarm it for good outside any batch.
      await failing.dataSource.query(`DROP TRIGGER fail_cursor_once ON indexer_cursor`);

      await failing.indexer.syncToHead();
      await clean.indexer.syncToHead();
      const [{ count }] = await failing.dataSource.query(`SELECT count(*)::int AS count FROM ticket`);
      expect(count).toBe(1);
      expect(await projectionSnapshot(failing.dataSource)).toEqual(await projectionSnapshot(clean.dataSource));
    } finally {
      await failing.close();
      await clean.close();
    }
  });
});
