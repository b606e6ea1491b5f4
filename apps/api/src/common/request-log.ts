import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

import { jsonLog, logsAt } from "../logging/logger";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's `genReqId`: the caller's `x-request-id` when it is sane (so ids join up across services), else a UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Paths that load balancers, orchestrators and Prometheus call every few seconds: their lines are debug, or they would
 * bury the log. /ready's failures are logged once per distinct error by the readiness check itself.
 */
const PROBE_PATHS = new Set(["/health", "/ready", "/status", "/metrics"]);

/** A request line's level: error for a 5xx (but a probe's 503, which answers "not ready"), debug for probes, else info. */
export function requestLogLevel(path: string, status: number): "error" | "info" | "debug" {
  const probe = PROBE_PATHS.has(path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path);
  if (status >= 500 && !(probe && status === 503)) return "error";
  return probe ? "debug" : "info";
}

/**
 * Echoes every request's id and logs one JSON line per request once the answer is sent. Services that log while
 * serving a request put its id on their lines from `Caller.requestId`; it is passed explicitly, not through an
 * AsyncLocalStorage context, because on Node 20 one such context makes every promise of the process pay for promise
 * hooks (measured: about 3.5 times the cost of an await; the sign endpoint lost a quarter of its throughput).
 */
export function logRequests(fastify: FastifyInstance): void {
  fastify.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  fastify.addHook("onResponse", (request, reply, done) => {
    const query = request.url.indexOf("?");
    const path = query === -1 ? request.url : request.url.slice(0, query);
    const level = requestLogLevel(path, reply.statusCode);
    if (!logsAt(level)) return done();
    jsonLog(level, "request", {
      requestId: request.id,
      method: request.method,
      path,
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
      merchantId: (request as { caller?: { merchantId: number } }).caller?.merchantId,
    });
    done();
  });
}
