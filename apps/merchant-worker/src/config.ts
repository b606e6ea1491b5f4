import * as fs from "node:fs";
import * as os from "node:os";
import { inspect } from "node:util";
import { getAddress, isAddress, parseEther } from "ethers";
import { LOCAL_CHAIN_ID, LOCAL_CHAIN_IDS, deploymentPath } from "@raffle/chain";
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
} from "@raffle/config";

import type { LogThreshold } from "./logger";

/** The merchant's private key. It prints as "[redacted]" however it is logged, inspected or serialized. */
export class MerchantKey {
  readonly #privateKey: string;

  constructor(privateKey: string) {
    this.#privateKey = privateKey;
  }

  reveal(): string {
    return this.#privateKey;
  }

  toString(): string {
    return "[redacted]";
  }

  toJSON(): string {
    return "[redacted]";
  }

  [inspect.custom](): string {
    return "MerchantKey([redacted])";
  }
}

export interface FeeSettings {
  /** Hard ceiling of maxFeePerGas (and gasPrice on legacy chains), in wei. */
  maxFeePerGas: bigint;
  /** Each replacement raises both EIP-1559 fees by this percentage (nodes need at least 12.5 %). */
  bumpPercent: number;
  /** A transaction without a receipt for this long is replaced with a higher fee. */
  receiptTimeoutMs: number;
}

/** One chain the worker rotates raffles on: its own node, confirmations and fees (gas prices differ per chain). */
export interface WorkerChainConfig {
  chainId: number;
  rpcUrl: string;
  /** The variable `rpcUrl` was read from (RPC_URL or CHAIN_<id>_RPC_URL), so errors name what to fix. */
  rpcUrlSetting: string;
  /** Blocks a receipt must be buried under before the next step (1 = mined). */
  confirmations: number;
  fees: FeeSettings;
  /** How often pending transactions are polled for a receipt. */
  receiptPollMs: number;
  /** The chain's Exchange: the only contract the relayer sends to (EXCHANGE_ADDRESS); undefined when not relaying. */
  exchange?: string;
}

/** The relayer of gasless purchases, claims and refunds (docs/merchant-worker.md "Relayer"). */
export interface RelayerConfig {
  /** Stable across restarts: the mailbox hands a restarted relayer back the jobs it held. */
  relayerId: string;
  /** The key that pays the relayed gas (RELAYER_PRIVATE_KEY, else the merchant key). */
  key: MerchantKey;
  pollIntervalMs: number;
  /** Jobs relayed at once per chain. */
  maxInFlight: number;
}

/** Everything the worker reads from its environment, parsed once at start-up. One key and one API for every chain. */
export interface WorkerConfig {
  apiUrl: string;
  apiKey: string;
  chains: WorkerChainConfig[];
  merchantKey: MerchantKey;
  refreshIntervalMs: number;
  /** Port of the /health endpoint; 0 picks a free one (reported in the logs). */
  healthPort: number;
  /** HEALTH_HOST: the address /health and /metrics listen on (default 0.0.0.0, every interface). */
  healthHost: string;
  /** A raffle that failed for good (missing role) is retried after this many list refreshes, or when its listing changes. */
  permanentFailureRefreshes: number;
  /** IANA zone in which schedules are read. */
  scheduleTimeZone: string;
  /** Backoff of the raffle list requests while the API is unreachable (and of a chain's node while it is). */
  apiRetry: { initialDelayMs: number; maxDelayMs: number };
  logLevel: LogThreshold;
  /** LOW_GAS_BALANCE_ETH in wei: below it on a chain, the worker warns (once) and the gauge shows it. */
  lowGasBalanceWei: bigint;
  /** Undefined when RELAYER_ENABLED is off. */
  relayer?: RelayerConfig;
}

export { ConfigError };

function gweiToWei(gwei: number): bigint {
  // Up to 9 decimals of gwei are whole wei; round the rest away.
  return BigInt(Math.round(gwei * 1e9));
}

/** How the merchant's key is given. */
export const MERCHANT_KEY_SETTINGS = {
  MERCHANT_PRIVATE_KEY: setting.privateKey().optional(),
  MERCHANT_KEYSTORE_FILE: setting.text().optional(),
  MERCHANT_KEYSTORE_PASSWORD_FILE: setting.text().optional(),
};

/** MERCHANT_PRIVATE_KEY, or an encrypted JSON keystore plus a file holding its password. */
function merchantKey(env: NodeJS.ProcessEnv): MerchantKey {
  const given = readSettings(env, MERCHANT_KEY_SETTINGS);
  if (given.MERCHANT_PRIVATE_KEY) return new MerchantKey(given.MERCHANT_PRIVATE_KEY);
  if (given.MERCHANT_KEYSTORE_FILE) {
    if (!given.MERCHANT_KEYSTORE_PASSWORD_FILE) throw new ConfigError("MERCHANT_KEYSTORE_FILE needs MERCHANT_KEYSTORE_PASSWORD_FILE");
    const files = { file: given.MERCHANT_KEYSTORE_FILE, passwordFile: given.MERCHANT_KEYSTORE_PASSWORD_FILE };
    return new MerchantKey(readKeystore({ ...files, setting: "MERCHANT_KEYSTORE_FILE", passwordSetting: "MERCHANT_KEYSTORE_PASSWORD_FILE" }));
  }
  throw new ConfigError("MERCHANT_PRIVATE_KEY or MERCHANT_KEYSTORE_FILE (with MERCHANT_KEYSTORE_PASSWORD_FILE) is required");
}

