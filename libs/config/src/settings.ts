import { isIP } from "node:net";
import { z } from "zod";

import { privateKeyProblem } from "./private-key";

/**
 * The kinds of settings the apps read from their environment, as zod schemas of a variable's text, for readSettings.
 * Each is required as built: `.optional()` or `.default(value)` (a parsed value) make it optional. Messages say what is
 * wrong and readSettings puts the variable's name before them. Numbers, flags and choices quote a bad value, which
 * helps to spot a typo; URLs, keys and free text never do: a provider's URL carries its API key, a database URL its
 * password.
 */

/** How a missing variable is reported; `why` says why it is needed when that is not obvious ("for chain 8453"). */
interface Required {
  why?: string;
}

function requiredMessage({ why }: Required): string {
  return why ? `is required ${why}` : "is required";
}

/** The variable's text, as is. Environment values are always text: anything else can only be a missing variable. */
function text(required: Required = {}) {
  return z.string({ error: () => requiredMessage(required) });
}

/** Ends a transform with the problem `message`, for readSettings to report after the variable's name. */
function refuse(ctx: z.RefinementCtx, input: string, message: string): never {
  ctx.issues.push({ code: "custom", input, message });
  return z.NEVER;
}

/**
 * A whole number from `min` (0 unless said) to `max`: ports, counts, milliseconds. Only decimal digits: Number() would
 * also read "1e3" as 1000 and "0x10" as 16, which nobody means by a port.
 */
function integer({ min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}) {
  const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
  return text().transform((raw, ctx) => {
    const digits = raw.trim();
    const value = /^\d{1,16}$/.test(digits) ? Number(digits) : NaN;
    if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
    return refuse(ctx, raw, `must be an integer ${range}, got "${raw}"`);
  });
}

/** A TCP port to listen on: 0 to 65535 (0 lets the system pick one). */
function port() {
  return integer({ min: 0, max: 65_535 });
}

/** A DNS host name (RFC 1123 labels): `localhost`, `api.internal`. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * An address to listen on: an IPv4 or IPv6 address (`0.0.0.0` every interface, `127.0.0.1` loopback only, `::`) or a
 * host name. A URL or a `host:port` is refused: the port has its own setting.
 */
function host() {
  return text().transform((raw, ctx) => {
    const value = raw.trim();
    if (isIP(value) !== 0 || HOST_NAME.test(value)) return value;
    return refuse(ctx, raw, `must be an IP address (like 0.0.0.0, 127.0.0.1 or ::) or a host name, without a scheme or port, got "${raw}"`);
  });
}

/** A number at least `min`, decimals allowed: fees, percentages. */
function decimal({ min }: { min: number }) {
  return text().transform((raw, ctx) => {
    const value = Number(raw);
    if (Number.isFinite(value) && value >= min) return value;
    return refuse(ctx, raw, `must be a number >= ${min}, got "${raw}"`);
  });
}

/** On or off: 1, true or yes; 0, false or no; in any case. */
function flag(required: Required = {}) {
  return z.stringbool({
    truthy: ["1", "true", "yes"],
    falsy: ["0", "false", "no"],
    error: (issue) => (issue.input === undefined ? requiredMessage(required) : `must be true or false, got "${String(issue.input)}"`),
  });
}

/** One of `choices`, read trimmed and in lower case, and answered so. */
function oneOf<const Choice extends string>(choices: readonly [Choice, ...Choice[]]) {
  return text()
    .transform((raw) => raw.trim().toLowerCase())
    .pipe(z.enum(choices, { error: (issue) => `must be one of ${choices.join(", ")}, got "${String(issue.input)}"` }));
}

/**
 * Schemes a refusal may name. Any other is not named: what parses as a scheme may be the start of a secret (in
 * "raffle:s3cret@db/raffle", the user name).
 */
const NAMED_SCHEMES = ["http:", "https:", "ws:", "wss:", "postgres:", "postgresql:", "redis:", "rediss:", "ftp:", "file:", "mysql:"];

/** What a refused URL is, in words that never quote it. */
function describeRefusedUrl(input: unknown, protocol: RegExp): string {
  const raw = typeof input === "string" ? input.trim() : "";
  const scheme = URL.parse(raw)?.protocol;
  // zod reports a malformed URL of an allowed scheme ("http:/node") as a bad format: not a URL either.
  if (!scheme || protocol.test(scheme.slice(0, -1))) return "something that is not a URL";
  if (NAMED_SCHEMES.includes(scheme)) return `a ${scheme}// URL`;
  return raw.startsWith(`${scheme}//`) ? "a URL of another scheme" : "something that is not a URL";
}

/**
 * Whether the URL has `scheme://` and a host. WHATWG URLs of schemes it does not know (postgres:, redis:) parse without
 * them: "postgres:/user:pw@host/db" is a URL whose path holds the password, which a driver would then print.
 */
function hasAuthority(raw: string): boolean {
  const parsed = URL.parse(raw.trim());
  return parsed !== null && raw.trim().startsWith(`${parsed.protocol}//`) && parsed.hostname !== "";
}

/**
 * A URL with one of the schemes `protocol` matches (zod's URL check) and a host after `//`, answered as written. A
 * refusal names the scheme it got at most, never the URL. `expected` words the schemes ("an http:// or https:// URL").
 */
function url(protocol: RegExp, expected: string, required: Required) {
  return z
    .url({
      protocol,
      error: (issue) =>
        issue.input === undefined ? requiredMessage(required) : `must be ${expected}, got ${describeRefusedUrl(issue.input, protocol)}`,
    })
    .refine(hasAuthority, {
      message: `must be ${expected} with a host after "//", got something that is not a URL`,
      // Only for what passed the URL check: one problem per variable.
      when: (payload) => payload.issues.length === 0,
    });
}

/** A node's JSON-RPC endpoint, a public API. zod's own regex for http(s), which also refuses "http:node". */
function httpUrl(required: Required = {}) {
  return url(z.regexes.httpProtocol, "an http:// or https:// URL", required);
}

/** A node's WebSocket endpoint. */
function wsUrl(required: Required = {}) {
  return url(/^wss?$/, "a ws:// or wss:// URL", required);
}

function postgresUrl(required: Required = {}) {
  return url(/^postgres(ql)?$/, "a postgres:// or postgresql:// URL", required);
}

function redisUrl(required: Required = {}) {
  return url(/^rediss?$/, "a redis:// or rediss:// URL", required);
}

/** A secp256k1 private key, 64 hex digits with or without 0x, answered as lowercase 0x-prefixed hex. */
function privateKey(required: Required = {}) {
  return text(required).transform((raw, ctx) => {
    const problem = privateKeyProblem(raw);
    if (problem) return refuse(ctx, raw, `is not a private key: ${problem}. Expected 64 hex digits, optionally prefixed by 0x.`);
    return `0x${raw.replace(/^0x/i, "").toLowerCase()}`;
  });
}

/**
 * A value of a kind only one app knows (an amount of ether): `parse` answers it, or undefined when the text is not
 * one. A refusal quotes the text, so this kind is never for a secret.
 */
function parsed<T>(parse: (raw: string) => T | undefined, expected: string) {
  return text().transform((raw, ctx): T => {
    const value = parse(raw);
    if (value !== undefined) return value;
    return refuse(ctx, raw, `must be ${expected}, got "${raw}"`);
  });
}

/** The kinds of settings, each a zod schema: `setting.integer({ min: 1 }).default(60)`. */
export const setting = { text, integer, port, host, decimal, flag, oneOf, httpUrl, wsUrl, postgresUrl, redisUrl, privateKey, parsed };
