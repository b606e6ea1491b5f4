import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";
import type { HardhatNode, TestWorld } from "@raffle/chain/testing";
import type { TestDatabase } from "@raffle/db/testing";
import { startTestStack } from "@raffle/test-stack";

import { createApp } from "../../../api/src/app/create-app";
import { loadApiConfig, type ApiConfig, type ChainConfig } from "../../../api/src/config/api-config";
import { ApiKeyService } from "../../../api/src/app/auth/api-key.service";
import { loadWebhookConfig, type WebhookConfig, type WebhookTiming } from "../../../api/src/config/webhook-config";
import { UndocumentedProblems } from "./documented-problems";

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

/** Settings a test changes: the API's, and `chain`'s for its one chain. */
export type TestOverrides = Partial<ApiConfig> & { chain?: Partial<ChainConfig> };

/**
 * The API's own defaults (loadApiConfig) for this chain and database, quickened for tests: the indexer polls every
 * 50 ms in batches of at most 500 blocks, keys are never cached, reads for 100 ms, the chain is checked every second
 * and rate limits stay out of the way.
 */
export function testConfig(world: TestWorld, database: TestDatabase, rpcUrl: string, overrides: TestOverrides = {}): ApiConfig {
  const config = loadApiConfig(
    {
      PORT: "0",
      DATABASE_URL: database.url,
      RPC_URL: rpcUrl,
      INDEXER_POLL_INTERVAL_MS: "50",
      DEFAULT_RAFFLE_SCHEDULE: "* * * * *",
      RATE_LIMIT_SIGN_PER_KEY: "100000",
      RATE_LIMIT_SIGN_PER_ACCOUNT: "1000",
    },
    world.deployment,
  );
  const { chain, ...rest } = overrides;
  return {
    ...config,
    readCacheMs: 100,
    chainCheckIntervalMs: 1000,
    apiKeyCacheSeconds: 0,
    chains: [{ ...config.chains[0], batchBlocks: 500, ...chain }],
    ...rest,
  };
}

/** Webhook delivery to receivers on this machine, at the pace `timing` gives (the spec's, not the fixed WEBHOOK_TIMING). */
export function fastWebhooks(timing: Partial<WebhookTiming>): WebhookConfig {
  return { ...loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, [31337]), ...timing };
}

/** Player and console sessions for pages served at `webOrigin`, with budgets no journey of a spec reaches. */
export function browserSessions(webOrigin: string): ApiConfig["player"] {
  return {
    webOrigins: [webOrigin],
    sessionTtlSeconds: 3600,
    merchantSessionTtlSeconds: 3600,
    signPerAddress: 1000,
    requestsPerIp: 1000,
    consoleSignInPerIp: 1000,
    publicReadsPerIp: 1000,
  };
}

export async function startApiHarness(label: string, overrides: TestOverrides = {}): Promise<ApiHarness> {
  process.env.LOG_LEVEL ??= "silent";
  const stack = await startTestStack({ label });
  const { node, world, database } = stack;
  const config = testConfig(world, database, node.rpcUrl, overrides);
  const app = await createApp(config);
  const undocumented = new UndocumentedProblems(app);
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
      await stack.close();
      undocumented.assertNone();
    },
  };
}
