import type { LoggerService } from "@nestjs/common";
import { log, rootLogger, type LineLevel } from "@raffle/config";

/**
 * The API's log lines, through the one pino logger of @raffle/config (shared with the indexer and Fastify): JSON, level
 * from LOG_LEVEL, secrets redacted. Lines written while serving a request carry its id as `requestId` (see request-log.ts).
 */
export function jsonLog(level: LineLevel, message: string, fields: Record<string, unknown> = {}): void {
  log(level, message, fields);
}

/** Whether a line at `level` is written: a hot path asks first, so it builds no fields for a line that is dropped. */
export function logsAt(level: LineLevel): boolean {
  return rootLogger().isLevelEnabled(level);
}

/**
 * Nest's start-up chatter: a line per module, per controller and per route (35 routes, 35 lines). "api listening" is the
 * start line; these stay at debug.
 */
const NEST_STARTUP_CONTEXTS = new Set(["NestFactory", "InstanceLoader", "RoutesResolver", "RouterExplorer", "NestApplication"]);

/** Nest's logger, writing through the same pino logger. */
export class JsonLogger implements LoggerService {
  log(message: unknown, context?: string): void {
    log(context && NEST_STARTUP_CONTEXTS.has(context) ? "debug" : "info", String(message), { context });
  }

  error(message: unknown, stack?: string, context?: string): void {
    log("error", String(message), { context, stack });
  }

  warn(message: unknown, context?: string): void {
    log("warn", String(message), { context });
  }

  debug(message: unknown, context?: string): void {
    log("debug", String(message), { context });
  }

  verbose(message: unknown, context?: string): void {
    log("trace", String(message), { context });
  }

  fatal(message: unknown, context?: string): void {
    log("fatal", String(message), { context });
  }
}
