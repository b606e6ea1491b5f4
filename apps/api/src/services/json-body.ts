import { Header } from "@nestjs/common";

/** The type Fastify gives a JSON answer it serialises itself; a route answering `jsonBody` sets it (JsonAnswer). */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/**
 * Serialised answers of cached reads, by the cached object they were made from: a cache hit sends the bytes made at
 * its first request instead of building and serialising the same DTO again (`JSON.stringify`, as Fastify does for a
 * route without a response schema, so the bytes are the same). Weakly held: a refreshed or dropped cache entry takes
 * its answer with it. The cached objects are never changed once served, which is what makes this sound.
 */
const answers = new WeakMap<object, Buffer>();

/** The JSON answer for `source` (a cached value), built from it by `dto` once. */
export function jsonBody(source: object, dto: () => unknown): Buffer {
  let body = answers.get(source);
  if (!body) {
    body = Buffer.from(JSON.stringify(dto()));
    answers.set(source, body);
  }
  return body;
}

/** For a route that answers `jsonBody`: the content type Fastify would have set (a problem still sets its own). */
export const JsonAnswer = (): MethodDecorator => Header("Content-Type", JSON_CONTENT_TYPE);
