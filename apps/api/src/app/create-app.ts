import "reflect-metadata";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import { DocumentBuilder, SwaggerModule } from "@nestjs/swagger";

import type { ApiConfig } from "../config/api-config";
import { BODY_LIMIT_BYTES, acceptJsonBodiesOnly } from "../common/json-body";
import { numbersAsIntegers } from "../common/openapi-integers";
import { ProblemFilter, frameworkProblem } from "../common/problem.filter";
import { logRequests, requestIdOf } from "../common/request-log";
import { createValidationPipe } from "../common/validation";
import { openApiDatabase } from "../services/api-database";
import { JsonLogger } from "../services/json-logger";
import { AppModule } from "./app.module";

/**
 * Builds the configured Nest application (not yet listening): used by main.ts, the local stack and the tests. It runs
 * on Fastify rather than Express: the framework is most of a request's cost here, and Fastify's is about half.
 */
export async function createApp(config: ApiConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Ids come from requestIdOf, which checks the caller's header before echoing it into logs.
    requestIdHeader: false,
    genReqId: requestIdOf,
    frameworkErrors: frameworkProblem,
    logger: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  acceptJsonBodiesOnly(adapter.getInstance());
  logRequests(adapter.getInstance());
  const dataSource = await openApiDatabase(config);
  let app: NestFastifyApplication;
  try {
    app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, dataSource), adapter, {
      logger: new JsonLogger(),
      bodyParser: false,
      // A failure reaches the caller (main.ts logs it once) instead of Nest ending the process itself.
      abortOnError: false,
    });
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemFilter());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle("Raffle platform API")
      .setDescription(
        "Lists a merchant's raffle contracts and claims, reads the current round, and signs ticket purchases. " +
          "Every endpoint but /health and /ready needs `Authorization: Bearer <merchant API key>`. Errors are RFC 9457 " +
          "application/problem+json with a stable camelCase `code` and `statusCode`.",
      )
      .setVersion("1.0.0")
      .addBearerAuth()
      .build(),
  );
  numbersAsIntegers(document);
  SwaggerModule.setup("docs", app, document, { jsonDocumentUrl: "docs-json" });
  return app;
}
