import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import { runWithLogContext } from "@raffle/config";

import { jsonLog } from "../logging/logger";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's `genReqId`: the caller's `x-request-id` when it is sane (so ids join up across services), else a UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Echoes every request's id, puts it on every log line written while the request is handled (services log without
 * passing it), and logs one JSON line per request once the answer is sent.
 */
export function logRequests(fastify: FastifyInstance): void {
  fastify.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    runWithLogContext({ requestId: request.id }, done);
  });
  // Again once the body is read: its parsing may resume outside the context entered above.
  fastify.addHook("preValidation", (request, _reply, done) => runWithLogContext({ requestId: request.id }, done));
  fastify.addHook("onResponse", (request, reply, done) => {
    jsonLog(reply.statusCode >= 500 ? "error" : "info", "request", {
      requestId: request.id,
      method: request.method,
      path: request.url.split("?")[0],
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
      merchantId: (request as { caller?: { merchantId: number } }).caller?.merchantId,
    });
    done();
  });
}
