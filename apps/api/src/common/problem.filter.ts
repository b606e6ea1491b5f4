import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from "@nestjs/common";
import type { FastifyReply, FastifyRequest } from "fastify";

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

/** Writes `problem` as the RFC 9457 answer to a request for `path`. */
export function sendProblem(reply: FastifyReply, problem: ApiProblem, path: string): void {
  reply
    .headers(problem.headers)
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
        instance: path,
        ...(problem.errors ? { errors: problem.errors } : {}),
      }),
    );
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before Nest sees the request (a malformed percent-encoding in
 * the path) is answered as a problem too.
 */
export function frameworkProblem(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const detail = `The request URL could not be read: ${error.message}`;
  sendProblem(reply, new ApiProblem(400, "badRequest", detail), request.url.split("?")[0]);
}

/** Renders every error as RFC 9457 problem+json with `code` and `statusCode`; unknown errors never leak details. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const path = request.url.split("?")[0];
    const problem = this.toProblem(exception, request.method, path);
    if (problem.statusCode >= 500) {
      jsonLog("error", "request failed", {
        requestId: request.id,
        path,
        error: exception instanceof Error ? exception.message : String(exception),
      });
    }
    sendProblem(reply, problem, path);
  }

  private toProblem(exception: unknown, method: string, path: string): ApiProblem {
    if (exception instanceof ApiProblem) return exception;
    // Fastify's own refusals (body too large, unsupported media type, ...) reach here as HttpExceptions.
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const detail = status === 404 ? `Cannot ${method} ${path}.` : exception.message;
      return new ApiProblem(status, CODES_BY_STATUS[status] ?? (status < 500 ? "badRequest" : "internalError"), detail);
    }
    if (isDatabaseUnavailable(exception)) {
      return new ApiProblem(503, "serviceUnavailable", "The database is unavailable; retry shortly.", undefined, { "Retry-After": "1" });
    }
    return new ApiProblem(500, "internalError", "An unexpected error occurred.");
  }
}
