/**
 * Runs an indexer to the head in its own process, so a test can kill it with SIGKILL at any moment.
 * Environment: DATABASE_URL, RPC_URL, DEPLOYMENT (JSON), BATCH_BLOCKS.
 */
import { openDatabase } from "@raffle/db";
import { type PlatformDeployment } from "@raffle/chain";
import { rpcProvider } from "@raffle/chain/testing";

import { Indexer } from "../../src/indexer";
import { silentLogger } from "../../src/logger";

async function main(): Promise<void> {
  const dataSource = await openDatabase({ url: process.env.DATABASE_URL!, poolSize: 2 });
  const provider = rpcProvider(process.env.RPC_URL!);
  const deployment = JSON.parse(process.env.DEPLOYMENT!) as PlatformDeployment;
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

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
