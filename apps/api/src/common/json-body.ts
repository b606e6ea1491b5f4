import type { FastifyInstance } from "fastify";

import { problems } from "./problem";

/** Request bodies are small JSON documents from game backends; anything bigger is refused before it is parsed. */
export const BODY_LIMIT_BYTES = 16 * 1024;

const UTF8_CHARSET = /^\s*(utf-?8)?\s*$/i;

/** Deepest nesting of objects and arrays a body may have: every DTO needs three levels; recursion on more costs. */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `max` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Makes `application/json` (UTF-8, an object or an array at the top) the only body the API reads. Other media types
 * get 415 from Fastify; compressed bodies get 415 here, so no decompression bomb is ever inflated; malformed JSON,
 * `__proto__`/`constructor` keys and nesting deeper than MAX_BODY_DEPTH get 400 invalidJson.
 */
export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  const parseSecurely = fastify.getDefaultJsonParser("error", "error");
  fastify.removeAllContentTypeParsers();
  fastify.addHook("preParsing", (request, _reply, payload, done) => {
    const encoding = request.headers["content-encoding"];
    const hasBody = request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined;
    if (hasBody && encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
      return done(problems.unsupportedMediaType(`Content-Encoding ${encoding} is not accepted; send the body uncompressed.`));
    }
    done(null, payload);
  });
  fastify.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    const charset = /;\s*charset=("?)([^";]*)\1/i.exec(request.headers["content-type"] ?? "")?.[2] ?? "";
    if (!UTF8_CHARSET.test(charset)) return done(problems.unsupportedMediaType(`Charset ${charset} is not accepted; send UTF-8.`), undefined);
    parseSecurely(request, body as string, (error, value) => {
      if (error || value === null || typeof value !== "object") return done(problems.invalidJson(), undefined);
      if (nestsDeeperThan(value, MAX_BODY_DEPTH))
        return done(problems.invalidJson(`The request body nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels.`), undefined);
      done(null, value);
    });
  });
}
