import * as fs from "node:fs";
import { inspect } from "node:util";
import { Wallet, parseEther } from "ethers";
import { LOCAL_CHAIN_ID, LOCAL_CHAIN_IDS } from "@raffle/chain";
import { ConfigError, chainEnvs, envDecimal as decimal, envInteger as integer, envRequired as required, type ChainEnv } from "@raffle/config";

import { parseLogThreshold, type LogThreshold } from "./logger";

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
  /** A raffle that failed for good (missing role) is retried after this many list refreshes, or when its listing changes. */
  permanentFailureRefreshes: number;
  /** IANA zone in which schedules are read. */
  scheduleTimeZone: string;
  /** Backoff of the raffle list requests while the API is unreachable (and of a chain's node while it is). */
  apiRetry: { initialDelayMs: number; maxDelayMs: number };
  logLevel: LogThreshold;
  /** LOW_GAS_BALANCE_ETH in wei: below it on a chain, the worker warns (once) and the gauge shows it. */
  lowGasBalanceWei: bigint;
}

export { ConfigError };

function gweiToWei(gwei: number): bigint {
  // Up to 9 decimals of gwei are whole wei; round the rest away.
  return BigInt(Math.round(gwei * 1e9));
}

/** MERCHANT_PRIVATE_KEY, or an encrypted JSON keystore plus a file holding its password. */
function merchantKey(env: NodeJS.ProcessEnv): MerchantKey {
  try {
    if (env.MERCHANT_PRIVATE_KEY) return new MerchantKey(new Wallet(env.MERCHANT_PRIVATE_KEY).privateKey);
  } catch {
    // The parse error of ethers would quote the value: say only what is wrong.
    throw new ConfigError("MERCHANT_PRIVATE_KEY is not a valid private key");
  }
  if (env.MERCHANT_KEYSTORE_FILE) {
    if (!env.MERCHANT_KEYSTORE_PASSWORD_FILE) throw new ConfigError("MERCHANT_KEYSTORE_FILE needs MERCHANT_KEYSTORE_PASSWORD_FILE");
    const keystore = fs.readFileSync(env.MERCHANT_KEYSTORE_FILE, "utf8");
    const password = fs.readFileSync(env.MERCHANT_KEYSTORE_PASSWORD_FILE, "utf8").replace(/\r?\n$/, "");
    try {
      return new MerchantKey(Wallet.fromEncryptedJsonSync(keystore, password).privateKey);
    } catch (error) {
      throw new ConfigError(`cannot decrypt MERCHANT_KEYSTORE_FILE: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new ConfigError("MERCHANT_PRIVATE_KEY or MERCHANT_KEYSTORE_FILE (with MERCHANT_KEYSTORE_PASSWORD_FILE) is required");
}

/** An amount of the chain's native token, written in ether units (18 decimals), as wei. */
function etherSetting(env: NodeJS.ProcessEnv, name: string, fallback: string): bigint {
  const raw = env[name] || fallback;
  try {
    const wei = parseEther(raw.trim());
    if (wei >= 0n) return wei;
  } catch {
    // Reported below, in the setting's words.
  }
  throw new ConfigError(`${name} must be an amount >= 0 in ether units (e.g. 0.05), got "${raw}"`);
}

/** The node a lone dev chain is assumed to run on when no RPC URL is given (Hardhat's and anvil's default port). */
const DEV_RPC_URL = "http://127.0.0.1:8545";

/** Settings that name one chain's node: never shared when several chains are listed. */
const UNSHARED_CHAIN_SETTINGS = ["RPC_URL"];

/** Runs `read`, turning a ConfigError into a collected problem, so every problem is reported at once. */
function collecting<T>(problems: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message);
    return undefined;
  }
}

function chainConfig(env: NodeJS.ProcessEnv, chain: ChainEnv, alone: boolean, problems: string[]): WorkerChainConfig | undefined {
  const name = (setting: string) => chain.name(setting);
  const devChain = LOCAL_CHAIN_IDS.includes(chain.chainId);
  const rpcUrlSetting = name("RPC_URL");
  const rpcUrl = collecting(problems, () => {
    const value = env[rpcUrlSetting];
    if (value) return value;
    // Two dev chains cannot both be on the default port: the default only holds for a lone dev chain.
    if (devChain && alone) return DEV_RPC_URL;
    const why = devChain ? "each of several chains needs its own node" : `chain ${chain.chainId} is not a local dev chain`;
    throw new ConfigError(`${rpcUrlSetting} is required (${why})`);
  });
  const confirmations = collecting(problems, () => integer(env, name("CONFIRMATIONS"), devChain ? 1 : 2, 1));
  const maxFeePerGasGwei = collecting(problems, () => decimal(env, name("MAX_FEE_PER_GAS_GWEI"), 500, 0.000000001));
  const bumpPercent = collecting(problems, () => decimal(env, name("FEE_BUMP_PERCENT"), 25, 12.5));
  const receiptTimeoutSeconds = collecting(problems, () => integer(env, name("TX_RECEIPT_TIMEOUT_SECONDS"), 60, 1));
  if (rpcUrl === undefined || confirmations === undefined || maxFeePerGasGwei === undefined) return undefined;
  if (bumpPercent === undefined || receiptTimeoutSeconds === undefined) return undefined;
  return {
    chainId: chain.chainId,
    rpcUrl,
    rpcUrlSetting,
    confirmations,
    fees: { maxFeePerGas: gweiToWei(maxFeePerGasGwei), bumpPercent, receiptTimeoutMs: receiptTimeoutSeconds * 1_000 },
    // A dev chain mines at once: polling fast keeps local runs and tests quick.
    receiptPollMs: devChain ? 200 : 2_000,
  };
}

/**
 * Reads the worker's settings. Chains come from CHAIN_IDS (each chain's settings as CHAIN_<id>_<SETTING>, falling back
 * to the plain shared <SETTING>), or from today's CHAIN_ID and RPC_URL as a list of one. Every problem of every chain
 * is reported in one ConfigError, each naming its variable.
 */
export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const problems: string[] = [];
  const chainEnvList = collecting(problems, () => chainEnvs(env, { defaultChainId: LOCAL_CHAIN_ID, unshared: UNSHARED_CHAIN_SETTINGS })) ?? [];
  const chains = chainEnvList.map((chain) => chainConfig(env, chain, chainEnvList.length === 1, problems));
  const apiKey = collecting(problems, () => required(env, "API_KEY"));
  const key = collecting(problems, () => merchantKey(env));
  const refreshIntervalSeconds = collecting(problems, () => integer(env, "REFRESH_INTERVAL_SECONDS", 60, 1));
  const healthPort = collecting(problems, () => integer(env, "HEALTH_PORT", 8081));
  const permanentFailureRefreshes = collecting(problems, () => integer(env, "PERMANENT_FAILURE_RETRY_REFRESHES", 60, 1));
  const apiRetryMaxDelaySeconds = collecting(problems, () => integer(env, "API_RETRY_MAX_DELAY_SECONDS", 30, 1));
  const logLevel = collecting(problems, () => parseLogThreshold(env.LOG_LEVEL));
  const lowGasBalanceWei = collecting(problems, () => etherSetting(env, "LOW_GAS_BALANCE_ETH", "0.05"));
  // A shared setting read by several chains would report the same problem once per chain.
  if (problems.length > 0) throw new ConfigError([...new Set(problems)].join("; "));
  return {
    apiUrl: (env.API_URL || "http://127.0.0.1:3000").replace(/\/+$/, ""),
    apiKey: apiKey!,
    chains: chains as WorkerChainConfig[],
    merchantKey: key!,
    refreshIntervalMs: refreshIntervalSeconds! * 1_000,
    healthPort: healthPort!,
    permanentFailureRefreshes: permanentFailureRefreshes!,
    scheduleTimeZone: env.SCHEDULE_TIMEZONE || "UTC",
    apiRetry: { initialDelayMs: 500, maxDelayMs: apiRetryMaxDelaySeconds! * 1_000 },
    logLevel: logLevel!,
    lowGasBalanceWei: lowGasBalanceWei!,
  };
}
