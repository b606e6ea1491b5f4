import * as fs from "node:fs";
import { Wallet } from "ethers";
import { LOCAL_CHAIN_ID, LOCAL_DEV_KEYS, type PlatformDeployment } from "@raffle/chain";
import { ConfigError, envFlag as flag, envInteger as integer, parsePrivateKey } from "@raffle/config";

import { loadDeploymentFile } from "./deployment-file";
import { loadWebhookConfig, type WebhookConfig } from "./webhook-config";

/** Everything the API reads from its environment, parsed once at start-up. */
export interface ApiConfig {
  port: number;
  /** API processes sharing the port (API_WORKERS); more than one needs PostgreSQL and Redis, shared by all. */
  workers: number;
  /** PostgreSQL URL; without one the API opens the embedded PGlite folder `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir?: string;
  rpcUrl: string;
  deployment: PlatformDeployment;
  /** Where `deployment` was read from, for error messages (absent when a caller builds the config itself). */
  deploymentFile?: string;
  /** Private key of the voucher signer (holder of SIGNER_ROLE on the Exchange). Never logged. */
  signerPrivateKey: string;
  signatureTtlSeconds: number;
  indexer: {
    enabled: boolean;
    confirmations: number;
    pollIntervalMs: number;
    /** The node's WebSocket endpoint (INDEXER_WS_URL): new heads wake the indexer at once; without it, it only polls. */
    wsUrl?: string;
    batchBlocks: number;
    defaultSchedule: string;
  };
  readyMaxLagBlocks: number;
  /**
   * Milliseconds between two checks of the chain (CHAIN_CHECK_INTERVAL_SECONDS): that RPC_URL serves CHAIN_ID, that
   * the deployment's contracts have code (after each reconnect) and that the voucher key holds SIGNER_ROLE.
   */
  chainCheckIntervalMs: number;
  rateLimit: { windowSeconds: number; signPerKey: number; signPerAccount: number; redisUrl?: string; redisKeyPrefix: string };
  /** Seconds an authenticated API key stays cached; a revocation takes effect within this time. */
  apiKeyCacheSeconds: number;
  /** Milliseconds hot reads (contracts, rounds) are cached; keep it at or below the indexer's poll interval. */
  readCacheMs: number;
  /**
   * Least milliseconds between the starts of two voucher-log INSERTs of one process. Under load, rows wait for the
   * next flush and go together (fewer, larger commits); an idle log writes at once. 0: write as soon as the previous
   * INSERT is done.
   */
  voucherFlushMs: number;
  webhooks: WebhookConfig;
}

/**
 * The signer key: SIGNER_PRIVATE_KEY, or an encrypted JSON keystore plus a password file; dev default on 31337. No
 * error here quotes the key, the keystore or the password: they would end up in the "api failed to start" log line.
 */
function signerKey(env: NodeJS.ProcessEnv, chainId: number): string {
  if (env.SIGNER_PRIVATE_KEY) return parsePrivateKey(env.SIGNER_PRIVATE_KEY, "SIGNER_PRIVATE_KEY");
  if (env.SIGNER_KEYSTORE_FILE) {
    if (!env.SIGNER_KEYSTORE_PASSWORD_FILE) throw new ConfigError("SIGNER_KEYSTORE_FILE needs SIGNER_KEYSTORE_PASSWORD_FILE");
    const keystore = readSecretFile(env.SIGNER_KEYSTORE_FILE, "SIGNER_KEYSTORE_FILE");
    const password = readSecretFile(env.SIGNER_KEYSTORE_PASSWORD_FILE, "SIGNER_KEYSTORE_PASSWORD_FILE").trim();
    try {
      return Wallet.fromEncryptedJsonSync(keystore, password).privateKey;
    } catch {
      throw new ConfigError(
        `SIGNER_KEYSTORE_FILE ${env.SIGNER_KEYSTORE_FILE} could not be decrypted with the password in SIGNER_KEYSTORE_PASSWORD_FILE: a wrong password or not a JSON keystore`,
      );
    }
  }
  if (chainId === LOCAL_CHAIN_ID) return LOCAL_DEV_KEYS.voucherSigner;
  throw new ConfigError("SIGNER_PRIVATE_KEY or SIGNER_KEYSTORE_FILE is required off the local chain");
}

