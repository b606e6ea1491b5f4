import "reflect-metadata";
import { NestFactory, Reflector } from "@nestjs/core";
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
import { ApiKeyGuard } from "./auth/api-key.guard";
import { ApiKeyService } from "./auth/api-key.service";
import { MerchantSessions } from "./auth/merchant-sessions.service";
import { serveReadRoutesDirectly } from "./read-routes";
import { serveSignRouteDirectly } from "./ticket-sign/sign-route";
import { TicketSignService } from "./ticket-sign/ticket-sign.service";

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
  const pipe = createValidationPipe();
  app.useGlobalPipes(pipe);
  const metrics = app.get(ApiMetrics);
  metrics.instrument(adapter.getInstance());
  const problemFilter = new ProblemFilter(metrics);
  app.useGlobalFilters(problemFilter);
  // Before init(), where Nest registers its routes: the hot routes get their plain handlers as they are registered,
  // all running the one guard, pipe and problem filter Nest runs for the others (built at the first such route).
  let guard: ApiKeyGuard | undefined;
  const nestParts = () => ({
    guard: (guard ??= new ApiKeyGuard(app.get(Reflector), app.get(ApiKeyService), app.get(MerchantSessions))),
    pipe,
    problems: problemFilter,
  });
  serveSignRouteDirectly(adapter.getInstance(), () => ({ ...nestParts(), tickets: app.get(TicketSignService) }));
  serveReadRoutesDirectly(adapter.getInstance(), () => ({ ...nestParts(), controller: (type) => app.get(type) }));
  SwaggerModule.setup("docs", app, createOpenApiDocument(app), { jsonDocumentUrl: "docs-json" });
  return app;
}
