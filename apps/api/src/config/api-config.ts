import { validateCronExpression } from "cron";
import { LOCAL_CHAIN_ID, LOCAL_CHAIN_IDS, LOCAL_DEV_KEYS, type PlatformDeployment } from "@raffle/chain/settings";
import {
  ConfigError,
  ConfigProblems,
  chainEnvs,
  logLevelSetting,
  readChainSettings,
  readKeystore,
  readSettings,
  setting,
  type ChainEnv,
  type LogLevel,
} from "@raffle/config";
// The options module alone: the cluster's primary reads this config, and the whole indexer would cost it ~13 MiB.
import { DEFAULT_REORG_WINDOW_BLOCKS } from "@raffle/indexer/options";

import { loadDeploymentFile } from "./deployment-file";
import { loadPlayerConfig, type PlayerConfig } from "./player-config";
import { API_ROLES, parseRoles, type ApiRole } from "./roles";
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
  /**
   * The next voucher key (SIGNER_NEXT_PRIVATE_KEY / SIGNER_NEXT_KEYSTORE_FILE), during a signer rotation: the API signs
   * with it whenever it holds SIGNER_ROLE, else with `signerPrivateKey`. Never logged.
   */
  nextSignerPrivateKey?: string;
  /** Blocks behind the head that the indexer treats as final. */
  confirmations: number;
  /** Most blocks per batch: the indexer's own default (2,000, halved whenever a node refuses a range) unless a test sets fewer. */
  batchBlocks?: number;
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
  /** HOST: the address the API listens on (default 0.0.0.0, every interface; 127.0.0.1 behind a local proxy). */
  host: string;
  /** API processes sharing the port (API_WORKERS); more than one needs PostgreSQL and Redis, shared by all. */
  workers: number;
  /**
   * API_ROLES: what this process does (serve, index, deliver; all three by default). `index` and `deliver` are also
   * `indexer.enabled` and `webhooks.deliveryEnabled`, which tests may switch off on their own.
   */
  roles: ApiRole[];
  /** PostgreSQL URL; without one the API opens the embedded PGlite folder `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir?: string;
  /**
   * DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL that the index reads (rounds, claims, public raffle
   * lists) use while it keeps within its lag bound of the primary (see services/read-replica.ts).
   */
  databaseReplicaUrl?: string;
  /** Every chain this deployment serves (CHAIN_IDS, or CHAIN_ID alone), in the order listed. */
  chains: ChainConfig[];
  signatureTtlSeconds: number;
  indexer: {
    enabled: boolean;
    pollIntervalMs: number;
    defaultSchedule: string;
  };
  /** READY_MAX_LAG_BLOCKS, a constant; a field so that a test may set another bound. */
  readyMaxLagBlocks: number;
  /** LOG_LEVEL: pino's levels (fatal, error, warn, info, debug, trace, silent), the same meaning in every app. */
  logLevel: LogLevel;
  /** METRICS_ENABLED (default true): Prometheus metrics at /metrics; off, no metric is recorded and /metrics is 404. */
  metricsEnabled: boolean;
  /**
   * Milliseconds between two checks of the chain (CHAIN_CHECK_INTERVAL_SECONDS, a constant; tests shorten it here):
   * that RPC_URL serves CHAIN_ID, that the deployment's contracts have code (after each reconnect) and that the voucher
   * key holds SIGNER_ROLE.
   */
  chainCheckIntervalMs: number;
  rateLimit: { windowSeconds: number; signPerKey: number; signPerAccount: number; redisUrl?: string; redisKeyPrefix: string };
  /** Seconds an authenticated API key stays cached (API_KEY_CACHE_SECONDS; tests set 0 here). */
  apiKeyCacheSeconds: number;
  /** Milliseconds hot reads (contracts, rounds) are cached: READ_CACHE_MS; tests may shorten it. */
  readCacheMs: number;
  webhooks: WebhookConfig;
  /** Public sale and Sign-In with Ethereum (WEB_ORIGINS, PLAYER_*), see player-config.ts. */
  player: PlayerConfig;
}

