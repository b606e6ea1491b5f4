import { log } from "@raffle/config";

/** Structured logging seam: the API passes its own; the default writes through the platform's pino logger. */
export interface IndexerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The platform's one logger (pino, LOG_LEVEL, redaction: see @raffle/config), each line marked `component: indexer`. */
export const jsonLogger: IndexerLogger = {
  info: (message, fields) => log("info", message, { component: "indexer", ...fields }),
  warn: (message, fields) => log("warn", message, { component: "indexer", ...fields }),
  error: (message, fields) => log("error", message, { component: "indexer", ...fields }),
};

export const silentLogger: IndexerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
