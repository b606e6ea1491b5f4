import { LOCAL_DEV_KEYS } from "@raffle/chain";

import { ConfigError, loadWorkerConfig } from "./config";

// Relaying has its own specs (config-relayer.spec.ts): off here, so a chain off the dev chains needs nothing more.
const base = { API_KEY: "rk_abc", MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant, RELAYER_ENABLED: "false" };

/** The message of the ConfigError `read` throws (fails the test when it throws none, or another error). */
function configProblem(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("no ConfigError thrown");
}

describe("loadWorkerConfig with several chains", () => {
  it("reads today's one-chain environment as a list of one, unchanged", () => {
    const config = loadWorkerConfig({ ...base, CHAIN_ID: "8453", RPC_URL: "https://base.example.com/v3/key", CONFIRMATIONS: "4" });
    expect(config.chains).toEqual([
      {
        chainId: 8453,
        rpcUrl: "https://base.example.com/v3/key",
        rpcUrlSetting: "RPC_URL",
        confirmations: 4,
        fees: { maxFeePerGas: 500_000_000_000n, bumpPercent: 25, receiptTimeoutMs: 60_000 },
        receiptPollMs: 2_000,
      },
    ]);
  });

  it("gives each chain of CHAIN_IDS its own node and settings, shared settings as fallback, one key and one API", () => {
    const config = loadWorkerConfig({
      ...base,
      API_URL: "https://api.example.com",
      CHAIN_IDS: "31337, 8453",
      CHAIN_31337_RPC_URL: "http://127.0.0.1:8545",
      CHAIN_8453_RPC_URL: "https://base.example.com",
      CHAIN_8453_CONFIRMATIONS: "5",
      CHAIN_8453_MAX_FEE_PER_GAS_GWEI: "2",
      FEE_BUMP_PERCENT: "20",
    });
    expect(config.apiUrl).toBe("https://api.example.com");
    expect(config.merchantKey.reveal()).toBe(LOCAL_DEV_KEYS.demoMerchant);
    expect(config.chains).toEqual([
      {
        chainId: 31337,
        rpcUrl: "http://127.0.0.1:8545",
        rpcUrlSetting: "CHAIN_31337_RPC_URL",
        confirmations: 1,
        fees: { maxFeePerGas: 500_000_000_000n, bumpPercent: 20, receiptTimeoutMs: 60_000 },
        receiptPollMs: 200,
      },
      {
        chainId: 8453,
        rpcUrl: "https://base.example.com",
        rpcUrlSetting: "CHAIN_8453_RPC_URL",
        confirmations: 5,
        fees: { maxFeePerGas: 2_000_000_000n, bumpPercent: 20, receiptTimeoutMs: 60_000 },
        receiptPollMs: 2_000,
      },
    ]);
  });

  it("reports every problem of every chain at once, each naming its variable", () => {
    const message = configProblem(() =>
      loadWorkerConfig({
        MERCHANT_PRIVATE_KEY: "0x1234",
        CHAIN_IDS: "31337,31338,8453",
        CHAIN_31337_RPC_URL: "http://127.0.0.1:8545",
        CHAIN_31338_CONFIRMATIONS: "0",
        CHAIN_8453_FEE_BUMP_PERCENT: "5",
        TX_RECEIPT_TIMEOUT_SECONDS: "soon",
      }),
    );
    expect(message).toContain("CHAIN_31338_RPC_URL is required");
    expect(message).toContain('CHAIN_31338_CONFIRMATIONS must be an integer >= 1, got "0"');
    expect(message).toContain("CHAIN_8453_RPC_URL is required (chain 8453 is not a local dev chain)");
    expect(message).toContain('CHAIN_8453_FEE_BUMP_PERCENT must be a number >= 12.5, got "5"');
    expect(message).toContain("API_KEY is required");
    expect(message).toContain("MERCHANT_PRIVATE_KEY is not a private key");
    // A shared setting read by the three chains is reported once.
    expect(message.split('TX_RECEIPT_TIMEOUT_SECONDS must be an integer >= 1, got "soon"')).toHaveLength(2);
    expect(message).not.toContain("CHAIN_31337_RPC_URL is required");
  });

  it("reports a bad chain list together with the other problems", () => {
    const message = configProblem(() =>
      loadWorkerConfig({ MERCHANT_PRIVATE_KEY: base.MERCHANT_PRIVATE_KEY, CHAIN_IDS: "1,1", RPC_URL: "http://node" }),
    );
    expect(message).toContain("CHAIN_IDS lists chain 1 twice");
    expect(message).toContain("API_KEY is required");
    const shared = configProblem(() => loadWorkerConfig({ ...base, CHAIN_IDS: "31337,31338", RPC_URL: "http://127.0.0.1:8545" }));
    expect(shared).toContain("RPC_URL cannot be shared by several chains");
  });

  it("keeps the dev defaults (node on 127.0.0.1:8545, 1 confirmation, fast polling) to a lone local dev chain", () => {
    expect(configProblem(() => loadWorkerConfig({ ...base, CHAIN_ID: "1" }))).toBe("RPC_URL is required (chain 1 is not a local dev chain)");
    expect(configProblem(() => loadWorkerConfig({ ...base, CHAIN_IDS: "8453" }))).toBe("RPC_URL is required (chain 8453 is not a local dev chain)");
    // Two dev chains cannot share the default port: each names its node.
    const both = configProblem(() => loadWorkerConfig({ ...base, CHAIN_IDS: "31337,31338", CHAIN_31337_RPC_URL: "http://127.0.0.1:8545" }));
    expect(both).toBe("CHAIN_31338_RPC_URL is required (each of several chains needs its own node)");
    const [dev] = loadWorkerConfig({ ...base, CHAIN_IDS: "31338" }).chains;
    expect(dev).toMatchObject({ chainId: 31338, rpcUrl: "http://127.0.0.1:8545", confirmations: 1, receiptPollMs: 200 });
  });

  it("never echoes a value it refuses, nor the merchant key", () => {
    const message = configProblem(() =>
      loadWorkerConfig({ MERCHANT_PRIVATE_KEY: `${LOCAL_DEV_KEYS.demoMerchant}0`, CHAIN_IDS: "31337,31338", CHAIN_31337_RPC_URL: "http://a" }),
    );
    expect(message.toLowerCase()).not.toContain(LOCAL_DEV_KEYS.demoMerchant.slice(2, 20));
  });
});