/** A file holding a secret: errors name the setting and the path, never the content. */
function readSecretFile(file: string, name: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(`${name} ${file} cannot be read (${code})`);
  }
}

/** INDEXER_WS_URL, if set: a ws:// or wss:// URL. Errors never echo it: a provider's URL often carries an API key. */
function indexerWsUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.INDEXER_WS_URL;
  if (!raw) return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError("INDEXER_WS_URL must be a ws:// or wss:// URL, got something that is not a URL");
  }
  if (protocol !== "ws:" && protocol !== "wss:") throw new ConfigError(`INDEXER_WS_URL must be a ws:// or wss:// URL, got a ${protocol}// URL`);
  return raw;
}

/** Rate-limit keys per chain by default, so the APIs of two chains can share one Redis. */
export function defaultRedisKeyPrefix(chainId: number): string {
  return `raffle:${chainId}:`;
}

/**
 * The API's settings from `env`, with their defaults (written here only). A caller that deployed the platform itself
 * (the local stack, the tests, the OpenAPI writer) passes its `deployment` instead of a DEPLOYMENT_FILE.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env, givenDeployment?: PlatformDeployment): ApiConfig {
  const chainId = integer(env, "CHAIN_ID", givenDeployment?.chainId ?? LOCAL_CHAIN_ID, 1);
  const { deployment, file: deploymentFile } = givenDeployment ? { deployment: givenDeployment, file: undefined } : loadDeploymentFile(env, chainId);
  if (deployment.chainId !== chainId) throw new ConfigError(`the deployment is for chain ${deployment.chainId}, CHAIN_ID is ${chainId}`);
  const workers = integer(env, "API_WORKERS", 1, 1);
  // Counters in one process's memory, or an embedded database opened by several processes, would be wrong.
  if (workers > 1 && !env.REDIS_URL) throw new ConfigError("API_WORKERS > 1 needs REDIS_URL: the workers must share rate limits");
  if (workers > 1 && !env.DATABASE_URL) throw new ConfigError("API_WORKERS > 1 needs DATABASE_URL: the embedded database serves one process");
  return {
    port: integer(env, "PORT", 3000),
    workers,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: env.PGLITE_DIR || undefined,
    rpcUrl: env.RPC_URL || "http://127.0.0.1:8545",
    deployment,
    deploymentFile,
    signerPrivateKey: signerKey(env, chainId),
    signatureTtlSeconds: integer(env, "SIGNATURE_TTL_SECONDS", 600, 10),
    indexer: {
      enabled: flag(env, "INDEXER_ENABLED", true),
      confirmations: integer(env, "INDEXER_CONFIRMATIONS", chainId === LOCAL_CHAIN_ID ? 0 : 12),
      pollIntervalMs: integer(env, "INDEXER_POLL_INTERVAL_MS", 1_000, 10),
      wsUrl: indexerWsUrl(env),
      batchBlocks: integer(env, "INDEXER_BATCH_BLOCKS", 2_000, 1),
      defaultSchedule: env.DEFAULT_RAFFLE_SCHEDULE || "0 0 * * *",
    },
    readyMaxLagBlocks: integer(env, "READY_MAX_LAG_BLOCKS", 10),
    chainCheckIntervalMs: integer(env, "CHAIN_CHECK_INTERVAL_SECONDS", 15, 1) * 1000,
    rateLimit: {
      windowSeconds: integer(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1),
      signPerKey: integer(env, "RATE_LIMIT_SIGN_PER_KEY", 600_000, 1),
      signPerAccount: integer(env, "RATE_LIMIT_SIGN_PER_ACCOUNT", 60, 1),
      redisUrl: env.REDIS_URL || undefined,
      // Several environments may share one Redis: keys carry the chain id unless a prefix is given.
      redisKeyPrefix: env.REDIS_KEY_PREFIX || defaultRedisKeyPrefix(chainId),
    },
    apiKeyCacheSeconds: integer(env, "API_KEY_CACHE_SECONDS", 5),
    readCacheMs: integer(env, "READ_CACHE_MS", 200),
    voucherFlushMs: integer(env, "VOUCHER_FLUSH_MS", 0),
    webhooks: loadWebhookConfig(env, [chainId]),
  };
}
