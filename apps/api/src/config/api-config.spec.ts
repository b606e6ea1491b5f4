import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError } from "@raffle/config";

import { loadApiConfig } from "./api-config";
import { deploymentRecord } from "../../test/support/deployment-record";

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
    expect(load({ REDIS_KEY_PREFIX: "staging:" }).rateLimit.redisKeyPrefix).toBe("staging:");
  });

  it("accepts several workers only with a shared database and a shared Redis", () => {
    const shared = { DATABASE_URL: "postgres://127.0.0.1/raffle", REDIS_URL: "redis://127.0.0.1:6379" };
    expect(load({ API_WORKERS: "2", ...shared }).workers).toBe(2);
    expect(() => load({ API_WORKERS: "2", DATABASE_URL: shared.DATABASE_URL })).toThrow(/API_WORKERS > 1 needs REDIS_URL/);
    expect(() => load({ API_WORKERS: "2", REDIS_URL: shared.REDIS_URL })).toThrow(/API_WORKERS > 1 needs DATABASE_URL/);
    expect(() => load({ API_WORKERS: "0" })).toThrow(ConfigError);
  });

  it("takes the indexer's WebSocket endpoint only as a ws:// or wss:// URL, and never echoes it", () => {
    expect(load({}).indexer.wsUrl).toBeUndefined();
    expect(load({ INDEXER_WS_URL: "" }).indexer.wsUrl).toBeUndefined();
    expect(load({ INDEXER_WS_URL: "ws://127.0.0.1:8545" }).indexer.wsUrl).toBe("ws://127.0.0.1:8545");
    expect(load({ INDEXER_WS_URL: "wss://node.example.com/v3/key" }).indexer.wsUrl).toBe("wss://node.example.com/v3/key");
    expect(() => load({ INDEXER_WS_URL: "https://node.example.com/v3/secret" })).toThrow(
      new ConfigError("INDEXER_WS_URL must be a ws:// or wss:// URL, got a https:// URL"),
    );
    expect(() => load({ INDEXER_WS_URL: "node.example.com/v3/secret" })).toThrow(
      new ConfigError("INDEXER_WS_URL must be a ws:// or wss:// URL, got something that is not a URL"),
    );
  });
});
