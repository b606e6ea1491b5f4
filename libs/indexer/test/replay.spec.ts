import { ZeroAddress, id as topicOf, AbiCoder } from "ethers";
import { LogEmitter__factory, Raffle__factory } from "@raffle/chain";
import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";

import type { IndexerLogger } from "../src/logger";
import { indexedDatabase, type IndexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { endAndDraw } from "./support/v2-world";

describe("indexer replays and unreadable logs", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let raffle: TestRaffle;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    raffle = await deployTestRaffle(world, "NATIVE");
    const [alice, bob] = world.players;
    await buyTicket(world, raffle, alice, 3n);
    await buyTicket(world, raffle, bob, 3n);
    await endAndDraw(world, raffle);
  });

  afterAll(async () => {
    await node?.stop();
  });

  it("replaying an already indexed range changes nothing", async () => {
    const db: IndexedDatabase = await indexedDatabase("replay", node.provider, world.deployment, { batchBlocks: 4 });
    try {
      await db.indexer.syncToHead();
      const before = await projectionSnapshot(db.dataSource);
      const from = world.deployment.deployBlock + 3;
      const hash = (await node.provider.getBlock(from))!.hash;
      await db.dataSource.query(`UPDATE indexer_cursor SET block_number = $1, block_hash = $2`, [from, hash]);
      await db.indexer.syncToHead();
      expect(await projectionSnapshot(db.dataSource)).toEqual(before);
      const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM ticket`);
      expect(count).toBe(2);
    } finally {
      await db.close();
    }
  });

  it("records unknown and malformed logs, warns, and keeps indexing", async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const logger: IndexerLogger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_message, fields) => warnings.push(fields ?? {}),
    };
    const db = await indexedDatabase("unreadable", node.provider, world.deployment, { logger });
    try {
      await db.indexer.syncToHead();
      // A contract registered as a raffle that emits logs no raffle ABI can read.
      const emitter = await new LogEmitter__factory(world.admin).deploy();
      await emitter.waitForDeployment();
      const emitterAddress = await emitter.getAddress();
      const fromBlock = await node.provider.getBlockNumber();
      await db.dataSource.query(
        `INSERT INTO contract (address, chain_id, merchant_id, contract_module, from_block, indexed_block)
         SELECT $1, $2, id, 'RAFFLE', $3, 0 FROM merchant ORDER BY id LIMIT 1`,
        [emitterAddress, world.deployment.chainId, fromBlock],
      );
      await db.indexer.init();

      const purchased = topicOf("TicketsPurchased(uint256,address,uint256,uint256,uint256,uint256)");
      await (await emitter.emitLog([topicOf("Mystery(uint256)")], "0x")).wait();
      await (await emitter.emitLog([purchased, `0x${"00".repeat(31)}01`], "0x01")).wait();
      await (
        await emitter.emitLog(
          [purchased, `0x${"00".repeat(31)}01`, `0x${"00".repeat(12)}${ZeroAddress.slice(2)}`, `0x${"00".repeat(31)}01`],
          AbiCoder.defaultAbiCoder().encode(["uint256"], [1n]),
        )
      ).wait();
      // And a real event after them.
      await (await Raffle__factory.connect(raffle.raffle, world.merchant).pause()).wait();

      await db.indexer.syncToHead();
      const recorded = await db.dataSource.query(`SELECT name, status FROM indexer_event WHERE address = $1 ORDER BY block_number, log_index`, [
        emitterAddress,
      ]);
      expect(recorded).toEqual([
        { name: null, status: "UNKNOWN" },
        { name: "TicketsPurchased", status: "MALFORMED" },
        { name: "TicketsPurchased", status: "MALFORMED" },
      ]);
      expect(warnings.map((warning) => warning.status)).toEqual(["UNKNOWN", "MALFORMED", "MALFORMED"]);
      const [{ is_paused: paused }] = await db.dataSource.query(`SELECT is_paused FROM contract WHERE address = $1`, [raffle.raffle]);
      expect(paused).toBe(true);
      expect(db.indexer.status()).toMatchObject({ lag: 0, lastError: null });
    } finally {
      await db.close();
    }
  });
});
