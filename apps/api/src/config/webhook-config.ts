import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { LOCAL_CHAIN_IDS } from "@raffle/chain/settings";
import { ConfigError, ConfigProblems, readSettings, setting } from "@raffle/config";

/**
 * How webhooks are delivered: the operator's settings (WEBHOOK_*, parsed once at start-up) and the delivery's pace
 * (WEBHOOK_TIMING, fixed). Tests shorten the times through this object.
 */
export interface WebhookConfig extends WebhookTiming {
  /** The delivery loop runs in this process (API_ROLES has `deliver`; loadApiConfig decides); any number may run it. */
  deliveryEnabled: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: loopback, private and link-local hosts and plain http are accepted (local stack, tests). */
  allowPrivateUrls: boolean;
  /** AES-256-GCM key of the endpoint secrets at rest (WEBHOOK_ENCRYPTION_KEY, 32 bytes hex or base64). Never logged. */
  encryptionKey: Buffer;
}

/** The delivery's pace and limits. */
export interface WebhookTiming {
  /** Pause of an idle delivery loop between two looks at the outbox. */
  pollIntervalMs: number;
  /** One attempt's limit: connect, send and answer. */
  timeoutMs: number;
  /** A delivery is retried until this long after its message was written, then FAILED. */
  retryHorizonMs: number;
  /** First retry delay; each next one doubles, with jitter, up to `retryMaxDelayMs`. */
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterMs: number;
  /** How long a rotated-out secret keeps signing alongside the new one. */
  secretGraceMs: number;
  /** Deliveries sent at once by one process. */
  concurrency: number;
  /** Deliveries of one merchant sent at once by one process (at most `concurrency`): slow receivers of one merchant hold that many slots, never all. */
  concurrencyPerMerchant: number;
}

const HOUR = 3_600_000;

/**
 * The delivery's pace, one value each: receivers and operators plan around these (the guides quote them), and none is
 * a choice an operator needs to make. The retry schedule and the limits follow Stripe's, which receivers already know.
 */
export const WEBHOOK_TIMING: Readonly<WebhookTiming> = {
  // Idle cost: one statement per process every half second; a busy loop does not wait for it.
  pollIntervalMs: 500,
  // A receiver is asked to answer within 10 s and do slow work afterwards (docs/how-to/verify-a-webhook.md).
  timeoutMs: 10_000,
  retryHorizonMs: 24 * HOUR,
  // 5 s doubling to an hour: about 17 attempts in the 24 h horizon, the first few within a minute of an outage's end.
  retryBaseMs: 5_000,
  retryMaxDelayMs: HOUR,
  // Five days of failures: a receiver down over a long weekend is not disabled.
  disableAfterMs: 5 * 24 * HOUR,
  // A day for a merchant to roll a new secret out to every receiver.
  secretGraceMs: 24 * HOUR,
  // The webhook bench (8 endpoints, a 20,000-message backlog per endpoint) kept sign requests/s and CPU per request
  // within its 10 % target with 8 slots per process delivering beside the sign load; two per merchant keep one
  // merchant's slow receivers from holding them all.
  concurrency: 8,
  concurrencyPerMerchant: 2,
};

/** Webhook endpoints one merchant may register: Stripe's limit per account. Each event is written once per endpoint. */
export const MAX_WEBHOOKS_PER_MERCHANT = 16;

/** Least time between two manual retries of one delivery. */
export const MANUAL_RETRY_SPACING_MS = 60_000;

/** Manual retries one endpoint may have per minute (its fixed one-minute window). */
export const MANUAL_RETRIES_PER_MINUTE = 10;

/**
 * Only for chains that are all local dev chains: a fixed, public key, so a dev database survives restarts. Anywhere
 * else a missing key stops the API at start.
 */
const DEV_ENCRYPTION_KEY = createHash("sha256").update("raffle local dev webhook secret key (public; local chains only)").digest();

/** The key's text: WEBHOOK_ENCRYPTION_KEY, or the file in WEBHOOK_ENCRYPTION_KEY_FILE (a mounted secret). */
function encryptionKeyText(env: NodeJS.ProcessEnv): { text: string; name: string } | null {
  if (env.WEBHOOK_ENCRYPTION_KEY) return { text: env.WEBHOOK_ENCRYPTION_KEY, name: "WEBHOOK_ENCRYPTION_KEY" };
  const file = env.WEBHOOK_ENCRYPTION_KEY_FILE;
  if (!file) return null;
  try {
    return { text: fs.readFileSync(file, "utf8").trim(), name: `WEBHOOK_ENCRYPTION_KEY_FILE ${file}` };
  } catch (error) {
    throw new ConfigError(`WEBHOOK_ENCRYPTION_KEY_FILE ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
}

/** The key of the webhook secrets as 32 bytes; errors name the setting, never its value. */
function encryptionKey(env: NodeJS.ProcessEnv, servedChainIds: readonly number[]): Buffer {
  const given = encryptionKeyText(env);
  if (!given) {
    if (servedChainIds.length > 0 && servedChainIds.every((chainId) => LOCAL_CHAIN_IDS.includes(chainId))) return DEV_ENCRYPTION_KEY;
    throw new ConfigError(
      "WEBHOOK_ENCRYPTION_KEY (or WEBHOOK_ENCRYPTION_KEY_FILE) is required off the local dev chains: 32 bytes as 64 hex digits or base64",
    );
  }
  const raw = given.text;
  const key = /^(0x)?[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw.replace(/^0x/, ""), "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) throw new ConfigError(`${given.name} must hold 32 bytes: 64 hex digits or base64 of 32 bytes`);
  return key;
}

/** The delivery settings (the key is read apart: it may come from a file), with their defaults: written here only. */
export const WEBHOOK_SETTINGS = {
  WEBHOOK_ALLOW_PRIVATE_URLS: setting.flag().default(false),
};

/** The webhook settings, every bad one reported at once, each by name. */
export function loadWebhookConfig(env: NodeJS.ProcessEnv, servedChainIds: readonly number[]): WebhookConfig {
  const problems = new ConfigProblems();
  const settings = problems.read(() => readSettings(env, WEBHOOK_SETTINGS));
  const key = problems.read(() => encryptionKey(env, servedChainIds));
  problems.check();
  return {
    ...WEBHOOK_TIMING,
    deliveryEnabled: true,
    allowPrivateUrls: settings.WEBHOOK_ALLOW_PRIVATE_URLS,
    encryptionKey: key,
  };
}
