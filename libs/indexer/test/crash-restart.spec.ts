import { spawn } from "node:child_process";
import * as path from "node:path";
import { openDatabase } from "@raffle/db";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { buyTicket, deployTestRaffle, setUpWorld, startTestNode, startNextRound, type HardhatNode, type TestWorld } from "@raffle/chain/testing";

import { indexedDatabase } from "./support/indexer-harness";
import { projectionSnapshot } from "./support/snapshot";
import { endAndDraw } from "./support/v2-world";

const ROOT = path.resolve(__dirname, "../../..");
/** `npm run test:reliability` sets INDEXER_KILLS=20: a longer history, killed at 20 random points. */
const KILLS = Number(process.env.INDEXER_KILLS ?? 0);
const ROUNDS = KILLS > 0 ? 10 : 3;
const KILL_DELAYS_MS = KILLS > 0 ? Array.from({ length: KILLS }, () => Math.floor(Math.random() * 200)) : [150, 400, 40, 700, 250, 900];
const SCRIPT = path.join(__dirname, "support", "run-indexer.cjs");

interface Run {
  outcome: "synced" | "killed";
}

/** Starts the indexer process; kills it `killAfterMs` after it started indexing, unless it finished first. */
function runIndexer(env: Record<string, string>, killAfterMs: number | null): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (killAfterMs !== null && output.includes("started")) {
        setTimeout(() => child.kill("SIGKILL"), killAfterMs);
        killAfterMs = null;
      }
    });
    child.on("exit", (code, signal) => {
      if (output.includes("synced")) resolve({ outcome: "synced" });
      else if (signal === "SIGKILL") resolve({ outcome: "killed" });
      else reject(new Error(`indexer process failed (${code}): ${errors.slice(-2000)}`));
    });
  });
}

describe("indexer killed mid-batch and restarted", () => {
  let node: HardhatNode;
  let world: TestWorld;
  let database: TestDatabase;

  beforeAll(async () => {
    node = await startTestNode();
    world = await setUpWorld(node.provider);
    const erc20 = await deployTestRaffle(world, "ERC20");
    const native = await deployTestRaffle(world, "NATIVE");
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const player of world.players) {
        await buyTicket(world, erc20, player, BigInt(round + 1));
        await buyTicket(world, native, player, BigInt(round + 1));
      }
      await endAndDraw(world, erc20);
      await endAndDraw(world, native);
      await startNextRound(world, erc20);
      await startNextRound(world, native);
    }
    database = await createTestDatabase("crash");
    // Schema first, so every run of the process below only indexes.
    await (await openDatabase({ url: database.url })).destroy();
  });

  afterAll(async () => {
    await database?.drop();
    await node?.stop();
  });

  it("ends with exactly the rows of a clean run, however often it is killed", async () => {
    const env = {
      DATABASE_URL: database.url,
      RPC_URL: node.rpcUrl,
      DEPLOYMENT: JSON.stringify(world.deployment),
      BATCH_BLOCKS: "2",
    };
    let kills = 0;
    for (const delay of KILL_DELAYS_MS) {
      const run = await runIndexer(env, delay);
      if (run.outcome === "killed") kills += 1;
      else break;
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS > 0 ? KILLS : 3);
    expect((await runIndexer(env, null)).outcome).toBe("synced");

    const crashed = await openDatabase({ url: database.url });
    const clean = await indexedDatabase("crash_clean", node.provider, world.deployment, { batchBlocks: 100 });
    try {
      await clean.indexer.syncToHead();
      const expected = await projectionSnapshot(clean.dataSource);
      expect(expected.tickets).toHaveLength(ROUNDS * 8);
      expect(await projectionSnapshot(crashed)).toEqual(expected);
    } finally {
      await crashed.destroy();
      await clean.close();
    }
    // Up to seven processes, each indexing two blocks a batch: a minute or two when suites run side by side.
  }, 360_000);
});
