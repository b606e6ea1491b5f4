import { loadApiConfig } from "./config/api-config";
import { createApp } from "./app/create-app";
import { jsonLog } from "./services/json-logger";

async function main(): Promise<void> {
  const config = loadApiConfig();
  const app = await createApp(config);
  // SIGTERM/SIGINT close the app: the indexer stops between batches, connections close.
  app.enableShutdownHooks();
  await app.listen(config.port, "0.0.0.0");
  jsonLog("info", "api listening", {
    port: config.port,
    chainId: config.deployment.chainId,
    indexer: config.indexer.enabled,
    database: config.databaseUrl ? "postgresql" : "pglite",
  });
}

main().catch((error: unknown) => {
  jsonLog("error", "api failed to start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
