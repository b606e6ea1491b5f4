import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

import { jsonLog } from "../services/json-logger";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (kept from `x-request-id` when sane), echoes it, and logs one JSON line per request. */
export function requestLog(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.headers["x-request-id"];
  const requestId = typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  request.headers["x-request-id"] = requestId;
  response.setHeader("x-request-id", requestId);
  const started = process.hrtime.bigint();
  response.on("finish", () => {
    jsonLog(response.statusCode >= 500 ? "error" : "info", "request", {
      requestId,
      method: request.method,
      path: request.path,
      status: response.statusCode,
      durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      merchantId: (request as Request & { caller?: { merchantId: number } }).caller?.merchantId,
    });
  });
  next();
}
