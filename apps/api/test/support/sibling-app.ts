import type { NestExpressApplication } from "@nestjs/platform-express";
import request from "supertest";

import { createApp } from "../../src/app/create-app";
import type { ApiConfig } from "../../src/config/api-config";
import type { ApiHarness } from "./api-harness";

export interface SiblingApp {
  app: NestExpressApplication;
  http: ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * A second API process on the harness's chain and database, with other settings (rate limits, readiness) and no
 * indexer of its own: cheaper than a whole new harness, and like a replica behind a load balancer.
 */
export async function startSiblingApp(harness: ApiHarness, overrides: Partial<ApiConfig>): Promise<SiblingApp> {
  const config: ApiConfig = { ...harness.config, indexer: { ...harness.config.indexer, enabled: false }, ...overrides };
  const app = await createApp(config);
  await app.init();
  return { app, http: request(app.getHttpServer()), close: () => app.close() };
}
