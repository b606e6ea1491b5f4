import pino, { type Logger } from "pino";

import { readSettings } from "./read-settings";
import { setting } from "./settings";

export type { Logger };

/**
 * The one logger of the API, the indexer and the merchant worker: pino, one JSON object per line on stdout,
 * `{ level, time, ...fields, message }`. Written synchronously to the file descriptor (pino's SonicBoom), so a slow
 * reader of the pipe slows logging down instead of piling lines up in memory, as `process.stdout.write` does.
 */

/** LOG_LEVEL, with pino's meaning everywhere: a line is written when its level is at or above this one. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LineLevel = Exclude<LogLevel, "silent">;

/** LOG_LEVEL as the apps' settings read it (readSettings): a pino level in any case, `info` when unset. */
export const logLevelSetting = setting.oneOf(LOG_LEVELS).default("info");

/** Reads LOG_LEVEL alone (default `info`); anything else than a pino level is refused, naming the setting. */
export function parseLogLevel(raw: string | undefined, name = "LOG_LEVEL"): LogLevel {
  return readSettings({ [name]: raw }, { [name]: logLevelSetting })[name];
}

const REDACTED = "[redacted]";

/** Keys whose values never reach a log line, at the top level and one object down (pino's fast-redact paths). */
export const REDACTED_KEYS = ["authorization", "privateKey", "signerPrivateKey", "signature", "apiKey", "key", "password", "secret", "mnemonic"];
const REDACT_PATHS = [...REDACTED_KEYS, ...REDACTED_KEYS.map((key) => `*.${key}`), "headers.authorization", "*.headers.authorization"];

/** Secrets recognised by their shape wherever they appear in a string (a message, an error text). */
const API_KEY = /\brk_[A-Za-z0-9]+_[A-Za-z0-9_-]+/g;
const SIGNATURE = /\b0x[0-9a-fA-F]{130}\b/g;
/** A URL's path and query may carry a provider's key: only scheme and host are kept (see urlOrigin). */
const URL_WITH_PATH = /\b((?:https?|wss?):\/\/)(?:[^/\s:@"]+(?::[^/\s@"]*)?@)?([^/\s?#"]+)[/?#][^\s"]*/g;
const CREDENTIALS_IN_URL = /\b((?:https?|wss?|redis|postgres(?:ql)?):\/\/)[^/\s:@"]+:[^/\s@"]+@/g;

/** Removes secrets recognisable by their shape from a string. */
export function scrubSecrets(text: string): string {
  if (!text.includes("rk_") && !text.includes("0x") && !text.includes("://")) return text;
  return text
    .replace(API_KEY, "rk_[redacted]")
    .replace(SIGNATURE, (signature) => `${signature.slice(0, 10)}…${REDACTED}`)
    .replace(CREDENTIALS_IN_URL, "$1[redacted]@")
    .replace(URL_WITH_PATH, "$1$2/…");
}

function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== "string") continue;
    const scrubbed = scrubSecrets(value);
    if (scrubbed !== value) (copy ??= { ...fields })[key] = scrubbed;
  }
  return copy ?? fields;
}

interface LineSink {
  write(line: string): void;
}

let sink: LineSink | null = null;
/** Where lines go: stdout's file descriptor, unless a test redirected them. */
const output: LineSink = { write: (line) => (sink ??= pino.destination({ dest: 1, sync: true })).write(line) };

/** Writes a finished line where the process's log lines go (for a logger that filters its lines before writing). */
export function writeLogLine(line: string): void {
  output.write(line);
}
let root: Logger | null = null;

/**
 * A pino logger with the platform's line shape and redaction: the process's own (`rootLogger`), or one of an
 * app's that writes its lines to `write` (tests) and has its own level.
 */
export function createLogger(options: { level: LogLevel; write?: (line: string) => void }): Logger {
  return pino(
    {
      level: options.level,
      base: undefined,
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: scrubFields },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        logMethod(args, method) {
          // (fields, message) or (message): the message is scrubbed like any field.
          const at = typeof args[0] === "string" ? 0 : 1;
          if (typeof args[at] === "string") args[at] = scrubSecrets(args[at] as string);
          return method.apply(this, args as Parameters<typeof method>);
        },
      },
    },
    options.write ? { write: options.write } : output,
  );
}

/** The process's pino logger (Fastify's too). Its level comes from LOG_LEVEL at first use, or `setLogLevel`. */
export function rootLogger(): Logger {
  if (root) return root;
  let level: LogLevel;
  try {
    level = parseLogLevel(process.env.LOG_LEVEL);
  } catch {
    level = "info"; // The apps' configuration refuses a bad LOG_LEVEL at start, with its message.
  }
  root = createLogger({ level });
  return root;
}

export function setLogLevel(level: LogLevel): void {
  rootLogger().level = level;
}

export function logLevel(): LogLevel {
  return rootLogger().level as LogLevel;
}

/** One line at `level`. Never pass keys or full signatures in `fields` (they are redacted, but should not be there). */
export function log(level: LineLevel, message: string, fields: Record<string, unknown> = {}): void {
  const logger = rootLogger();
  if (logger.isLevelEnabled(level)) logger[level](fields, message);
}

/** Sends every line to `write` instead of stdout until the returned function is called (tests read them so). */
export function redirectLogOutput(write: (line: string) => void): () => void {
  const previous = sink;
  sink = { write };
  return () => {
    sink = previous;
  };
}
