import cluster from "node:cluster";
import { setLogLevel } from "@raffle/config";

import { loadApiConfig } from "./config/api-config";
import { createApp } from "./app/create-app";
import { runClusterPrimary, workerIndex } from "./cluster";
import { jsonLog } from "./logging/logger";

async function main(): Promise<void> {
  const config = loadApiConfig();
  // LOG_LEVEL was checked by loadApiConfig: a bad value stops the API with its message instead of logging at info.
  setLogLevel(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runClusterPrimary(config.workers);
  // One indexer is enough (a second one would only wait for the leadership lock).
  const indexer = { ...config.indexer, enabled: config.indexer.enabled && workerIndex() === 0 };
  const app = await createApp({ ...config, indexer });
  // SIGTERM/SIGINT close the app: the indexer stops between batches, connections close.
  app.enableShutdownHooks();
  await app.listen(config.port, "0.0.0.0");
  jsonLog("info", "api listening", {
    port: config.port,
    worker: workerIndex(),
    pid: process.pid,
    chainIds: config.chains.map((chain) => chain.chainId),
    indexer: indexer.enabled,
    database: config.databaseUrl ? "postgresql" : "pglite",
  });
}

main().catch((error: unknown) => {
  jsonLog("error", "api failed to start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
