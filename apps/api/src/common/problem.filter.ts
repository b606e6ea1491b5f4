import { ArgumentsHost, Catch, HttpException, type ExceptionFilter } from "@nestjs/common";
import type { FastifyReply, FastifyRequest } from "fastify";

import { infrastructureProblem } from "./infrastructure-problems";
import { ApiProblem, problemBody, problems } from "./problem";
import { jsonLog } from "../logging/logger";
import type { ApiMetrics } from "../metrics/api-metrics";

/** Errors the database driver raises when PostgreSQL is unreachable: the request failed fast, it is not a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : "";
  return /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect|the database system is (starting|shutting) up|terminating connection/i.test(
    text,
  );
}

/** A query PostgreSQL refused (TypeORM's QueryFailedError). */
function isQueryFailure(error: unknown): boolean {
  return error instanceof Error && error.name === "QueryFailedError";
}

/** Writes `problem` as the RFC 9457 answer to a request for `path`. */
export function sendProblem(reply: FastifyReply, problem: ApiProblem, path: string): void {
  reply
    .headers(problem.headers)
    .status(problem.statusCode)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(problem, path)));
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before Nest sees the request (a malformed percent-encoding in
 * the path) is answered as a problem too.
 */
export function frameworkProblem(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  sendProblem(reply, problems.badRequest(`The request URL could not be read: ${error.message}`), request.url.split("?")[0]);
}

/**
 * What Fastify and Nest refuse themselves (an unknown route, a body too large or of another media type, an empty JSON
 * body), as the catalogue's problem. Any other client error is a 400 badRequest; any other server error, internalError.
 */
function frameworkRefusal(status: number, message: string, method: string, path: string): ApiProblem {
  if (status === 404) return problems.notFound(method, path);
  if (status === 413) return problems.payloadTooLarge(message);
  if (status === 415) return problems.unsupportedMediaType(message);
  return status < 500 ? problems.badRequest(message) : problems.internalError();
}

/** Renders every error as RFC 9457 problem+json with `code` and `statusCode`; unknown errors never leak details. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly metrics?: ApiMetrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.answer(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  /** Answers `request` with the problem `exception` stands for (also the sign route's, served outside Nest's pipeline). */
  answer(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
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
    // The infrastructure's own errors (a chain not served, a paused Exchange, Redis down) become their problems here.
    const infrastructure = infrastructureProblem(exception);
    if (infrastructure) return infrastructure;
    // Fastify's own refusals (body too large, unsupported media type, ...) reach here as HttpExceptions.
    if (exception instanceof HttpException) return frameworkRefusal(exception.getStatus(), exception.message, method, path);
    if (isDatabaseUnavailable(exception)) {
      this.metrics?.databaseError();
      return problems.serviceUnavailable("database");
    }
    if (isQueryFailure(exception)) this.metrics?.databaseError();
    return problems.internalError();
  }
}
