import type { INestApplication } from "@nestjs/common";
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from "@nestjs/swagger";

import { EXAMPLE_INSTANCE } from "../common/dto/problem.dto";
import { describeWebhookMessages } from "../app/webhooks/webhook-openapi";
import { numbersAsIntegers } from "./openapi-integers";

/** The scheme name of the merchant API key in the document (`components.securitySchemes`). */
export const API_KEY_SCHEME = "merchantApiKey";
/** The scheme name of a player's Sign-In with Ethereum session (public sale). */
export const PLAYER_SESSION_SCHEME = "playerSession";
/** The scheme name of a merchant's console session (Sign-In with Ethereum with the merchant's wallet). */
export const MERCHANT_SESSION_SCHEME = "merchantSession";

const DESCRIPTION =
  "Lists a merchant's raffle contracts and claims, reads the current round, signs ticket purchases and grants claim vouchers. " +
  "Every endpoint but /health, /ready, /status and /metrics needs `Authorization: Bearer <merchant API key>` and answers only about that merchant's " +
  "contracts and claims. Errors are RFC 9457 `application/problem+json` with a stable camelCase `code` and `statusCode`; each " +
  "operation lists every code it can answer. Bodies are UTF-8 `application/json` of at most 16 kB.";

/** The OpenAPI document of `app`, as served at /docs-json and committed as apps/api/openapi.json. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle("Raffle platform API")
    .setDescription(DESCRIPTION)
    .setVersion("1.0.0")
    .setLicense("UNLICENSED", "https://choosealicense.com/no-permission/")
    // Relative: the docs page and any client that reads the document call the origin that served it, whatever its
    // host and port (a deployment, a proxy, a stack on another port), never a hard-wired local address.
    .addServer(
      "/",
      "The origin that serves this document. On the local stack (`npm start`) that is http://127.0.0.1:3000; a deployment serves the same paths at its own base URL.",
    )
    .addBearerAuth(
      {
        type: "http",
        scheme: "bearer",
        bearerFormat: "rk_<prefix>_<secret>",
        description: "A merchant API key, `rk_<prefix>_<secret>`, created with `npm run api-key -- create --merchant <wallet>` and shown once.",
      },
      API_KEY_SCHEME,
    )
    .addBearerAuth(
      {
        type: "http",
        scheme: "bearer",
        bearerFormat: "ps_<token>",
        description: "A player's session token from `POST /player/siwe/verify` (Sign-In with Ethereum), for that one address; short-lived.",
      },
      PLAYER_SESSION_SCHEME,
    )
    .addBearerAuth(
      {
        type: "http",
        scheme: "bearer",
        bearerFormat: "ms_<token>",
        description:
          "A merchant's console session from `POST /merchant/siwe/verify` (Sign-In with Ethereum with the wallet on its merchant record): acts for that merchant like its API keys, on the routes that list it; short-lived.",
      },
      MERCHANT_SESSION_SCHEME,
    )
    .addSecurityRequirements(API_KEY_SCHEME)
    .addTag("raffle", "Raffle contracts and ticket signatures.")
    .addTag("rounds", "The current round of a raffle.")
    .addTag("claims", "Raffle prizes and merchant claim vouchers.")
    .addTag("health", "Liveness, readiness, the indexers' status and Prometheus metrics, without an API key.")
    .addTag("player", "Public sale: raffles a merchant opened to wallet users, Sign-In with Ethereum, vouchers and tickets of the signed-in address.")
    .addTag("merchant", "The merchant console: Sign-In with Ethereum with the merchant's wallet, API keys, and an overview of what needs attention.")
    .addTag("webhooks", "Signed messages pushed to the merchant's endpoints as tickets, draws and prizes happen (Standard Webhooks).")
    .addTag("gasless", "Purchases a player signs and the merchant's relayer submits and pays for (issue #52), as a game backend follows them.")
    .addTag("relayer", "The merchant worker's relayer: leases of signed purchases, claims and refunds, what it sent and what came of it.")
    .build();
  const document = SwaggerModule.createDocument(app, config);
  numbersAsIntegers(document);
  writeProblemInstances(document);
  describeWebhookMessages(document);
  return document;
}

/** Problem examples name the path they were answered for: the operation's own, with its example path parameters. */
function writeProblemInstances(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue;
      const parameters: Array<{ in: string; name: string; example?: unknown }> = operation.parameters ?? [];
      const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        String(parameters.find((p) => p.in === "path" && p.name === name)?.example ?? 1),
      );
      for (const response of Object.values(operation.responses as Record<string, { content?: Record<string, { examples?: object }> }>)) {
        for (const example of Object.values(response.content?.["application/problem+json"]?.examples ?? {}) as Array<{
          value: { instance?: string };
        }>) {
          if (example.value.instance === EXAMPLE_INSTANCE) example.value.instance = concrete;
        }
      }
    }
  }
}