/** An amount of the chain's native token, written in ether units (18 decimals), as wei; undefined if it is not one. */
function etherAmount(raw: string): bigint | undefined {
  try {
    const wei = parseEther(raw.trim());
    return wei >= 0n ? wei : undefined;
  } catch {
    return undefined;
  }
}

/** A 0x address (any case), answered checksummed. */
function address(raw: string): string | undefined {
  return isAddress(raw.trim()) ? getAddress(raw.trim()) : undefined;
}

/** What the mailbox takes as a relayer id. */
function relayerId(raw: string): string | undefined {
  return /^[A-Za-z0-9._:-]{1,64}$/.test(raw.trim()) ? raw.trim() : undefined;
}

/** `RELAYER_ID`'s default: the host name, stable across restarts where the host is (a StatefulSet pod, a VM). */
function hostRelayerId(): string {
  return `relayer-${os
    .hostname()
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, "-")}`;
}

/** The node a lone dev chain is assumed to run on when no RPC URL is given (Hardhat's and anvil's default port). */
const DEV_RPC_URL = "http://127.0.0.1:8545";

/** Settings that name one chain's node: never shared when several chains are listed. */
const UNSHARED_CHAIN_SETTINGS = ["RPC_URL"];

/** The worker's own settings (each chain has its own below), with their defaults: written here only. */
export const WORKER_SETTINGS = {
  API_URL: setting.httpUrl().default("http://127.0.0.1:3000"),
  API_KEY: setting.text(),
  REFRESH_INTERVAL_SECONDS: setting.integer({ min: 1 }).default(60),
  HEALTH_PORT: setting.port().default(8081),
  HEALTH_HOST: setting.host().default("0.0.0.0"),
  PERMANENT_FAILURE_RETRY_REFRESHES: setting.integer({ min: 1 }).default(60),
  SCHEDULE_TIMEZONE: setting.text().default("UTC"),
  API_RETRY_MAX_DELAY_SECONDS: setting.integer({ min: 1 }).default(30),
  LOG_LEVEL: logLevelSetting,
  LOW_GAS_BALANCE_ETH: setting.parsed(etherAmount, "an amount >= 0 in ether units (e.g. 0.05)").default(parseEther("0.05")),
  // Unset: derived from the host name at start (hostRelayerId), never a fixed text.
  RELAYER_ID: setting.parsed(relayerId, "1 to 64 characters of A-Z a-z 0-9 . _ : -").optional(),
  RELAYER_PRIVATE_KEY: setting.privateKey().optional(),
  RELAYER_POLL_INTERVAL_MS: setting.integer({ min: 50 }).default(500),
  RELAYER_MAX_IN_FLIGHT: setting.integer({ min: 1, max: 500 }).default(100),
};

/**
 * RELAYER_ENABLED: on local dev chains it defaults to on when every chain's Exchange is known; with any other chain the
 * operator says it (refused by name when unset).
 */
function relayerEnabledSetting(chains: Array<{ chainId: number; exchange?: string }>) {
  const remote = chains.find((chain) => !LOCAL_CHAIN_IDS.includes(chain.chainId));
  if (remote) return setting.flag({ why: `(chain ${remote.chainId} is not a local dev chain: relay gasless purchases or not)` });
  return setting.flag().default(chains.every((chain) => chain.exchange !== undefined));
}

/** One chain's settings, with their defaults: a dev chain mines at once and needs fewer confirmations. */
export function chainSettings(chain: ChainEnv, alone: boolean) {
  const devChain = LOCAL_CHAIN_IDS.includes(chain.chainId);
  // Two dev chains cannot both be on the default port: the default node only holds for a lone dev chain.
  const why = devChain ? "(each of several chains needs its own node)" : `(chain ${chain.chainId} is not a local dev chain)`;
  return {
    RPC_URL: devChain && alone ? setting.httpUrl().default(DEV_RPC_URL) : setting.httpUrl({ why }),
    CONFIRMATIONS: setting.integer({ min: 1 }).default(devChain ? 1 : 2),
    MAX_FEE_PER_GAS_GWEI: setting.decimal({ min: 0.000000001 }).default(500),
    FEE_BUMP_PERCENT: setting.decimal({ min: 12.5 }).default(25),
    TX_RECEIPT_TIMEOUT_SECONDS: setting.integer({ min: 1 }).default(60),
    EXCHANGE_ADDRESS: setting.parsed(address, "a 0x-prefixed 20-byte address").optional(),
  };
}

