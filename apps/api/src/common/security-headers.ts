import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * The OpenAPI page (`/docs`, Swagger UI as @nestjs/swagger serves it): its scripts and stylesheet are files of its own
 * (`/docs/swagger-ui-bundle.js`, `swagger-ui-standalone-preset.js`, `swagger-ui-init.js`, `swagger-ui.css`), its
 * icons `data:` images; its HTML carries two inline `<style>` blocks (hence 'unsafe-inline' for styles only, never
 * for scripts), and "Try it out" calls this API ('self').
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Every other answer is JSON: nothing in it may load or run anything, nor be framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const EVERY_ANSWER = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/**
 * An answer that may depend on who asks, or that can carry a secret: any request with credentials (an API key, a
 * session) and any request that is not a read (a sign-in answers a session token, `POST /merchant/api-keys` a key,
 * `POST /webhooks` a signing secret). Only anonymous reads (the public raffles, /health, /docs) may be cached.
 */
function personal(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || (request.method !== "GET" && request.method !== "HEAD");
}

/**
 * One hook for every answer, the Nest routes' and the routes served directly on Fastify
 * (DIRECT_ROUTES, direct-routes.ts) alike: a few constant headers, no other work per request.
 */
export function addSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook("onSend", (request, reply, payload, done) => {
    reply.headers(EVERY_ANSWER);
    reply.header("content-security-policy", request.url.startsWith("/docs") ? DOCS_CONTENT_SECURITY_POLICY : API_CONTENT_SECURITY_POLICY);
    if (personal(request)) reply.header("cache-control", "no-store");
    done(null, payload);
  });
}
