import type { NestFastifyApplication } from "@nestjs/platform-fastify";
import request from "supertest";

import { createApp } from "../../../api/src/app/create-app";
import type { ApiConfig } from "../../../api/src/config/api-config";
import type { ApiHarness } from "./api-harness";

export interface SiblingApp {
  app: NestFastifyApplication;
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
  // Fastify compiles its hooks into the routes when ready; listen() does this, supertest does not.
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return { app, http: request(app.getHttpServer()), close: () => app.close() };
}
