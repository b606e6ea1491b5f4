import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";
import {
  LOCAL_DEV_KEYS,
  setUpWorld,
  startHardhatNode,
  type HardhatNode,
  type TestWorld,
} from "@raffle/chain";
import { createTestDatabase, type TestDatabase } from "@raffle/db";

import { createApp } from "../../src/app/create-app";
import { defaultRedisKeyPrefix, type ApiConfig } from "../../src/config/api-config";
import { ApiKeyService } from "../../src/app/auth/api-key.service";

/** A real chain, a real PostgreSQL database and the API with its indexer, for end-to-end tests. */
export interface ApiHarness {
  node: HardhatNode;
  world: TestWorld;
  database: TestDatabase;
  app: NestFastifyApplication;
  config: ApiConfig;
  http: ReturnType<typeof request>;
  /** A fresh API key for a merchant wallet or id. */
  apiKey(merchant: string): Promise<string>;
  close(): Promise<void>;
}

export function testConfig(world: TestWorld, database: TestDatabase, rpcUrl: string, overrides: Partial<ApiConfig> = {}): ApiConfig {
  return {
    port: 0,
    workers: 1,
    databaseUrl: database.url,
    rpcUrl,
    deployment: world.deployment,
    signerPrivateKey: LOCAL_DEV_KEYS.voucherSigner,
    signatureTtlSeconds: 600,
    indexer: { enabled: true, confirmations: 0, pollIntervalMs: 50, batchBlocks: 500, defaultSchedule: "* * * * *" },
    readyMaxLagBlocks: 10,
    chainCheckIntervalMs: 1_000,
    rateLimit: { windowSeconds: 60, signPerKey: 100_000, signPerAccount: 1_000, redisKeyPrefix: defaultRedisKeyPrefix(world.deployment.chainId) },
    apiKeyCacheSeconds: 0,
    readCacheMs: 100,
    voucherFlushMs: 0,
    ...overrides,
  };
}

export async function startApiHarness(label: string, overrides: Partial<ApiConfig> = {}): Promise<ApiHarness> {
  process.env.LOG_LEVEL ??= "silent";
  const node = await startHardhatNode();
  const world = await setUpWorld(node.provider);
  const database = await createTestDatabase(label);
  const config = testConfig(world, database, node.rpcUrl, overrides);
  const app = await createApp(config);
  // Fastify compiles its hooks into the routes when ready; listen() does this, supertest does not.
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const keys = app.get(ApiKeyService);
  return {
    node,
    world,
    database,
    app,
    config,
    http: request(app.getHttpServer()),
    apiKey: async (merchant) => (await keys.create(merchant)).key,
    close: async () => {
      await app.close();
      await database.drop();
      await node.stop();
    },
  };
}

/** Polls until `check` passes (the indexer runs every 50 ms in tests). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
