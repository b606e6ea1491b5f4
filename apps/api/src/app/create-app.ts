import "reflect-metadata";
import { NestFactory } from "@nestjs/core";
import type { NestExpressApplication } from "@nestjs/platform-express";
import { DocumentBuilder, SwaggerModule } from "@nestjs/swagger";
import type { NextFunction, Request, Response } from "express";

import type { ApiConfig } from "../config/api-config";
import { ProblemFilter, bodyParserProblem } from "../common/problem.filter";
import { requestLog } from "../common/request-log.middleware";
import { createValidationPipe } from "../common/validation";
import { JsonLogger } from "../services/json-logger";
import { AppModule } from "./app.module";

/** Builds the configured Nest application (not yet listening): used by main.ts, the local stack and the tests. */
export async function createApp(config: ApiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: new JsonLogger(),
    bodyParser: false,
  });
  app.use(requestLog);
  app.useBodyParser("json", { limit: "16kb", strict: true });
  // Right behind the body parser, before Nest turns its errors into bare 400s (see bodyParserProblem).
  app.use((error: unknown, _request: Request, _response: Response, next: NextFunction) => next(bodyParserProblem(error) ?? error));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ProblemFilter());
  app.disable("x-powered-by");
  app.set("query parser", "simple");

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
  SwaggerModule.setup("docs", app, document, { jsonDocumentUrl: "docs-json" });
  return app;
}
