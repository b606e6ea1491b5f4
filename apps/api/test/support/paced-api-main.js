/**
 * The compiled API (as COMPILED_MAIN serves, one process, no cluster) with the webhook pace a spec gives as JSON in its
 * first argument. In production that pace is fixed (WEBHOOK_TIMING); a spec of delivery across processes would wait
 * minutes for retries at it. Logs "api listening" once it listens, as main.js does.
 */
const path = require("node:path");

const DIST = path.resolve(__dirname, "../../../../dist/apps/api/src");
const { loadApiConfig } = require(path.join(DIST, "config/api-config.js"));
const { createApp } = require(path.join(DIST, "app/create-app.js"));
const { jsonLog } = require(path.join(DIST, "logging/logger.js"));

async function main() {
  const config = loadApiConfig();
  const webhooks = { ...config.webhooks, ...JSON.parse(process.argv[2] ?? "{}") };
  const app = await createApp({ ...config, webhooks });
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  jsonLog("info", "api listening", { port: config.port, pid: process.pid });
}

main().catch((error) => {
  jsonLog("error", "api failed to start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
