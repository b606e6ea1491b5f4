import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { Wallet, encryptKeystoreJsonSync } from "ethers";
import { LOCAL_DEV_KEYS } from "@raffle/chain";

import { LogCapture } from "../test/support/log-capture";
import { ConfigError, loadWorkerConfig } from "./config";
import { WorkerLogger } from "./logger";

const KEY = LOCAL_DEV_KEYS.demoMerchant;
// Relaying has its own specs (config-relayer.spec.ts): off here, so a chain off the dev chains needs nothing more.
const base = { API_KEY: "rk_abc", MERCHANT_PRIVATE_KEY: KEY, RELAYER_ENABLED: "false" };

describe("loadWorkerConfig", () => {
  it("has local defaults", () => {
    const config = loadWorkerConfig(base);
    expect(config).toMatchObject({
      apiUrl: "http://127.0.0.1:3000",
      apiKey: "rk_abc",
      refreshIntervalMs: 60_000,
      healthPort: 8081,
      healthHost: "0.0.0.0",
      permanentFailureRefreshes: 60,
      scheduleTimeZone: "UTC",
    });
    expect(config.chains).toEqual([
      {
        chainId: 31337,
        rpcUrl: "http://127.0.0.1:8545",
        rpcUrlSetting: "RPC_URL",
        confirmations: 1,
        fees: { maxFeePerGas: 500_000_000_000n, bumpPercent: 25, receiptTimeoutMs: 60_000 },
        receiptPollMs: 200,
      },
    ]);
    expect(config.merchantKey.reveal()).toBe(KEY);
  });

  it("reads every setting from the environment", () => {
    const config = loadWorkerConfig({
      ...base,
      API_URL: "https://api.example.com/",
      CHAIN_ID: "137",
      RPC_URL: "https://rpc.example.com",
      CONFIRMATIONS: "3",
      REFRESH_INTERVAL_SECONDS: "15",
      HEALTH_PORT: "0",
      HEALTH_HOST: "127.0.0.1",
      MAX_FEE_PER_GAS_GWEI: "1.5",
      FEE_BUMP_PERCENT: "12.5",
      TX_RECEIPT_TIMEOUT_SECONDS: "30",
      PERMANENT_FAILURE_RETRY_REFRESHES: "5",
      SCHEDULE_TIMEZONE: "Europe/Paris",
      API_RETRY_MAX_DELAY_SECONDS: "10",
    });
    expect(config).toMatchObject({
      apiUrl: "https://api.example.com",
      chains: [
        {
          chainId: 137,
          rpcUrl: "https://rpc.example.com",
          rpcUrlSetting: "RPC_URL",
          confirmations: 3,
          fees: { maxFeePerGas: 1_500_000_000n, bumpPercent: 12.5, receiptTimeoutMs: 30_000 },
          receiptPollMs: 2_000,
        },
      ],
      refreshIntervalMs: 15_000,
      healthPort: 0,
      healthHost: "127.0.0.1",
      permanentFailureRefreshes: 5,
      scheduleTimeZone: "Europe/Paris",
      apiRetry: { maxDelayMs: 10_000 },
    });
  });

  it("defaults to 2 confirmations off the local dev chains", () => {
    expect(loadWorkerConfig({ ...base, CHAIN_ID: "1", RPC_URL: "https://node" }).chains[0].confirmations).toBe(2);
    expect(loadWorkerConfig({ ...base, CHAIN_ID: "31338" }).chains[0]).toMatchObject({ confirmations: 1, rpcUrl: "http://127.0.0.1:8545" });
  });

  it.each([
    [{ API_KEY: "" }, "API_KEY is required"],
    [{ MERCHANT_PRIVATE_KEY: "" }, "MERCHANT_PRIVATE_KEY or MERCHANT_KEYSTORE_FILE"],
    [{ MERCHANT_PRIVATE_KEY: "0x1234" }, "MERCHANT_PRIVATE_KEY is not a private key: it has 4 hex digits, not 64"],
    [{ FEE_BUMP_PERCENT: "10" }, "FEE_BUMP_PERCENT must be a number >= 12.5"],
    [{ CONFIRMATIONS: "0" }, "CONFIRMATIONS must be an integer >= 1"],
    [{ REFRESH_INTERVAL_SECONDS: "soon" }, "REFRESH_INTERVAL_SECONDS must be an integer"],
    [{ MERCHANT_PRIVATE_KEY: "", MERCHANT_KEYSTORE_FILE: "/nowhere" }, "needs MERCHANT_KEYSTORE_PASSWORD_FILE"],
    [{ LOG_LEVEL: "verbose" }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ HEALTH_HOST: "http://0.0.0.0:8081" }, "HEALTH_HOST must be an IP address (like 0.0.0.0, 127.0.0.1 or ::) or a host name"],
    [{ LOW_GAS_BALANCE_ETH: "-1" }, 'LOW_GAS_BALANCE_ETH must be an amount >= 0 in ether units (e.g. 0.05), got "-1"'],
  ])("refuses %p", (overrides, message) => {
    expect(() => loadWorkerConfig({ ...base, ...overrides })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ ...base, ...overrides })).toThrow(message);
  });

  it("takes empty settings as unset", () => {
    const empty = { API_URL: "", RPC_URL: "", CONFIRMATIONS: "", LOG_LEVEL: "", LOW_GAS_BALANCE_ETH: "", SCHEDULE_TIMEZONE: "" };
    expect(loadWorkerConfig({ ...base, ...empty })).toMatchObject({
      apiUrl: "http://127.0.0.1:3000",
      chains: [{ rpcUrl: "http://127.0.0.1:8545", confirmations: 1 }],
      logLevel: "info",
      lowGasBalanceWei: 50_000_000_000_000_000n,
      scheduleTimeZone: "UTC",
    });
  });

  it("takes API_URL and RPC_URL only as http(s) URLs, refusing others by name in one error without echoing them", () => {
    let message = "";
    try {
      loadWorkerConfig({
        ...base,
        API_URL: "api.example.com/v1?token=s3cret",
        CHAIN_ID: "1",
        RPC_URL: "wss://eth.example.com/v3/s3cret",
        LOG_LEVEL: "loud",
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      "RPC_URL must be an http:// or https:// URL, got a wss:// URL; API_URL must be an http:// or https:// URL, got something that is not a URL; " +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  describe("with an encrypted keystore", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "merchant-keystore-"));
    const keystoreFile = path.join(dir, "merchant.json");
    const passwordFile = path.join(dir, "password.txt");
    const wallet = new Wallet(KEY);
    fs.writeFileSync(keystoreFile, encryptKeystoreJsonSync({ address: wallet.address, privateKey: KEY }, "s3cret", { scrypt: { N: 1 << 10 } }));
    fs.writeFileSync(passwordFile, "s3cret\n");
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("decrypts it with the password file", () => {
      const config = loadWorkerConfig({ API_KEY: "rk_abc", MERCHANT_KEYSTORE_FILE: keystoreFile, MERCHANT_KEYSTORE_PASSWORD_FILE: passwordFile });
      expect(config.merchantKey.reveal()).toBe(KEY);
    });

    it("says so when the password is wrong", () => {
      fs.writeFileSync(path.join(dir, "wrong.txt"), "nope");
      expect(() =>
        loadWorkerConfig({ API_KEY: "rk_abc", MERCHANT_KEYSTORE_FILE: keystoreFile, MERCHANT_KEYSTORE_PASSWORD_FILE: path.join(dir, "wrong.txt") }),
      ).toThrow("cannot decrypt MERCHANT_KEYSTORE_FILE");
    });
  });

  it("never shows the key: not in JSON, not when inspected, not in a log line", () => {
    const config = loadWorkerConfig(base);
    const bare = KEY.slice(2);
    expect(JSON.stringify(config, (_key, value) => (typeof value === "bigint" ? value.toString() : value))).not.toContain(bare);
    expect(inspect(config, { depth: 10 })).not.toContain(bare);
    expect(`${config.merchantKey}`).toBe("[redacted]");

    const logs = new LogCapture();
    const logger = new WorkerLogger({ sink: logs.sink, secrets: [config.merchantKey.reveal()] });
    logger.error("oops", { detail: `signing with ${KEY.toUpperCase().replace("0X", "0x")} failed`, nested: { key: bare } });
    const line = JSON.stringify(logs.lines);
    expect(line.toLowerCase()).not.toContain(bare);
    expect(line).toContain("[redacted]");
  });
});