/** The settings of a voucher key, each may be set per chain as CHAIN_<id>_...: SIGNER_ (the current key) or SIGNER_NEXT_. */
export const KEY_SETTINGS = {
  SIGNER: {
    SIGNER_PRIVATE_KEY: setting.privateKey().optional(),
    SIGNER_KEYSTORE_FILE: setting.text().optional(),
    SIGNER_KEYSTORE_PASSWORD_FILE: setting.text().optional(),
  },
  SIGNER_NEXT: {
    SIGNER_NEXT_PRIVATE_KEY: setting.privateKey().optional(),
    SIGNER_NEXT_KEYSTORE_FILE: setting.text().optional(),
    SIGNER_NEXT_KEYSTORE_PASSWORD_FILE: setting.text().optional(),
  },
};

/**
 * A voucher key of a chain as given: `<prefix>_PRIVATE_KEY`, or an encrypted JSON keystore plus a password file;
 * undefined when neither is set. No error here quotes the key, the keystore or the password: they would end up in
 * the "api failed to start" log line.
 */
function givenKey(env: NodeJS.ProcessEnv, chain: ChainEnv, prefix: "SIGNER" | "SIGNER_NEXT"): string | undefined {
  const given: Record<string, string | undefined> =
    prefix === "SIGNER" ? readChainSettings(env, chain, KEY_SETTINGS.SIGNER) : readChainSettings(env, chain, KEY_SETTINGS.SIGNER_NEXT);
  const [keyName, keystoreName, passwordName] = ["PRIVATE_KEY", "KEYSTORE_FILE", "KEYSTORE_PASSWORD_FILE"].map((name) => `${prefix}_${name}`);
  if (given[keyName]) return given[keyName];
  const keystoreFile = given[keystoreName];
  if (!keystoreFile) return undefined;
  const passwordFile = given[passwordName];
  if (!passwordFile) throw new ConfigError(`${chain.name(keystoreName)} needs ${chain.name(passwordName)}`);
  return readKeystore({ file: keystoreFile, setting: chain.name(keystoreName), passwordFile, passwordSetting: chain.name(passwordName) });
}

/** The signer key of a chain (SIGNER_PRIVATE_KEY or SIGNER_KEYSTORE_FILE); dev default on the local chains. */
function signerKey(env: NodeJS.ProcessEnv, chain: ChainEnv): string {
  const key = givenKey(env, chain, "SIGNER");
  if (key) return key;
  if (LOCAL_CHAIN_IDS.includes(chain.chainId)) return LOCAL_DEV_KEYS.voucherSigner;
  throw new ConfigError(
    `${chain.name("SIGNER_PRIVATE_KEY")} or ${chain.name("SIGNER_KEYSTORE_FILE")} is required off the local chains (chain ${chain.chainId})`,
  );
}

/**
 * The next signer key of a chain, for a rotation without downtime (SIGNER_NEXT_PRIVATE_KEY or SIGNER_NEXT_KEYSTORE_FILE):
 * the API signs with it as soon as it holds SIGNER_ROLE, with the current key until then. Never a dev default.
 */
function nextSignerKey(env: NodeJS.ProcessEnv, chain: ChainEnv, current: string | undefined): string | undefined {
  const next = givenKey(env, chain, "SIGNER_NEXT");
  if (next && current && next.toLowerCase() === current.toLowerCase()) {
    throw new ConfigError(`${chain.name("SIGNER_NEXT_PRIVATE_KEY")} is the current voucher key: give the next key, or leave it unset`);
  }
  return next;
}

/** The node of the local dev chain, where Hardhat and anvil listen by default. */
const LOCAL_RPC_URL = "http://127.0.0.1:8545";

