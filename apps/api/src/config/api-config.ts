import * as fs from "node:fs";
import { Wallet } from "ethers";
import { LOCAL_CHAIN_ID, LOCAL_CHAIN_IDS, LOCAL_DEV_KEYS, type PlatformDeployment } from "@raffle/chain";
import {
  ConfigError,
  ConfigProblems,
  chainEnvs,
  envFlag as flag,
  envInteger as integer,
  parseLogLevel,
  parsePrivateKey,
  type ChainEnv,
  type LogLevel,
} from "@raffle/config";
import { DEFAULT_REORG_WINDOW_BLOCKS } from "@raffle/indexer";

import { loadDeploymentFile } from "./deployment-file";
import { loadWebhookConfig, type WebhookConfig } from "./webhook-config";

/** One chain the API serves: its node, its platform deployment, its voucher key and how its indexer reads it. */
export interface ChainConfig {
  chainId: number;
  rpcUrl: string;
  /** The node's WebSocket endpoint (INDEXER_WS_URL): new heads wake the indexer at once; without it, it only polls. */
  wsUrl?: string;
  deployment: PlatformDeployment;
  /** Where `deployment` was read from, for error messages (absent when a caller builds the config itself). */
  deploymentFile?: string;
  /** Private key of the voucher signer (holder of SIGNER_ROLE on this chain's Exchange). Never logged. */
  signerPrivateKey: string;
  /** Blocks behind the head that the indexer treats as final. */
  confirmations: number;
  batchBlocks: number;
  /** How far below the head a reorg can be undone (INDEXER_REORG_WINDOW_BLOCKS); deeper ones stop the indexer. */
  reorgWindowBlocks: number;
  /** How the settings of this chain are named in the environment (RPC_URL or CHAIN_<id>_RPC_URL, ...), for messages. */
  settingName(setting: string): string;
}

/** Settings that name one chain's node or records: with several chains, each must have its own. */
const UNSHARED_CHAIN_SETTINGS = ["RPC_URL", "INDEXER_WS_URL", "DEPLOYMENT_FILE"] as const;

/** Everything the API reads from its environment, parsed once at start-up. */
export interface ApiConfig {
  port: number;
  /** API processes sharing the port (API_WORKERS); more than one needs PostgreSQL and Redis, shared by all. */
  workers: number;
  /** PostgreSQL URL; without one the API opens the embedded PGlite folder `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir?: string;
  /** Every chain this deployment serves (CHAIN_IDS, or CHAIN_ID alone), in the order listed. */
  chains: ChainConfig[];
  signatureTtlSeconds: number;
  indexer: {
    enabled: boolean;
    pollIntervalMs: number;
    defaultSchedule: string;
  };
  readyMaxLagBlocks: number;
  /** LOG_LEVEL: pino's levels (fatal, error, warn, info, debug, trace, silent), the same meaning in every app. */
  logLevel: LogLevel;
  /** METRICS_ENABLED (default true): Prometheus metrics at /metrics; off, no metric is recorded and /metrics is 404. */
  metricsEnabled: boolean;
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
 * The signer key of a chain: SIGNER_PRIVATE_KEY, or an encrypted JSON keystore plus a password file (each may be
 * given per chain as CHAIN_<id>_...); dev default on the local chains. No error here quotes the key, the keystore or
 * the password: they would end up in the "api failed to start" log line.
 */
function signerKey(env: NodeJS.ProcessEnv, chain: ChainEnv): string {
  const [keyName, keystoreName, passwordName] = ["SIGNER_PRIVATE_KEY", "SIGNER_KEYSTORE_FILE", "SIGNER_KEYSTORE_PASSWORD_FILE"].map(chain.name);
  if (env[keyName]) return parsePrivateKey(env[keyName]!, keyName);
  const keystoreFile = env[keystoreName];
  if (keystoreFile) {
    if (!env[passwordName]) throw new ConfigError(`${keystoreName} needs ${passwordName}`);
    const keystore = readSecretFile(keystoreFile, keystoreName);
    const password = readSecretFile(env[passwordName]!, passwordName).trim();
    try {
      return Wallet.fromEncryptedJsonSync(keystore, password).privateKey;
    } catch {
      throw new ConfigError(
        `${keystoreName} ${keystoreFile} could not be decrypted with the password in ${passwordName}: a wrong password or not a JSON keystore`,
      );
    }
  }
  if (LOCAL_CHAIN_IDS.includes(chain.chainId)) return LOCAL_DEV_KEYS.voucherSigner;
  throw new ConfigError(`${keyName} or ${keystoreName} is required off the local chains (chain ${chain.chainId})`);
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

/** The WebSocket URL in `name`, if set: a ws:// or wss:// URL. Errors never echo it: a provider's URL often carries an API key. */
function wsUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(`${name} must be a ws:// or wss:// URL, got something that is not a URL`);
  }
  if (protocol !== "ws:" && protocol !== "wss:") throw new ConfigError(`${name} must be a ws:// or wss:// URL, got a ${protocol}// URL`);
  return raw;
}

