import * as fs from "node:fs";
import { inspect } from "node:util";
import { Wallet } from "ethers";
import { LOCAL_CHAIN_ID } from "@raffle/chain";
import { ConfigError, envDecimal as decimal, envInteger as integer, envRequired as required } from "@raffle/config";

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

/** Everything the worker reads from its environment, parsed once at start-up. */
export interface WorkerConfig {
  apiUrl: string;
  apiKey: string;
  chainId: number;
  rpcUrl: string;
  merchantKey: MerchantKey;
  /** Blocks a receipt must be buried under before the next step (1 = mined). */
  confirmations: number;
  refreshIntervalMs: number;
  /** Port of the /health endpoint; 0 picks a free one (reported in the logs). */
  healthPort: number;
  fees: FeeSettings;
  /** A raffle that failed for good (missing role) is retried after this many list refreshes, or when its listing changes. */
  permanentFailureRefreshes: number;
  /** IANA zone in which schedules are read. */
  scheduleTimeZone: string;
  /** Backoff of the raffle list requests while the API is unreachable. */
  apiRetry: { initialDelayMs: number; maxDelayMs: number };
  /** How often pending transactions are polled for a receipt. */
  receiptPollMs: number;
  logLevel: LogThreshold;
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

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const chainId = integer(env, "CHAIN_ID", LOCAL_CHAIN_ID, 1);
  const bumpPercent = decimal(env, "FEE_BUMP_PERCENT", 25, 12.5);
  return {
    apiUrl: (env.API_URL || "http://127.0.0.1:3000").replace(/\/+$/, ""),
    apiKey: required(env, "API_KEY"),
    chainId,
    rpcUrl: env.RPC_URL || "http://127.0.0.1:8545",
    merchantKey: merchantKey(env),
    confirmations: integer(env, "CONFIRMATIONS", chainId === LOCAL_CHAIN_ID ? 1 : 2, 1),
    refreshIntervalMs: integer(env, "REFRESH_INTERVAL_SECONDS", 60, 1) * 1_000,
    healthPort: integer(env, "HEALTH_PORT", 8081),
    fees: {
      maxFeePerGas: gweiToWei(decimal(env, "MAX_FEE_PER_GAS_GWEI", 500, 0.000000001)),
      bumpPercent,
      receiptTimeoutMs: integer(env, "TX_RECEIPT_TIMEOUT_SECONDS", 60, 1) * 1_000,
    },
    permanentFailureRefreshes: integer(env, "PERMANENT_FAILURE_RETRY_REFRESHES", 60, 1),
    scheduleTimeZone: env.SCHEDULE_TIMEZONE || "UTC",
    apiRetry: {
      initialDelayMs: 500,
      maxDelayMs: integer(env, "API_RETRY_MAX_DELAY_SECONDS", 30, 1) * 1_000,
    },
    receiptPollMs: chainId === LOCAL_CHAIN_ID ? 200 : 2_000,
    logLevel: parseLogThreshold(env.LOG_LEVEL),
  };
}
