/**
 * The merchant worker: rotates the merchant's raffle rounds on their schedules, with the merchant's own key.
 *
 *   npm start                                  # run on the schedules, serve /health on HEALTH_PORT
 *   npm start -- --once [--contract 0x...]     # one rotation of every raffle (or of one), then exit; 1 if one failed
 */
import { parseArgs } from "node:util";

import { runMerchantWorkerOnce, startMerchantWorker } from "./bootstrap";
import { ConfigError, loadWorkerConfig } from "./config";
import { WorkerLogger, errorMessage, parseLogThreshold } from "./logger";

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({ options: { once: { type: "boolean", default: false }, contract: { type: "string" } } });
  if (values.contract && !values.once) throw new ConfigError("--contract goes with --once");
  const config = loadWorkerConfig();
  if (values.once) return (await runMerchantWorkerOnce(config, values.contract)) ? 0 : 1;

  const running = await startMerchantWorker(config);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      running.logger.info("stopping", { signal });
      running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError ? "invalid configuration" : "merchant worker failed";
    new WorkerLogger({ level: parseLogThreshold(process.env.LOG_LEVEL) }).error(message, { error: errorMessage(error) });
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  },
);