/** One chain's node and indexer settings, with their defaults (written here only): some differ on the local chains. */
export function chainSettings(chainId: number) {
  return {
    RPC_URL: chainId === LOCAL_CHAIN_ID ? setting.httpUrl().default(LOCAL_RPC_URL) : setting.httpUrl({ why: `for chain ${chainId}` }),
    INDEXER_WS_URL: setting.wsUrl().optional(),
    INDEXER_CONFIRMATIONS: setting.integer().default(LOCAL_CHAIN_IDS.includes(chainId) ? 0 : 12),
    INDEXER_REORG_WINDOW_BLOCKS: setting.integer({ min: 1 }).default(DEFAULT_REORG_WINDOW_BLOCKS),
  };
}

/** One chain's settings, every bad one reported at once; the deployment is `given` when the caller deployed it itself. */
function loadChain(env: NodeJS.ProcessEnv, chain: ChainEnv, given: PlatformDeployment | undefined): ChainConfig {
  const problems = new ConfigProblems();
  const deploymentSetting = chain.name("DEPLOYMENT_FILE");
  const record = problems.read(() => (given ? { deployment: given, file: undefined } : loadDeploymentFile(env, chain.chainId, deploymentSetting)));
  const settings = problems.read(() => readChainSettings(env, chain, chainSettings(chain.chainId)));
  const signerPrivateKey = problems.read(() => signerKey(env, chain));
  const nextSignerPrivateKey = problems.read(() => nextSignerKey(env, chain, signerPrivateKey));
  problems.check();
  return {
    chainId: chain.chainId,
    rpcUrl: settings.RPC_URL,
    wsUrl: settings.INDEXER_WS_URL,
    deployment: record.deployment,
    deploymentFile: record.file,
    signerPrivateKey,
    nextSignerPrivateKey,
    confirmations: settings.INDEXER_CONFIRMATIONS,
    reorgWindowBlocks: settings.INDEXER_REORG_WINDOW_BLOCKS,
    settingName: chain.name,
  };
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

/** The API's own settings (the chains' and the webhooks' have theirs), with their defaults: written here only. */
export const API_SETTINGS = {
  API_ROLES: setting.parsed(parseRoles, `a comma-separated list of ${API_ROLES.join(", ")}`).default([...API_ROLES]),
  API_WORKERS: setting.integer({ min: 1 }).default(1),
  PORT: setting.port().default(3000),
  HOST: setting.host().default("0.0.0.0"),
  DATABASE_URL: setting.postgresUrl().optional(),
  PGLITE_DIR: setting.text().optional(),
  DATABASE_REPLICA_URL: setting.postgresUrl().optional(),
  SIGNATURE_TTL_SECONDS: setting.integer({ min: 10 }).default(600),
  INDEXER_POLL_INTERVAL_MS: setting.integer({ min: 10 }).default(1_000),
  // Checked here by the cron package the merchant worker runs it with: a bad default would only fail there, later.
  DEFAULT_RAFFLE_SCHEDULE: setting
    .parsed((raw) => (validateCronExpression(raw).valid ? raw : undefined), 'a cron schedule like "0 0 * * *"')
    .default("0 0 * * *"),
  LOG_LEVEL: logLevelSetting,
  METRICS_ENABLED: setting.flag().default(true),
  RATE_LIMIT_SIGN_PER_KEY: setting.integer({ min: 1 }).default(600_000),
  RATE_LIMIT_SIGN_PER_ACCOUNT: setting.integer({ min: 1 }).default(60),
  REDIS_URL: setting.redisUrl().optional(),
  REDIS_KEY_PREFIX: setting.text().optional(),
};

/**
 * Blocks the index may trail the chain's head before `/ready` fails: a few seconds of blocks on the fast chains, the
 * normal wait for a confirmation on the slow ones. Not a setting: no operator has needed another bound.
 */
export const READY_MAX_LAG_BLOCKS = 10;

/**
 * Seconds between two checks of each chain (its node serves it, the deployment's contracts have code, the voucher key
 * holds SIGNER_ROLE). A signer rotation waits for one check (contracts/tasks/signer-rotation.ts quotes this figure).
 */
export const CHAIN_CHECK_INTERVAL_SECONDS = 15;

/** Seconds a verified API key stays cached in each process: a revocation takes effect on every replica within this. */
export const API_KEY_CACHE_SECONDS = 5;

/** The window every rate limit counts in (sign, player and per-IP budgets): a minute, the unit the budgets are quoted in. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/**
 * How long the hot reads (contract lists, rounds, claims, the Exchange's pause flag) are cached in each process. Below
 * the indexer's 1 s poll, so a cached read is never staler than the index it comes from; a steadily read key is
 * refreshed ahead after three quarters of it (TtlCache), so at 200 ms each process reloads it about 7 times a second.
 */
export const READ_CACHE_MS = 200;

/**
 * The API's settings from `env`, every bad one reported at once, each by name. A caller that deployed the platform
 * itself (the local stack, the tests, the OpenAPI writer) passes its deployments instead of deployment files.
 */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env, given: PlatformDeployment | PlatformDeployment[] = []): ApiConfig {
  const problems = new ConfigProblems();
  const chains = problems.read(() => loadChains(env, Array.isArray(given) ? given : [given]));
  const settings = problems.read(() => readSettings(env, API_SETTINGS));
  // Counters in one process's memory, or an embedded database opened by several processes, would be wrong.
  if (settings && settings.API_WORKERS > 1) {
    if (!settings.REDIS_URL) problems.add("API_WORKERS > 1 needs REDIS_URL: the workers must share rate limits");
    if (!settings.DATABASE_URL) problems.add("API_WORKERS > 1 needs DATABASE_URL: the embedded database serves one process");
  }
  if (settings?.DATABASE_REPLICA_URL && !settings.DATABASE_URL) {
    problems.add("DATABASE_REPLICA_URL needs DATABASE_URL: it is a replica of that primary (the embedded database has none)");
  }
  // Whether the webhook key may take its dev default depends on the chains: without valid ones, only their problems
  // are reported (this config is never returned then).
  const webhooks = chains
    ? problems.read(() =>
        loadWebhookConfig(
          env,
          chains.map((chain) => chain.chainId),
        ),
      )
    : undefined;
  const player = problems.read(() => loadPlayerConfig(env));
  problems.check();
  return {
    port: settings.PORT,
    host: settings.HOST,
    workers: settings.API_WORKERS,
    roles: settings.API_ROLES,
    databaseUrl: settings.DATABASE_URL,
    pgliteDir: settings.PGLITE_DIR,
    databaseReplicaUrl: settings.DATABASE_REPLICA_URL,
    chains,
    signatureTtlSeconds: settings.SIGNATURE_TTL_SECONDS,
    indexer: {
      enabled: settings.API_ROLES.includes("index"),
      pollIntervalMs: settings.INDEXER_POLL_INTERVAL_MS,
      defaultSchedule: settings.DEFAULT_RAFFLE_SCHEDULE,
    },
    readyMaxLagBlocks: READY_MAX_LAG_BLOCKS,
    logLevel: settings.LOG_LEVEL,
    metricsEnabled: settings.METRICS_ENABLED,
    chainCheckIntervalMs: CHAIN_CHECK_INTERVAL_SECONDS * 1000,
    rateLimit: {
      windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
      signPerKey: settings.RATE_LIMIT_SIGN_PER_KEY,
      signPerAccount: settings.RATE_LIMIT_SIGN_PER_ACCOUNT,
      redisUrl: settings.REDIS_URL,
      // Several environments may share one Redis: keys carry the chain ids unless a prefix is given.
      redisKeyPrefix: settings.REDIS_KEY_PREFIX ?? defaultRedisKeyPrefix(chains.map((chain) => chain.chainId)),
    },
    apiKeyCacheSeconds: API_KEY_CACHE_SECONDS,
    readCacheMs: READ_CACHE_MS,
    webhooks: { ...webhooks!, deliveryEnabled: settings.API_ROLES.includes("deliver") },
    player: player!,
  };
}
