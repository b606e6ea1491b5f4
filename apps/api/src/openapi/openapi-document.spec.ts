import * as fs from "node:fs";
import type { OpenAPIObject } from "@nestjs/swagger";

import { PROBLEM_CATALOGUE, PROBLEM_CODES, type ProblemCode } from "../common/problem-catalogue";
import { OPENAPI_FILE, buildOpenApiDocument, openApiText } from "./document-file";
import { API_KEY_SCHEME, MERCHANT_SESSION_SCHEME, PLAYER_SESSION_SCHEME } from "./openapi-document";

interface ProblemContent {
  schema: { allOf: Array<{ properties?: { code?: { enum: string[] } } }> };
  examples: Record<string, { value: { code: string; status: number; statusCode: number; instance: string } }>;
}
interface Operation {
  operationId: string;
  security?: unknown[];
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
}

function operations(document: OpenAPIObject): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ method, path, operation })),
  );
}

function problemContent(response: Operation["responses"][string]): ProblemContent | undefined {
  return response.content?.["application/problem+json"] as ProblemContent | undefined;
}

describe("the OpenAPI document", () => {
  let document: OpenAPIObject;
  beforeAll(async () => {
    process.env.LOG_LEVEL ??= "silent";
    document = await buildOpenApiDocument();
  });

  it("is the committed apps/api/openapi.json (else run `npm run sdk:generate`)", () => {
    expect(fs.readFileSync(OPENAPI_FILE, "utf8")).toBe(openApiText(document));
  });

  it("lists each problem under its catalogue status, with one real example per code", () => {
    for (const { method, path, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = problemContent(response);
        if (!content) continue;
        const codes = content.schema.allOf.flatMap((part) => part.properties?.code?.enum ?? []);
        expect({ at: `${method} ${path} ${status}`, codes: codes.length > 0 }).toEqual({ at: `${method} ${path} ${status}`, codes: true });
        for (const code of codes) {
          expect({ code, status: PROBLEM_CATALOGUE[code as ProblemCode]?.status }).toEqual({ code, status: Number(status) });
          expect(content.examples[code].value).toMatchObject({ code, status: Number(status), statusCode: Number(status) });
          expect(content.examples[code].value.instance).toMatch(/^(\/[a-z-]+(\/\d+)?)+$/);
        }
        expect(Object.keys(content.examples).sort()).toEqual([...codes].sort());
      }
    }
  });

  it("documents every catalogue code on some route (notFound: paths outside the document, and /metrics when METRICS_ENABLED=false)", () => {
    const documented = new Set(
      operations(document).flatMap(({ operation }) =>
        Object.values(operation.responses).flatMap((response) => Object.keys(problemContent(response)?.examples ?? {})),
      ),
    );
    expect(PROBLEM_CODES.filter((code) => !documented.has(code))).toEqual([]);
  });

  it("has servers, readable operation ids and the API key as a bearer rk_ key, not a JWT; /health, /ready, /status and /metrics need none", () => {
    // The docs page at /docs calls the origin it is served from: one relative server, with the local stack as an example.
    expect(document.servers).toEqual([{ url: "/", description: expect.stringContaining("http://127.0.0.1:3000") }]);
    expect(document.components?.securitySchemes?.[API_KEY_SCHEME]).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "rk_<prefix>_<secret>",
    });
    expect(document.security).toEqual([{ [API_KEY_SCHEME]: [] }]);
    const byId = Object.fromEntries(operations(document).map(({ method, path, operation }) => [operation.operationId, { method, path, operation }]));
    expect(Object.keys(byId).sort()).toEqual(
      [
        "cancelClaim",
        "createClaim",
        "getClaim",
        "getCurrentRound",
        "getHealth",
        "getMetrics",
        "getReadiness",
        "getRound",
        "getStatus",
        "listClaims",
        "listRaffleContracts",
        "listRounds",
        "signTicket",
        "createWebhook",
        "listWebhooks",
        "getWebhook",
        "getWebhookDelivery",
        "deleteWebhook",
        "rotateWebhookSecret",
        "listWebhookDeliveries",
        "retryWebhookDelivery",
        "setPublicSale",
        "createSiweNonce",
        "verifySiwe",
        "getPlayerSession",
        "logoutPlayer",
        "listPublicRaffles",
        "getPublicRaffle",
        "listPublicRaffleRounds",
        "signPlayerVoucher",
        "listPlayerTickets",
        "createMerchantSiweNonce",
        "verifyMerchantSiwe",
        "getMerchantSession",
        "logoutMerchant",
        "listApiKeys",
        "createApiKey",
        "revokeApiKey",
        "rollApiKey",
        "getMerchantOverview",
        "getRaffleContract",
        "updateRaffleSettings",
        "updateWebhook",
        "previewSchedule",
        "listRaffleRounds",
        "getSales",
        "sendTestWebhook",
        "submitGaslessPurchase",
        "submitGaslessClaim",
        "submitGaslessRefund",
        "listPlayerGasless",
        "getPlayerGasless",
        "submitMerchantGaslessPurchase",
        "getMerchantGasless",
        "claimRelayJobs",
        "reportRelayJobSent",
        "reportRelayJobOutcome",
        "getGaslessSettings",
        "setGaslessSettings",
      ].sort(),
    );
    expect(byId.getHealth.operation.security).toEqual([]);
    expect(byId.getReadiness.operation.security).toEqual([]);
    expect(byId.getStatus.operation.security).toEqual([]);
    expect(byId.getMetrics.operation.security).toEqual([]);
    expect(Object.keys(byId.getMetrics.operation.responses["200"].content ?? {})).toEqual(["text/plain; version=0.0.4; charset=utf-8"]);
    // Public sale: the raffles and sign-in need nothing, a player's own routes need a player session, never a merchant key.
    for (const id of ["createSiweNonce", "verifySiwe", "listPublicRaffles", "getPublicRaffle", "listPublicRaffleRounds"])
      expect(byId[id].operation.security).toEqual([]);
    for (const id of [
      "getPlayerSession",
      "logoutPlayer",
      "signPlayerVoucher",
      "listPlayerTickets",
      "submitGaslessPurchase",
      "submitGaslessClaim",
      "submitGaslessRefund",
      "listPlayerGasless",
      "getPlayerGasless",
    ]) {
      expect(byId[id].operation.security).toEqual([{ [PLAYER_SESSION_SCHEME]: [] }]);
      expect(byId[id].operation.responses["401"]).toBeDefined();
    }
    // The console: its sign-in needs nothing; key management needs the merchant's session; the routes it shares with
    // API keys take either; the rest (signing, claims) stay API-key only.
    for (const id of ["createMerchantSiweNonce", "verifyMerchantSiwe"]) expect(byId[id].operation.security).toEqual([]);
    const sessionOnly = ["getMerchantSession", "logoutMerchant", "listApiKeys", "createApiKey", "revokeApiKey", "rollApiKey"];
    for (const id of sessionOnly) expect(byId[id].operation.security).toEqual([{ [MERCHANT_SESSION_SCHEME]: [] }]);
    const keyOnly = [
      "signTicket",
      "listClaims",
      "getClaim",
      "createClaim",
      "cancelClaim",
      // A game backend's gasless purchases and the merchant worker's relayer: API keys, as the servers hold them.
      "submitMerchantGaslessPurchase",
      "getMerchantGasless",
      "claimRelayJobs",
      "reportRelayJobSent",
      "reportRelayJobOutcome",
    ];
    const merchantRoutes = Object.entries(byId).filter(
      ([id, { path }]) =>
        !["/health", "/ready", "/status", "/metrics"].includes(path) &&
        !path.startsWith("/player/") &&
        !path.startsWith("/merchant/siwe/") &&
        !sessionOnly.includes(id),
    );
    for (const [id, { operation }] of merchantRoutes) {
      expect({ id, security: operation.security }).toEqual({
        id,
        security: keyOnly.includes(id) ? undefined : [{ [API_KEY_SCHEME]: [] }, { [MERCHANT_SESSION_SCHEME]: [] }],
      });
      expect(operation.responses["401"]).toBeDefined();
    }
  });

  it("shows realistic examples: the sign response's nonce is a 0x-prefixed 32-byte hex", () => {
    const schemas = document.components!.schemas as Record<string, { properties: Record<string, { example?: unknown }> }>;
    expect(schemas.TicketSignatureDto.properties.nonce.example).toMatch(/^0x[0-9a-f]{64}$/);
    expect(schemas.TicketSignatureDto.properties.signature.example).toMatch(/^0x[0-9a-f]{130}$/);
    expect(schemas.PurchaseParamsDto.properties.nonce.example).toBe(schemas.TicketSignatureDto.properties.nonce.example);
  });
});
