import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError } from "@raffle/config";
import { Wallet } from "ethers";

import {
  API_KEY_CACHE_SECONDS,
  API_SETTINGS,
  CHAIN_CHECK_INTERVAL_SECONDS,
  RATE_LIMIT_WINDOW_SECONDS,
  READ_CACHE_MS,
  READY_MAX_LAG_BLOCKS,
  loadApiConfig,
} from "./api-config";
import { PLAYER_LIMITS, PLAYER_SETTINGS } from "./player-config";
import { deploymentRecord } from "../../test/support/deployment-record";

// Hardhat's public dev account #3: a real key shape, never a secret.
const HARDHAT_KEY_3 = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";

describe("API configuration", () => {
  const deploymentFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "raffle-config-")), "deployment.json");
  fs.writeFileSync(deploymentFile, JSON.stringify(deploymentRecord()));
  const local = { CHAIN_ID: "31337", DEPLOYMENT_FILE: deploymentFile };

  function load(env: Record<string, string>) {
    return loadApiConfig({ ...local, ...env });
  }

  it("runs one process by default, with rate-limit keys named after the chain", () => {
    const config = load({});
    expect(config.workers).toBe(1);
    expect(config.rateLimit.redisKeyPrefix).toBe("raffle:31337:");
    expect(config.chains.map((chain) => chain.chainId)).toEqual([31337]);
    expect(load({ REDIS_KEY_PREFIX: "staging:" }).rateLimit.redisKeyPrefix).toBe("staging:");
  });

  it("reads no experiment knob: former tuning settings in the environment change nothing", () => {
    const config = load({ READ_CACHE_MS: "-1", VOUCHER_SIGNING_THREAD: "maybe", VOUCHER_FLUSH_MS: "x", INDEXER_BATCH_BLOCKS: "0" });
    expect(config.readCacheMs).toBe(READ_CACHE_MS);
    expect(config.chains[0].batchBlocks).toBeUndefined();
    expect(Object.keys(API_SETTINGS)).not.toContain("READ_CACHE_MS");
  });

  it("keeps the key cache, the readiness lag bound and the chain check interval as constants (issue 51)", () => {
    const config = load({ API_KEY_CACHE_SECONDS: "0", READY_MAX_LAG_BLOCKS: "1", CHAIN_CHECK_INTERVAL_SECONDS: "1" });
    expect(config).toMatchObject({
      apiKeyCacheSeconds: API_KEY_CACHE_SECONDS,
      readyMaxLagBlocks: READY_MAX_LAG_BLOCKS,
      chainCheckIntervalMs: CHAIN_CHECK_INTERVAL_SECONDS * 1000,
    });
    expect(Object.keys(API_SETTINGS)).not.toEqual(expect.arrayContaining(["API_KEY_CACHE_SECONDS"]));
  });

  it("runs every role by default, and each role alone from API_ROLES", () => {
    expect(load({})).toMatchObject({ roles: ["serve", "index", "deliver"], indexer: { enabled: true }, webhooks: { deliveryEnabled: true } });
    expect(load({ API_ROLES: "index" })).toMatchObject({ roles: ["index"], indexer: { enabled: true }, webhooks: { deliveryEnabled: false } });
    expect(load({ API_ROLES: " Deliver , serve " })).toMatchObject({
      roles: ["serve", "deliver"],
      indexer: { enabled: false },
      webhooks: { deliveryEnabled: true },
    });
    expect(load({ API_ROLES: "" }).roles).toEqual(["serve", "index", "deliver"]);
    // The former switches are gone: the roles alone decide.
    expect(load({ API_ROLES: "serve", INDEXER_ENABLED: "true", WEBHOOK_DELIVERY_ENABLED: "true" })).toMatchObject({
      indexer: { enabled: false },
      webhooks: { deliveryEnabled: false },
    });
  });

  it("reads DATABASE_REPLICA_URL only beside DATABASE_URL, never quoting it", () => {
    const primary = "postgres://raffle:pw@db-primary/raffle";
    expect(load({ DATABASE_URL: primary, DATABASE_REPLICA_URL: "postgres://raffle:pw@db-replica/raffle" }).databaseReplicaUrl).toBe(
      "postgres://raffle:pw@db-replica/raffle",
    );
    expect(load({}).databaseReplicaUrl).toBeUndefined();
    expect(() => load({ DATABASE_REPLICA_URL: "postgres://raffle:pw@db-replica/raffle" })).toThrow(/DATABASE_REPLICA_URL needs DATABASE_URL/);
    expect(() => load({ DATABASE_URL: primary, DATABASE_REPLICA_URL: "mysql://raffle:s3cret@db/raffle" })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => load({ DATABASE_URL: primary, DATABASE_REPLICA_URL: "mysql://raffle:s3cret@db/raffle" })).not.toThrow(/s3cret/);
  });

  it("refuses an unknown or empty role by name", () => {
    expect(() => load({ API_ROLES: "serve,indexer" })).toThrow(
      new ConfigError('API_ROLES must be a comma-separated list of serve, index, deliver, got "serve,indexer"'),
    );
    expect(() => load({ API_ROLES: "serve,,index" })).toThrow(/API_ROLES must be a comma-separated list/);
    expect(() => load({ API_ROLES: " , " })).toThrow(/API_ROLES must be a comma-separated list/);
  });

  it("keeps the rate-limit window, the session lives and the per-address voucher budget as constants, whatever the environment says", () => {
    const former = {
      RATE_LIMIT_WINDOW_SECONDS: "1",
      PLAYER_SESSION_TTL_SECONDS: "61",
      MERCHANT_SESSION_TTL_SECONDS: "61",
      RATE_LIMIT_PLAYER_SIGN_PER_ADDRESS: "1",
    };
    const config = load(former);
    expect(config.rateLimit.windowSeconds).toBe(RATE_LIMIT_WINDOW_SECONDS);
    expect(config.player).toEqual({
      webOrigins: [],
      sessionTtlSeconds: 3_600,
      merchantSessionTtlSeconds: 28_800,
      signPerAddress: 30,
      requestsPerIp: 300,
      consoleSignInPerIp: 60,
      publicReadsPerIp: 1_200,
    });
    expect(config.player).toMatchObject(PLAYER_LIMITS);
    const settingNames = [...Object.keys(API_SETTINGS), ...Object.keys(PLAYER_SETTINGS)];
    for (const name of Object.keys(former)) expect(settingNames).not.toContain(name);
  });

  it("accepts several workers only with a shared database and a shared Redis", () => {
    const shared = { DATABASE_URL: "postgres://127.0.0.1/raffle", REDIS_URL: "redis://127.0.0.1:6379" };
    expect(load({ API_WORKERS: "2", ...shared }).workers).toBe(2);
    expect(() => load({ API_WORKERS: "2", DATABASE_URL: shared.DATABASE_URL })).toThrow(/API_WORKERS > 1 needs REDIS_URL/);
    expect(() => load({ API_WORKERS: "2", REDIS_URL: shared.REDIS_URL })).toThrow(/API_WORKERS > 1 needs DATABASE_URL/);
    expect(() => load({ API_WORKERS: "0" })).toThrow(ConfigError);
  });

  it("reports every bad setting at once, each by name", () => {
    expect(() => load({ PORT: "x", SIGNATURE_TTL_SECONDS: "1", INDEXER_REORG_WINDOW_BLOCKS: "0", INDEXER_WS_URL: "http://node" })).toThrow(
      new ConfigError(
        'INDEXER_WS_URL must be a ws:// or wss:// URL, got a http:// URL; INDEXER_REORG_WINDOW_BLOCKS must be an integer >= 1, got "0"; ' +
          'PORT must be an integer from 0 to 65535, got "x"; SIGNATURE_TTL_SECONDS must be an integer >= 10, got "1"',
      ),
    );
    expect(load({ INDEXER_REORG_WINDOW_BLOCKS: "64" }).chains[0].reorgWindowBlocks).toBe(64);
  });

  it("takes PORT as decimal digits up to 65535 and DEFAULT_RAFFLE_SCHEDULE only as a cron schedule", () => {
    expect(load({ PORT: "1000", DEFAULT_RAFFLE_SCHEDULE: "*/5 * * * *" })).toMatchObject({ port: 1000, indexer: { defaultSchedule: "*/5 * * * *" } });
    expect(load({}).indexer.defaultSchedule).toBe("0 0 * * *");
    for (const port of ["1e3", "0x10", "99999", "-1"]) {
      expect(() => load({ PORT: port })).toThrow(new ConfigError(`PORT must be an integer from 0 to 65535, got "${port}"`));
    }
    expect(() => load({ DEFAULT_RAFFLE_SCHEDULE: "every day" })).toThrow(
      new ConfigError('DEFAULT_RAFFLE_SCHEDULE must be a cron schedule like "0 0 * * *", got "every day"'),
    );
    expect(() => load({ DEFAULT_RAFFLE_SCHEDULE: "61 * * * *" })).toThrow(/DEFAULT_RAFFLE_SCHEDULE must be a cron schedule/);
  });

  it("refuses CHAIN_<id>_ settings without CHAIN_IDS rather than ignoring them", () => {
    expect(() => load({ CHAIN_31337_RPC_URL: "http://127.0.0.1:9545" })).toThrow(
      /CHAIN_31337_RPC_URL is set, but CHAIN_IDS is not: .*set CHAIN_IDS=31337, or use RPC_URL/,
    );
  });

  it("gives LOG_LEVEL pino's levels, refusing any other by name with the allowed ones; empty means unset", () => {
    expect(load({}).logLevel).toBe("info");
    expect(load({ LOG_LEVEL: "" }).logLevel).toBe("info");
    expect(load({ LOG_LEVEL: "Warn" }).logLevel).toBe("warn");
    expect(() => load({ LOG_LEVEL: "verbose", PORT: "" })).toThrow(
      new ConfigError('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'),
    );
  });

  it("takes DATABASE_URL and REDIS_URL only as their URLs, refusing others by name without echoing them", () => {
    const urls = { DATABASE_URL: "postgresql://raffle:s3cret@db.internal/raffle", REDIS_URL: "rediss://default:s3cret@cache.internal:6380" };
    expect(load(urls)).toMatchObject({ databaseUrl: urls.DATABASE_URL, rateLimit: { redisUrl: urls.REDIS_URL } });
    expect(load({ DATABASE_URL: "", REDIS_URL: "" })).toMatchObject({ databaseUrl: undefined, rateLimit: { redisUrl: undefined } });
    let message = "";
    try {
      load({ DATABASE_URL: "raffle:s3cret@db.internal/raffle", REDIS_URL: "http://default:s3cret@cache.internal:6380" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      "DATABASE_URL must be a postgres:// or postgresql:// URL, got something that is not a URL; " +
        "REDIS_URL must be a redis:// or rediss:// URL, got a http:// URL",
    );
  });

  it("takes the indexer's WebSocket endpoint only as a ws:// or wss:// URL, and never echoes it", () => {
    expect(load({}).chains[0].wsUrl).toBeUndefined();
    expect(load({ INDEXER_WS_URL: "" }).chains[0].wsUrl).toBeUndefined();
    expect(load({ INDEXER_WS_URL: "ws://127.0.0.1:8545" }).chains[0].wsUrl).toBe("ws://127.0.0.1:8545");
    expect(load({ INDEXER_WS_URL: "wss://node.example.com/v3/key" }).chains[0].wsUrl).toBe("wss://node.example.com/v3/key");
    expect(() => load({ INDEXER_WS_URL: "https://node.example.com/v3/secret" })).toThrow(
      new ConfigError("INDEXER_WS_URL must be a ws:// or wss:// URL, got a https:// URL"),
    );
    expect(() => load({ INDEXER_WS_URL: "node.example.com/v3/secret" })).toThrow(
      new ConfigError("INDEXER_WS_URL must be a ws:// or wss:// URL, got something that is not a URL"),
    );
  });

  it("takes a next voucher key beside the current one (SIGNER_NEXT_...), per chain too, never the current key again (issue 31)", () => {
    const next = Wallet.createRandom().privateKey;
    expect(load({}).chains[0].nextSignerPrivateKey).toBeUndefined();
    expect(load({ SIGNER_NEXT_PRIVATE_KEY: next }).chains[0].nextSignerPrivateKey).toBe(next);
    const perChain = loadApiConfig({ CHAIN_IDS: "31337", CHAIN_31337_DEPLOYMENT_FILE: deploymentFile, CHAIN_31337_SIGNER_NEXT_PRIVATE_KEY: next });
    expect(perChain.chains[0].nextSignerPrivateKey).toBe(next);
    expect(() => load({ SIGNER_PRIVATE_KEY: HARDHAT_KEY_3, SIGNER_NEXT_PRIVATE_KEY: HARDHAT_KEY_3.toUpperCase().replace("0X", "0x") })).toThrow(
      "SIGNER_NEXT_PRIVATE_KEY is the current voucher key: give the next key, or leave it unset",
    );
    const refused = (() => {
      try {
        load({ SIGNER_NEXT_PRIVATE_KEY: `${next} `, SIGNER_NEXT_KEYSTORE_FILE: "" });
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(refused).toMatch(/^SIGNER_NEXT_PRIVATE_KEY is not a private key: it has whitespace/);
    expect(refused).not.toContain(next.slice(2, 20));
    expect(() => load({ SIGNER_NEXT_KEYSTORE_FILE: "/nowhere.json" })).toThrow("SIGNER_NEXT_KEYSTORE_FILE needs SIGNER_NEXT_KEYSTORE_PASSWORD_FILE");
  });

  describe("several chains (CHAIN_IDS)", () => {
    const second = path.join(path.dirname(deploymentFile), "deployment-31338.json");
    fs.writeFileSync(second, JSON.stringify(deploymentRecord({ chainId: 31338 })));
    const twoChains = {
      CHAIN_IDS: "31337,31338",
      CHAIN_31337_RPC_URL: "http://127.0.0.1:8545",
      CHAIN_31337_DEPLOYMENT_FILE: deploymentFile,
      CHAIN_31338_RPC_URL: "http://127.0.0.1:8546",
      CHAIN_31338_DEPLOYMENT_FILE: second,
      CHAIN_31338_INDEXER_CONFIRMATIONS: "3",
    };

    it("serves each listed chain with its own node, deployment and settings, sharing the rest", () => {
      const config = loadApiConfig({ ...twoChains, SIGNER_PRIVATE_KEY: HARDHAT_KEY_3 });
      expect(config.chains.map(({ chainId, rpcUrl, confirmations }) => ({ chainId, rpcUrl, confirmations }))).toEqual([
        { chainId: 31337, rpcUrl: "http://127.0.0.1:8545", confirmations: 0 },
        { chainId: 31338, rpcUrl: "http://127.0.0.1:8546", confirmations: 3 },
      ]);
      expect(config.chains.map((chain) => chain.deployment.chainId)).toEqual([31337, 31338]);
      expect(config.chains.every((chain) => chain.signerPrivateKey === HARDHAT_KEY_3)).toBe(true);
      expect(config.chains[1].settingName("RPC_URL")).toBe("CHAIN_31338_RPC_URL");
      expect(config.rateLimit.redisKeyPrefix).toBe("raffle:31337,31338:");
    });

    it("names every misconfigured chain and its variable at once", () => {
      let message = "";
      try {
        loadApiConfig({ CHAIN_IDS: "31337,8453", CHAIN_31337_DEPLOYMENT_FILE: deploymentFile, CHAIN_8453_INDEXER_CONFIRMATIONS: "-1" });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      // 31337 is a dev chain: its node defaults to the local one and its key to the dev signer. 8453 gets nothing.
      expect(message).not.toMatch(/chain 31337/);
      expect(message).toMatch(/^chain 8453: deployment file .*8453\.json .*set CHAIN_8453_DEPLOYMENT_FILE to use another\) cannot be read/);
      expect(() =>
        loadApiConfig({ CHAIN_IDS: "31337,8453", CHAIN_31337_DEPLOYMENT_FILE: deploymentFile, CHAIN_8453_DEPLOYMENT_FILE: deploymentFile }),
      ).toThrow(/chain 8453: CHAIN_8453_DEPLOYMENT_FILE .* is invalid: "chainId" is 31337, but the file is configured for chain 8453/);
    });

    it("refuses a shared RPC_URL, and dev defaults off the dev chains, by name", () => {
      expect(() => loadApiConfig({ ...twoChains, RPC_URL: "http://127.0.0.1:8545" })).toThrow(/RPC_URL cannot be shared by several chains/);
      const base = path.join(path.dirname(deploymentFile), "deployment-8453.json");
      fs.writeFileSync(base, JSON.stringify(deploymentRecord({ chainId: 8453 })));
      const message = (() => {
        try {
          loadApiConfig({ CHAIN_IDS: "31337,8453", CHAIN_31337_DEPLOYMENT_FILE: deploymentFile, CHAIN_8453_DEPLOYMENT_FILE: base });
          return "";
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toContain("CHAIN_8453_RPC_URL is required for chain 8453");
      expect(message).toContain("SIGNER_PRIVATE_KEY or SIGNER_KEYSTORE_FILE is required off the local chains (chain 8453)");
      expect(() => loadApiConfig({ ...twoChains, CHAIN_31338_RPC_URL: "ftp://node" })).toThrow(
        /chain 31338: CHAIN_31338_RPC_URL must be an http:\/\/ or https:\/\/ URL, got a ftp:\/\/ URL/,
      );
    });
  });
});
