/**
 * Runs an indexer to the head in its own process, so a test can kill it with SIGKILL at any moment.
 * Environment: DATABASE_URL, RPC_URL, DEPLOYMENT (JSON), BATCH_BLOCKS.
 *
 * Plain JavaScript over the compiled indexer (dist/, which the suite's global setup brings up to date with the
 * sources): the crash test starts this process up to seven times, and each start under ts-node transpiled the indexer,
 * TypeORM's entities and the bindings again (about 4 s of CPU, against 0.5 s compiled).
 */
const path = require("node:path");
const { JsonRpcProvider } = require("ethers");

const DIST = path.resolve(__dirname, "../../../../dist");
const { openDatabase } = require(path.join(DIST, "libs/db/src/index.js"));
const { Indexer } = require(path.join(DIST, "libs/indexer/src/indexer.js"));
const { silentLogger } = require(path.join(DIST, "libs/indexer/src/logger.js"));

async function main() {
  const dataSource = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 2 });
  const provider = new JsonRpcProvider(process.env.RPC_URL, undefined, { cacheTimeout: -1, staticNetwork: true, pollingInterval: 100 });
  const deployment = JSON.parse(process.env.DEPLOYMENT);
  const indexer = new Indexer(dataSource, provider, {
    deployment,
    batchBlocks: Number(process.env.BATCH_BLOCKS ?? "1"),
    logger: silentLogger,
  });
  await indexer.init();
  process.stdout.write("started\n");
  await indexer.syncToHead();
  process.stdout.write("synced\n");
  provider.destroy();
  await dataSource.destroy();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
