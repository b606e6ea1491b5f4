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

/**
 * body-parser errors (malformed JSON, oversized bodies, unsupported charsets, undecodable Content-Encoding) as
 * problems. They must be mapped where body-parser raises them (see createApp): Nest re-wraps a JSON SyntaxError as a
 * bare BadRequestException, losing its `type`, and a zlib error carries a 4xx status but no `type` at all.
 */
export function bodyParserProblem(error: unknown): ApiProblem | null {
  if (error === null || typeof error !== "object" || error instanceof HttpException) return null;
  const { type, status, statusCode, expose } = error as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown };
  if (type === "entity.parse.failed") return new ApiProblem(400, "invalidJson", "The request body is not valid JSON.");
  if (type === "entity.too.large") return new ApiProblem(413, "payloadTooLarge", "The request body is too large.");
  const httpStatus = Number(status ?? statusCode);
  if ((typeof type === "string" || expose === true) && Number.isInteger(httpStatus) && httpStatus >= 400 && httpStatus < 500) {
    return new ApiProblem(httpStatus, CODES_BY_STATUS[httpStatus] ?? "badRequest", "The request body could not be read.");
  }
  return null;
}

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
    const bodyProblem = bodyParserProblem(exception);
    if (bodyProblem) return bodyProblem;
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
