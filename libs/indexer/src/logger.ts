/** Structured logging seam: the API passes its own; the default writes one JSON object per line. */
export interface IndexerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function write(level: string, message: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, component: "indexer", message, ...fields })}\n`);
}

export const jsonLogger: IndexerLogger = {
  info: (message, fields) => write("info", message, fields),
  warn: (message, fields) => write("warn", message, fields),
  error: (message, fields) => write("error", message, fields),
};

export const silentLogger: IndexerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