/**
 * The chain's Exchange for the relayer: EXCHANGE_ADDRESS, else on a dev chain the local deployment record's (what
 * `npm start` and `npm run deploy:platform` write). Never the API's word: the relayer checks the API's jobs against it.
 */
function relayedExchange(chain: ChainEnv, given: string | undefined): string | undefined {
  if (given) return given;
  if (!LOCAL_CHAIN_IDS.includes(chain.chainId)) return undefined;
  try {
    const record = JSON.parse(fs.readFileSync(deploymentPath(chain.chainId), "utf8")) as { exchange?: unknown };
    return typeof record.exchange === "string" ? address(record.exchange) : undefined;
  } catch {
    return undefined;
  }
}

function chainConfig(env: NodeJS.ProcessEnv, chain: ChainEnv, alone: boolean): WorkerChainConfig {
  const settings = readChainSettings(env, chain, chainSettings(chain, alone));
  return {
    chainId: chain.chainId,
    rpcUrl: settings.RPC_URL,
    rpcUrlSetting: chain.name("RPC_URL"),
    confirmations: settings.CONFIRMATIONS,
    fees: {
      maxFeePerGas: gweiToWei(settings.MAX_FEE_PER_GAS_GWEI),
      bumpPercent: settings.FEE_BUMP_PERCENT,
      receiptTimeoutMs: settings.TX_RECEIPT_TIMEOUT_SECONDS * 1_000,
    },
    // A dev chain mines at once: polling fast keeps local runs and tests quick.
    receiptPollMs: LOCAL_CHAIN_IDS.includes(chain.chainId) ? 200 : 2_000,
    exchange: relayedExchange(chain, settings.EXCHANGE_ADDRESS),
  };
}

/** How to name a chain's unset setting: the shared name, and the chain's own when several chains are configured. */
function perChainName(chain: ChainEnv, name: string): string {
  const own = `CHAIN_${chain.chainId}_${name}`;
  return chain.name(name) === own || chain.name("RPC_URL") !== "RPC_URL" ? `${name} (or ${own})` : name;
}

/** Whether RELAYER_ENABLED is on; a relayed chain whose Exchange is unknown is refused by its setting's name. */
function relaying(env: NodeJS.ProcessEnv, chainEnvList: ChainEnv[], chains: Array<WorkerChainConfig | undefined>): boolean {
  const known = chainEnvList.map((chain, index) => ({ chainId: chain.chainId, exchange: chains[index]?.exchange }));
  const { RELAYER_ENABLED: enabled } = readSettings(env, { RELAYER_ENABLED: relayerEnabledSetting(known) });
  if (!enabled) return false;
  const missing = chainEnvList.filter((_, index) => chains[index] && !chains[index].exchange).map((chain) => perChainName(chain, "EXCHANGE_ADDRESS"));
  if (missing.length > 0) throw new ConfigError(`${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required while RELAYER_ENABLED is on`);
  return true;
}

/**
 * Reads the worker's settings. Chains come from CHAIN_IDS (each chain's settings as CHAIN_<id>_<SETTING>, falling back
 * to the plain shared <SETTING>), or from today's CHAIN_ID and RPC_URL as a list of one. Every problem of every chain
 * is reported in one ConfigError, each naming its variable; a shared setting read by several chains, once.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const problems = new ConfigProblems();
  const chainEnvList = problems.read(() => chainEnvs(env, { defaultChainId: LOCAL_CHAIN_ID, unshared: UNSHARED_CHAIN_SETTINGS })) ?? [];
  const chains = chainEnvList.map((chain) => problems.read(() => chainConfig(env, chain, chainEnvList.length === 1)));
  const settings = problems.read(() => readSettings(env, WORKER_SETTINGS));
  const key = problems.read(() => merchantKey(env));
  const relayerOn = problems.read(() => relaying(env, chainEnvList, chains));
  problems.check();
  return {
    apiUrl: settings.API_URL.replace(/\/+$/, ""),
    apiKey: settings.API_KEY,
    chains,
    merchantKey: key,
    refreshIntervalMs: settings.REFRESH_INTERVAL_SECONDS * 1_000,
    healthPort: settings.HEALTH_PORT,
    healthHost: settings.HEALTH_HOST,
    permanentFailureRefreshes: settings.PERMANENT_FAILURE_RETRY_REFRESHES,
    scheduleTimeZone: settings.SCHEDULE_TIMEZONE,
    apiRetry: { initialDelayMs: 500, maxDelayMs: settings.API_RETRY_MAX_DELAY_SECONDS * 1_000 },
    logLevel: settings.LOG_LEVEL,
    lowGasBalanceWei: settings.LOW_GAS_BALANCE_ETH,
    relayer: relayerOn
      ? {
          relayerId: settings.RELAYER_ID ?? hostRelayerId(),
          key: settings.RELAYER_PRIVATE_KEY ? new MerchantKey(settings.RELAYER_PRIVATE_KEY) : key,
          pollIntervalMs: settings.RELAYER_POLL_INTERVAL_MS,
          maxInFlight: settings.RELAYER_MAX_IN_FLIGHT,
        }
      : undefined,
  };
}
