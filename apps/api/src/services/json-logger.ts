import type { LoggerService } from "@nestjs/common";

type Level = "debug" | "info" | "warn" | "error";

/** One JSON object per line on stdout. Never pass keys or full signatures in `fields`. */
export function jsonLog(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL === "silent") return;
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

/** Nest's logger, writing structured JSON lines. */
export class JsonLogger implements LoggerService {
  log(message: unknown, context?: string): void {
    jsonLog("info", String(message), { context });
  }

  error(message: unknown, stack?: string, context?: string): void {
    jsonLog("error", String(message), { context, stack });
  }

  warn(message: unknown, context?: string): void {
    jsonLog("warn", String(message), { context });
  }

  debug(message: unknown, context?: string): void {
    if (process.env.LOG_LEVEL === "debug") jsonLog("debug", String(message), { context });
  }

  verbose(message: unknown, context?: string): void {
    this.debug(message, context);
  }
}
