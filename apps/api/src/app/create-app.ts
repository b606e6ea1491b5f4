import "reflect-metadata";
import { ApplicationConfig, NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { SwaggerModule } from "@nestjs/swagger";
import { LogController, type FastifyBaseLogger } from "fastify";
import type { DataSource } from "typeorm";
import { rootLogger } from "@raffle/config";

import type { ApiConfig } from "../config/api-config";
import { BODY_LIMIT_BYTES, acceptJsonBodiesOnly } from "../common/json-body";
import { ProblemFilter, frameworkProblem } from "../common/problem.filter";
import { logRequests, requestIdOf } from "../common/request-log";
import { addSecurityHeaders } from "../common/security-headers";
import { createValidationPipe } from "../common/validation";
import { openApiDatabase } from "../services/api-database";
import { JsonLogger } from "../logging/logger";
import { ApiMetrics } from "../metrics/api-metrics";
import { createOpenApiDocument } from "../openapi/openapi-document";
import { AppModule } from "./app.module";
import { serveDirectRoutes } from "./direct-routes/direct-routes";
import { answerProbesOnly } from "./probes-only";

/**
 * Builds the configured Nest application (not yet listening): used by main.ts, the local stack and the tests. It runs
 * on Fastify rather than Express: the framework is most of a request's cost here, and Fastify's is about half.
 */
export async function createApp(config: ApiConfig): Promise<NestFastifyApplication> {
  const dataSource = await openApiDatabase(config);
  try {
    return await createAppOn(config, dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/**
 * The application on a database opened by the caller. Nothing connects before `init()` (or `listen()`), so the OpenAPI
 * writer builds it on a DataSource it never opens.
 */
export async function createAppOn(config: ApiConfig, dataSource: DataSource): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Ids come from requestIdOf, which checks the caller's header before echoing it into logs.
    requestIdHeader: false,
    genReqId: requestIdOf,
    frameworkErrors: frameworkProblem,
    // Fastify's own lines (its errors and warnings) go through the platform's pino logger; each request is logged once,
    // by logRequests, so Fastify's two lines per request are off.
    loggerInstance: rootLogger(),
    // No child logger per request (it costs on the sign path): the request's id reaches every line through the log
    // context that logRequests enters (see request-log.ts), Fastify's own lines included.
    childLoggerFactory: (logger: FastifyBaseLogger) => logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    routerOptions: { ignoreTrailingSlash: true },
  });
  acceptJsonBodiesOnly(adapter.getInstance());
  logRequests(adapter.getInstance());
  addSecurityHeaders(adapter.getInstance());
  if (!config.roles.includes("serve")) answerProbesOnly(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, dataSource), adapter, {
    logger: new JsonLogger(),
    bodyParser: false,
    // A failure reaches the caller (main.ts logs it once) instead of Nest ending the process itself.
    abortOnError: false,
  });
  // The player app (public sale) calls the API from its own origins; no other origin gets CORS headers. Sessions are
  // bearer tokens, not cookies, so no credentials mode is needed.
  if (config.player.webOrigins.length > 0) {
    app.enableCors({
      origin: config.player.webOrigins,
      allowedHeaders: ["Authorization", "Content-Type"],
      exposedHeaders: ["Retry-After"],
      maxAge: 600,
    });
  }
  app.useGlobalPipes(createValidationPipe());
  const metrics = app.get(ApiMetrics);
  metrics.instrument(adapter.getInstance());
  app.useGlobalFilters(new ProblemFilter(metrics));
  // Before init(), where Nest registers its routes: the hot routes of DIRECT_ROUTES get their plain handlers as they
  // are registered, each running Nest's own global guard, pipe and problem filter (checked at that moment).
  serveDirectRoutes(adapter.getInstance(), () => ({ config: enhancerRegistry(app), controller: (type) => app.get(type) }));
  SwaggerModule.setup("docs", app, createOpenApiDocument(app), { jsonDocumentUrl: "docs-json" });
  return app;
}

/**
 * Nest's registry of global enhancers. Nest keeps it on the application without a public getter; if a Nest release
 * moves it, starting fails here, by name, rather than the direct routes' check passing with nothing to compare.
 */
function enhancerRegistry(app: NestFastifyApplication): ApplicationConfig {
  const config = (app as unknown as { config?: unknown }).config;
  if (!(config instanceof ApplicationConfig))
    throw new Error("Nest's ApplicationConfig is not on the application: the direct routes cannot check its pipeline");
  return config;
}