/** The node URL in `name`: an http(s) URL; the local chains' default node when unset there, required elsewhere. */
function rpcUrl(env: NodeJS.ProcessEnv, name: string, chainId: number): string {
  const raw = env[name];
  if (!raw) {
    if (chainId === LOCAL_CHAIN_ID) return "http://127.0.0.1:8545";
    throw new ConfigError(`${name} is required for chain ${chainId}`);
  }
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got something that is not a URL`);
  }
  if (protocol !== "http:" && protocol !== "https:") throw new ConfigError(`${name} must be an http:// or https:// URL, got a ${protocol}// URL`);
  return raw;
}

/** One chain's settings, every bad one reported at once; the deployment is `given` when the caller deployed it itself. */
function loadChain(env: NodeJS.ProcessEnv, chain: ChainEnv, given: PlatformDeployment | undefined): ChainConfig {
  const problems = new ConfigProblems();
  const read = problems.read.bind(problems);
  const deploymentSetting = chain.name("DEPLOYMENT_FILE");
  const record = read(() => (given ? { deployment: given, file: undefined } : loadDeploymentFile(env, chain.chainId, deploymentSetting)));
  const local = LOCAL_CHAIN_IDS.includes(chain.chainId);
  const config: ChainConfig = {
    chainId: chain.chainId,
    rpcUrl: read(() => rpcUrl(env, chain.name("RPC_URL"), chain.chainId)),
    wsUrl: read(() => wsUrl(env, chain.name("INDEXER_WS_URL"))),
    deployment: record?.deployment,
    deploymentFile: record?.file,
    signerPrivateKey: read(() => signerKey(env, chain)),
    confirmations: read(() => integer(env, chain.name("INDEXER_CONFIRMATIONS"), local ? 0 : 12)),
    batchBlocks: read(() => integer(env, chain.name("INDEXER_BATCH_BLOCKS"), 2_000, 1)),
    reorgWindowBlocks: read(() => integer(env, chain.name("INDEXER_REORG_WINDOW_BLOCKS"), DEFAULT_REORG_WINDOW_BLOCKS, 1)),
    settingName: chain.name,
  };
  problems.check();
  return config;
}

/**
 * Every chain's settings, each problem of each chain reported at once. Without CHAIN_IDS or CHAIN_ID, the chains of
 * the `given` deployments are served.
 */
function loadChains(env: NodeJS.ProcessEnv, given: PlatformDeployment[]): ChainConfig[] {
  const implied =
    env.CHAIN_IDS || env.CHAIN_ID || given.length === 0
      ? env
      : { ...env, ...(given.length === 1 ? { CHAIN_ID: String(given[0].chainId) } : { CHAIN_IDS: given.map((d) => d.chainId).join(",") }) };
  const chainList = chainEnvs(implied, { defaultChainId: LOCAL_CHAIN_ID, unshared: UNSHARED_CHAIN_SETTINGS });
  const problems = new ConfigProblems();
  const chains: ChainConfig[] = [];
  for (const chain of chainList) {
    try {
      chains.push(
        loadChain(
          env,
          chain,
          given.find((deployment) => deployment.chainId === chain.chainId),
        ),
      );
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.add(chainList.length > 1 ? `chain ${chain.chainId}: ${error.message}` : error.message);
    }
  }
  problems.check();
  return chains;
}

