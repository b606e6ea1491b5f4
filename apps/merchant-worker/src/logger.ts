import type { LoggerService } from "@nestjs/common";

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogThreshold = LogLevel | "silent";
export type LogFields = Record<string, unknown>;

const RANK: Record<LogThreshold, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface LoggerOptions {
  level?: LogThreshold;
  /** Where each JSON line goes; stdout by default. Tests pass their own to read the lines. */
  sink?: (line: string) => void;
  /** Strings that must never reach a log line (the merchant key); they are masked wherever they appear. */
  secrets?: readonly string[];
}

export function parseLogThreshold(raw: string | undefined, fallback: LogThreshold = "info"): LogThreshold {
  const value = (raw ?? "").toLowerCase();
  return value in RANK ? (value as LogThreshold) : fallback;
}

/**
 * Structured logs: one JSON object per line with `time`, `level`, `message` and context fields
 * (chainId, contract, roundId, txHash, ...). `child` adds fields to every line of a scope.
 */
export class WorkerLogger {
  private readonly threshold: number;
  private readonly sink: (line: string) => void;
  private readonly secrets: readonly string[];

  constructor(
    options: LoggerOptions = {},
    private readonly context: LogFields = {},
  ) {
    this.threshold = RANK[options.level ?? "info"];
    this.sink = options.sink ?? ((line) => process.stdout.write(line));
    // Keys are matched without their 0x prefix and case-insensitively, so no spelling of one slips through.
    this.secrets = (options.secrets ?? []).map((secret) => secret.toLowerCase().replace(/^0x/, "")).filter((s) => s.length >= 16);
  }

  child(fields: LogFields): WorkerLogger {
    const child = Object.create(WorkerLogger.prototype) as WorkerLogger;
    Object.assign(child, this, { context: { ...this.context, ...fields } });
    return child;
  }

  debug(message: string, fields?: LogFields): void {
    this.write("debug", message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write("info", message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write("warn", message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write("error", message, fields);
  }

  private write(level: LogLevel, message: string, fields: LogFields = {}): void {
    if (RANK[level] < this.threshold) return;
    let line = JSON.stringify({ time: new Date().toISOString(), level, message, ...this.context, ...fields }, jsonSafe);
    for (const secret of this.secrets) line = line.replace(new RegExp(secret, "gi"), "[redacted]");
    this.sink(`${line}\n`);
  }
}

/** bigint as decimal strings, errors as their message. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return value.message;
  return value;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Nest's own messages (module wiring, shutdown) through the same JSON lines. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: WorkerLogger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug(String(message), { context });
  }

  error(message: unknown, stack?: string, context?: string): void {
    this.logger.error(String(message), { context, stack });
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn(String(message), { context });
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug(String(message), { context });
  }

  verbose(message: unknown, context?: string): void {
    this.logger.debug(String(message), { context });
  }
}
