import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from "@nestjs/common";
import type { Request, Response } from "express";

import { ApiProblem } from "./problem";
import { jsonLog } from "../services/json-logger";

const CODES_BY_STATUS: Record<number, string> = {
  400: "badRequest",
  401: "unauthorized",
  403: "forbidden",
  404: "notFound",
  405: "methodNotAllowed",
  406: "notAcceptable",
  408: "requestTimeout",
  413: "payloadTooLarge",
  415: "unsupportedMediaType",
  429: "tooManyRequests",
  503: "serviceUnavailable",
};

/** Errors the database driver raises when PostgreSQL is unreachable: the request failed fast, it is not a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : "";
  return /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|the database system is (starting|shutting) up|terminating connection/i.test(
    text,
  );
}

/** Renders every error as RFC 9457 problem+json with `code` and `statusCode`; unknown errors never leak details. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception, request);
    if (problem.statusCode >= 500) {
      jsonLog("error", "request failed", {
        requestId: request.headers["x-request-id"],
        path: request.path,
        error: exception instanceof Error ? exception.message : String(exception),
      });
    }
    for (const [name, value] of Object.entries(problem.headers)) response.setHeader(name, value);
    response
      .status(problem.statusCode)
      .type("application/problem+json")
      .send(
        JSON.stringify({
          type: "about:blank",
          title: HttpStatus[problem.statusCode]?.replace(/_/g, " ").toLowerCase() ?? "error",
          status: problem.statusCode,
          statusCode: problem.statusCode,
          code: problem.code,
          detail: problem.detail,
          instance: request.originalUrl?.split("?")[0],
          ...(problem.errors ? { errors: problem.errors } : {}),
        }),
      );
  }

  private toProblem(exception: unknown, request: Request): ApiProblem {
    if (exception instanceof ApiProblem) return exception;
    // body-parser errors: malformed JSON, oversized bodies, bad encodings.
    const bodyError = exception as { type?: string; status?: number; statusCode?: number };
    if (bodyError?.type === "entity.parse.failed") return new ApiProblem(400, "invalidJson", "The request body is not valid JSON.");
    if (bodyError?.type === "entity.too.large") return new ApiProblem(413, "payloadTooLarge", "The request body is too large.");
    if (typeof bodyError?.type === "string" && (bodyError.status ?? bodyError.statusCode ?? 500) < 500) {
      return new ApiProblem(bodyError.status ?? 400, "badRequest", "The request body could not be read.");
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const detail = status === 404 ? `Cannot ${request.method} ${request.path}.` : exception.message;
      return new ApiProblem(status, CODES_BY_STATUS[status] ?? (status < 500 ? "badRequest" : "internalError"), detail);
    }
    if (isDatabaseUnavailable(exception)) {
      return new ApiProblem(503, "serviceUnavailable", "The database is unavailable; retry shortly.", undefined, { "Retry-After": "1" });
    }
    return new ApiProblem(500, "internalError", "An unexpected error occurred.");
  }
}