/** Rate-limit keys carry the chains served by default, so environments sharing one Redis do not mix. */
export function defaultRedisKeyPrefix(chainIds: number[]): string {
  return `raffle:${chainIds.join(",")}:`;
}

function logLevelSetting(env: NodeJS.ProcessEnv): LogLevel {
  try {
    return parseLogLevel(env.LOG_LEVEL);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/**
 * The API's settings from `env`, with their defaults (written here only). A caller that deployed the platform itself
 * (the local stack, the tests, the OpenAPI writer) passes its deployments instead of deployment files.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env, given: PlatformDeployment | PlatformDeployment[] = []): ApiConfig {
  // Every bad setting is reported at once, each by name.
  const problems = new ConfigProblems();
  const read = problems.read.bind(problems);
  const chains = read(() => loadChains(env, Array.isArray(given) ? given : [given]));
  const workers = read(() => integer(env, "API_WORKERS", 1, 1));
  // Counters in one process's memory, or an embedded database opened by several processes, would be wrong.
  if (workers > 1 && !env.REDIS_URL) problems.add("API_WORKERS > 1 needs REDIS_URL: the workers must share rate limits");
  if (workers > 1 && !env.DATABASE_URL) problems.add("API_WORKERS > 1 needs DATABASE_URL: the embedded database serves one process");
  const config: ApiConfig = {
    port: read(() => integer(env, "PORT", 3000)),
    workers,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: env.PGLITE_DIR || undefined,
    chains,
    signatureTtlSeconds: read(() => integer(env, "SIGNATURE_TTL_SECONDS", 600, 10)),
    indexer: {
      enabled: read(() => flag(env, "INDEXER_ENABLED", true)),
      pollIntervalMs: read(() => integer(env, "INDEXER_POLL_INTERVAL_MS", 1_000, 10)),
      defaultSchedule: env.DEFAULT_RAFFLE_SCHEDULE || "0 0 * * *",
    },
    readyMaxLagBlocks: read(() => integer(env, "READY_MAX_LAG_BLOCKS", 10)),
    logLevel: read(() => logLevelSetting(env)),
    metricsEnabled: read(() => flag(env, "METRICS_ENABLED", true)),
    chainCheckIntervalMs: read(() => integer(env, "CHAIN_CHECK_INTERVAL_SECONDS", 15, 1)) * 1000,
    rateLimit: {
      windowSeconds: read(() => integer(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1)),
      signPerKey: read(() => integer(env, "RATE_LIMIT_SIGN_PER_KEY", 600_000, 1)),
      signPerAccount: read(() => integer(env, "RATE_LIMIT_SIGN_PER_ACCOUNT", 60, 1)),
      redisUrl: env.REDIS_URL || undefined,
      // Several environments may share one Redis: keys carry the chain ids unless a prefix is given.
      redisKeyPrefix: env.REDIS_KEY_PREFIX || defaultRedisKeyPrefix((chains ?? []).map((chain) => chain.chainId)),
    },
    apiKeyCacheSeconds: read(() => integer(env, "API_KEY_CACHE_SECONDS", 5)),
    readCacheMs: read(() => integer(env, "READ_CACHE_MS", 200)),
    voucherFlushMs: read(() => integer(env, "VOUCHER_FLUSH_MS", 0)),
    // Whether the webhook key may take its dev default depends on the chains: without valid ones, only their problems
    // are reported (this config is never returned then).
    webhooks: chains
      ? read(() =>
          loadWebhookConfig(
            env,
            chains.map((chain) => chain.chainId),
          ),
        )
      : (undefined as unknown as WebhookConfig),
  };
  problems.check();
  return config;
}
