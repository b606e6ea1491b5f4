import type { LoggerService } from "@nestjs/common";
import { createLogger, parseLogLevel, writeLogLine, type LineLevel, type LogLevel, type Logger } from "@raffle/config";

export type { LogLevel };
/** LOG_LEVEL: pino's levels, the same meaning as in the API (fatal, error, warn, info, debug, trace, silent). */
export type LogThreshold = LogLevel;
export type LogFields = Record<string, unknown>;

export interface LoggerOptions {
  level?: LogLevel;
  /** Where each JSON line goes; stdout by default. Tests pass their own to read the lines. */
  sink?: (line: string) => void;
  /** Strings that must never reach a log line (the merchant key); they are masked wherever they appear. */
  secrets?: readonly string[];
}

/** LOG_LEVEL, checked: anything but a pino level is a configuration error (see @raffle/config). */
export function parseLogThreshold(raw: string | undefined): LogLevel {
  return parseLogLevel(raw);
}

/**
 * Structured logs through the platform's pino logger (@raffle/config: the API's line shape and redaction): one JSON
 * object per line with `level`, `time`, context fields (chainId, contract, roundId, txHash, ...) and `message`.
 * `child` adds fields to every line of a scope.
 */
export class WorkerLogger {
  private readonly pino: Logger;

  constructor(options: LoggerOptions = {}, context: LogFields = {}) {
    // Keys are matched without their 0x prefix and case-insensitively, so no spelling of one slips through.
    const secrets = (options.secrets ?? []).map((secret) => secret.toLowerCase().replace(/^0x/, "")).filter((s) => s.length >= 16);
    const patterns = secrets.map((secret) => new RegExp(secret, "gi"));
    const sink = options.sink;
    const write =
      patterns.length === 0 && !sink
        ? undefined
        : (line: string) => {
            for (const pattern of patterns) line = line.replace(pattern, "[redacted]");
            (sink ?? writeLogLine)(line);
          };
    const base = createLogger({ level: options.level ?? "info", write });
    this.pino = Object.keys(context).length > 0 ? base.child(context) : base;
  }

  child(fields: LogFields): WorkerLogger {
    const child = Object.create(WorkerLogger.prototype) as WorkerLogger;
    Object.assign(child, { pino: this.pino.child(jsonSafe(fields)) });
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

  private write(level: LineLevel, message: string, fields: LogFields = {}): void {
    if (this.pino.isLevelEnabled(level)) this.pino[level](jsonSafe(fields), message);
  }
}

/** bigint as decimal strings, errors as their message (one level deep: the worker's fields are flat). */
function jsonSafe(fields: LogFields): LogFields {
  let copy: LogFields | null = null;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === "bigint") (copy ??= { ...fields })[key] = value.toString();
    else if (value instanceof Error) (copy ??= { ...fields })[key] = value.message;
  }
  return copy ?? fields;
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
