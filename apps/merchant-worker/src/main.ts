/**
 * The merchant worker: rotates the merchant's raffle rounds on their schedules, with the merchant's own key.
 *
 *   npm start                                  # run on the schedules, serve /health on HEALTH_PORT
 *   npm start -- --once [--contract 0x...] [--chain <id>]
 *                                              # one rotation of every raffle of every chain (or of one contract, or of
 *                                              # one chain), then exit; 1 if one failed. A contract without --chain is
 *                                              # rotated on every configured chain that has it.
 */
import { parseArgs } from "node:util";

import { runMerchantWorkerOnce, startMerchantWorker } from "./bootstrap";
import { ConfigError, loadWorkerConfig } from "./config";
import { WorkerLogger, errorMessage, parseLogThreshold, type LogThreshold } from "./logger";

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({ options: { once: { type: "boolean", default: false }, contract: { type: "string" }, chain: { type: "string" } } });
  if (values.contract && !values.once) throw new ConfigError("--contract goes with --once");
  if (values.chain && !values.once) throw new ConfigError("--chain goes with --once");
  const config = loadWorkerConfig();
  const configured = config.chains.map((chain) => chain.chainId);
  const chainId = values.chain === undefined ? undefined : chainOption(values.chain, configured);
  if (values.once) return (await runMerchantWorkerOnce(config, { contract: values.contract, chainId })) ? 0 : 1;

  const running = await startMerchantWorker(config);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      running.logger.info("stopping", { signal });
      running.stop().then(
        () => {
          running.logger.info("merchant worker stopped", { signal });
          process.exit(0);
        },
        () => process.exit(1),
      );
    });
  }
  return undefined;
}

/** LOG_LEVEL for the failure line itself: a bad LOG_LEVEL is the failure, reported at info's threshold. */
function levelOrInfo(raw: string | undefined): LogThreshold {
  try {
    return parseLogThreshold(raw);
  } catch {
    return "info";
  }
}

/** `--chain <id>`: one of the configured chains. */
function chainOption(raw: string, configured: number[]): number {
  const chainId = Number(raw);
  if (!configured.includes(chainId)) throw new ConfigError(`--chain ${raw} is not a configured chain (configured: ${configured.join(", ")})`);
  return chainId;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof ConfigError ? "invalid configuration" : "merchant worker failed";
    new WorkerLogger({ level: levelOrInfo(process.env.LOG_LEVEL) }).error(message, { error: errorMessage(error) });
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  },
);
