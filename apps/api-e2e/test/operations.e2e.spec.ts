import { Wallet, ZeroAddress } from "ethers";
import { deployTestRaffle } from "@raffle/chain/testing";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { captureOutput } from "./support/output-capture";
import { expectProblem } from "./support/problem";
import { startSiblingApp, type SiblingApp } from "./support/sibling-app";

type Schema = { $ref?: string; description?: string; properties?: Record<string, Schema> };
type Operation = {
  parameters?: Array<{ name: string; description?: string }>;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: { allOf?: Schema[] } }> }>;
};

/** OpenAPI, health and readiness, request ids and logs, and the rate limits of the sign endpoint. */
describe("operations", () => {
  let harness: ApiHarness;
  let key: string;
  let contractId: number;
  const siblings: SiblingApp[] = [];
  let freshDatabase: TestDatabase | undefined;

  beforeAll(async () => {
    harness = await startApiHarness("operations");
    const raffle = await deployTestRaffle(harness.world, "NATIVE");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
  });

  afterAll(async () => {
    for (const sibling of siblings) await sibling.close();
    await freshDatabase?.drop();
    await harness?.close();
  });

  const auth = (apiKey = key) => ({ Authorization: `Bearer ${apiKey}` });
  const randomAccount = () => Wallet.createRandom().address;

  async function sibling(overrides: Parameters<typeof startSiblingApp>[1]): Promise<SiblingApp> {
    const started = await startSiblingApp(harness, overrides);
    siblings.push(started);
    return started;
  }

  describe("OpenAPI at /docs-json", () => {
    let document: {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema> };
      security: unknown[];
      servers: { url: string }[];
    };

    beforeAll(async () => {
      document = (await harness.http.get("/docs-json").expect(200)).body;
    });

    it("names the origin it is served from as its server (a relative URL), so /docs calls this API on whatever host and port", () => {
      const servedFrom = "http://api.example.test:8123/docs-json";
      expect(document.servers.map((server) => new URL(server.url, servedFrom).origin)).toEqual(["http://api.example.test:8123"]);
    });

    it("describes every property of every schema (a bare $ref is described by its target)", () => {
      const undocumented = Object.entries(document.components.schemas).flatMap(([schema, { properties = {} }]) =>
        Object.entries(properties)
          .filter(([, property]) => !property.$ref && !property.description?.trim())
          .map(([name]) => `${schema}.${name}`),
      );
      expect(undocumented).toEqual([]);
      expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(["RoundDto", "TicketSignatureDto", "ProblemDto"]));
    });

    it("types every number as an integer (amounts are decimal strings)", () => {
      const text = JSON.stringify(document);
      expect(text).not.toContain('"type":"number"');
      expect(document.components.schemas.RoundDto.properties!.ticketCount).toMatchObject({ type: "integer" });
    });

    it("describes every parameter and documents the four endpoints of spec 4", () => {
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ path, method, op })),
      );
      expect(operations.map(({ method, path }) => `${method} ${path}`)).toEqual(
        expect.arrayContaining(["get /claims", "get /raffle/contracts", "get /rounds/current", "post /raffle/ticket/sign"]),
      );
      const undocumented = operations.flatMap(({ path, op }) => (op.parameters ?? []).filter((p) => !p.description).map((p) => `${path}?${p.name}`));
      expect(undocumented).toEqual([]);
    });

    it("needs the merchant API key (the document's security) on every endpoint but /health, /ready, /status, /metrics and the player's (or takes the merchant's console session), with problem+json for 400 and 401", () => {
      expect(document.security).toEqual([{ merchantApiKey: [] }]);
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          if (["/health", "/ready", "/status", "/metrics"].includes(path)) {
            expect({ path, security: op.security }).toEqual({ path, security: [] });
            continue;
          }
          // Public sale: sign-in and the raffle list need nothing, a player's own routes a player session, never a merchant key.
          if (path.startsWith("/player/")) {
            expect([[], [{ playerSession: [] }]]).toContainEqual(op.security);
            continue;
          }
          // The merchant console: its sign-in needs nothing; other routes take the key, the key or the console session,
          // or (managing keys) the session only.
          if (path.startsWith("/merchant/siwe/")) {
            expect({ path, security: op.security }).toEqual({ path, security: [] });
            continue;
          }
          const allowed = [undefined, [{ merchantApiKey: [] }, { merchantSession: [] }], [{ merchantSession: [] }]].map((each) =>
            JSON.stringify(each),
          );
          expect({ path, method, allowed: allowed.includes(JSON.stringify(op.security)) }).toEqual({ path, method, allowed: true });
          for (const status of ["400", "401"]) {
            expect(op.responses[status]?.content?.["application/problem+json"]?.schema?.allOf?.[0]).toEqual({
              $ref: "#/components/schemas/ProblemDto",
            });
          }
        }
      }
    });

    it("serves the interactive documentation at /docs, under a CSP that allows exactly what the page loads", async () => {
      const response = await harness.http.get("/docs").expect(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
      const csp = new Map<string, string[]>(
        String(response.headers["content-security-policy"])
          .split(";")
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources]),
      );
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'none'"]);
      // Scripts only from files of the API's own origin: no inline script, no other host.
      expect(csp.get("script-src")).toEqual(["'self'"]);
      const html = response.text;
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]);
      // Stylesheets and icons ('self' under style-src and img-src).
      const links = [...html.matchAll(/<link[^>]*href="([^"]+)"/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      expect(links.length).toBeGreaterThan(0);
      for (const source of [...scripts, ...links]) {
        expect(source).not.toMatch(/^(https?:)?\/\//);
        const asset = await harness.http.get(new URL(source, "http://api.test/docs").pathname).expect(200);
        expect(asset.headers["content-type"]).toMatch(scripts.includes(source) ? /javascript/ : /text\/css|image\/png/);
      }
      // The page's inline <style> blocks need 'unsafe-inline' for styles (never for scripts); its icons are data: URIs.
      expect(html).toMatch(/<style>/);
      expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
      // The JSON answers load nothing.
      expect((await harness.http.get("/health").expect(200)).headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    });
  });

  describe("health and readiness", () => {
    it("answers /health with ok", async () => {
      expect((await harness.http.get("/health").expect(200)).body).toEqual({ status: "ok" });
    });

    it("answers /ready with the indexer's lag, within READY_MAX_LAG_BLOCKS", async () => {
      const { body } = await harness.http.get("/ready").expect(200);
      expect(body).toMatchObject({ status: "ready", database: "up", redis: "notConfigured" });
      expect(body.chains).toEqual([
        expect.objectContaining({
          chainId: 31337,
          status: "ready",
          head: expect.any(Number),
          cursor: expect.any(Number),
          signer: { address: expect.any(String), status: "authorized" },
          leader: true,
          lastError: null,
          problems: [],
        }),
      ]);
      expect(body.chains[0].lag).toBeGreaterThanOrEqual(0);
      expect(body.chains[0].lag).toBeLessThanOrEqual(harness.config.readyMaxLagBlocks);
      // Asked about one chain: the same chain alone; a chain this API does not serve is a 422.
      expect((await harness.http.get("/ready").query({ chainId: 31337 }).expect(200)).body.chains).toHaveLength(1);
      expectProblem(await harness.http.get("/ready").query({ chainId: 137 }), 422, "chainNotServed");
    });

    it("answers 503 notReady with Retry-After for a replica whose database was never indexed", async () => {
      freshDatabase = await createTestDatabase("operations_unindexed");
      const replica = await sibling({ databaseUrl: freshDatabase.url });
      const response = await replica.http.get("/ready");
      expectProblem(response, 503, "notReady");
      expect(response.headers["retry-after"]).toBe("1");
      expect((await replica.http.get("/health")).status).toBe(200);
    });

    it("answers 503 notReady naming REDIS_URL while Redis does not answer, as every signature needs it", async () => {
      const replica = await sibling({
        rateLimit: { ...harness.config.rateLimit, redisUrl: "redis://:secret@127.0.0.1:1", redisKeyPrefix: "raffle-test-ready:" },
      });
      const body = expectProblem(await replica.http.get("/ready"), 503, "notReady");
      expect(body.errors).toEqual([{ field: "redis", message: "Redis at REDIS_URL does not answer: check it and the API log" }]);
      // /ready is public: no password, host, port or driver error text.
      expect(JSON.stringify(body)).not.toMatch(/secret|127\.0\.0\.1|ECONNREFUSED/);
      expectProblem(
        await replica.http.post("/raffle/ticket/sign").set(auth()).send({ account: randomAccount(), contractId }),
        503,
        "serviceUnavailable",
      );
    });
  });

  describe("request ids and structured logs", () => {
    it("echoes a sane x-request-id and makes one up otherwise, on successes and errors alike", async () => {
      const given = await harness.http.get("/health").set("x-request-id", "trace-42.a_b");
      expect(given.headers["x-request-id"]).toBe("trace-42.a_b");
      const unsafe = await harness.http.get("/raffle/contracts").set("x-request-id", "bad id\twith spaces");
      expect(unsafe.status).toBe(401);
      expect(unsafe.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      const none = await harness.http.get("/nope");
      expect(none.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(none.headers["x-request-id"]).not.toBe(unsafe.headers["x-request-id"]);
    });

    it("logs one JSON line per request with its id, and never the API key or the signature", async () => {
      const { result: signature, lines } = await captureOutput(async () => {
        const response = await harness.http
          .post("/raffle/ticket/sign")
          .set(auth())
          .set("x-request-id", "log-check-1")
          .send({ account: randomAccount(), referrer: ZeroAddress, contractId })
          .expect(200);
        // The request's line is written once the answer is sent, which may be after the client has read it.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return response.body.signature as string;
      });
      const entries = lines.map((line) => JSON.parse(line));
      const entry = entries.find((candidate) => candidate.requestId === "log-check-1");
      expect(entry).toMatchObject({ level: "info", message: "request", method: "POST", path: "/raffle/ticket/sign", status: 200 });
      expect(typeof entry.time).toBe("string");
      expect(typeof entry.durationMs).toBe("number");
      // `rk_<prefix>_<secret>`: the secret is everything after the prefix (it may hold "_" itself).
      const secret = key.split("_").slice(2).join("_");
      for (const line of lines) {
        expect(line).not.toContain(secret);
        expect(line).not.toContain(signature.slice(2));
      }
    });
  });

  describe("rate limits of POST /raffle/ticket/sign", () => {
    it("limits signatures per account, across keys, with 429 tooManyRequests and Retry-After", async () => {
      const limited = await sibling({ rateLimit: { windowSeconds: 60, signPerKey: 1_000, signPerAccount: 2, redisKeyPrefix: "raffle:31337:" } });
      const account = randomAccount();
      const sign = (apiKey: string, forAccount: string) =>
        limited.http.post("/raffle/ticket/sign").set(auth(apiKey)).send({ account: forAccount, referrer: ZeroAddress, contractId });

      for (let i = 0; i < 2; i += 1) expect((await sign(key, account)).status).toBe(200);
      const refused = await sign(key, account);
      expectProblem(refused, 429, "tooManyRequests");
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);

      expectProblem(await sign(await harness.apiKey(await harness.world.merchant.getAddress()), account), 429, "tooManyRequests");
      expect((await sign(key, randomAccount())).status).toBe(200);
    });

    it("counts only signatures issued, per merchant: another merchant's key or refused requests cannot lock a player out", async () => {
      const limited = await sibling({ rateLimit: { windowSeconds: 60, signPerKey: 1_000, signPerAccount: 2, redisKeyPrefix: "raffle:31337:" } });
      const player = randomAccount();
      const sign = (apiKey: string, forContract: number) =>
        limited.http.post("/raffle/ticket/sign").set(auth(apiKey)).send({ account: player, referrer: ZeroAddress, contractId: forContract });

      // A key of a merchant without raffles names the player again and again: 404, never 429, and nothing counted.
      const strangerKey = await harness.apiKey(randomAccount());
      for (let i = 0; i < 5; i += 1) expectProblem(await sign(strangerKey, contractId), 404, "contractNotFound");
      // The merchant's own refused requests (an unknown raffle) are not counted either.
      for (let i = 0; i < 5; i += 1) expectProblem(await sign(key, 2_147_483_647), 404, "contractNotFound");

      for (let i = 0; i < 2; i += 1) expect((await sign(key, contractId)).status).toBe(200);
      expectProblem(await sign(key, contractId), 429, "tooManyRequests");
    });

    it("limits signatures per API key, whatever the account", async () => {
      const limited = await sibling({ rateLimit: { windowSeconds: 60, signPerKey: 2, signPerAccount: 1_000, redisKeyPrefix: "raffle:31337:" } });
      const ownKey = await harness.apiKey(await harness.world.merchant.getAddress());
      const sign = (apiKey: string) =>
        limited.http.post("/raffle/ticket/sign").set(auth(apiKey)).send({ account: randomAccount(), referrer: ZeroAddress, contractId });

      for (let i = 0; i < 2; i += 1) expect((await sign(ownKey)).status).toBe(200);
      const refused = await sign(ownKey);
      expectProblem(refused, 429, "tooManyRequests");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect((await sign(key)).status).toBe(200);
    });

    it("does not limit the other endpoints", async () => {
      const limited = await sibling({ rateLimit: { windowSeconds: 60, signPerKey: 1, signPerAccount: 1, redisKeyPrefix: "raffle:31337:" } });
      for (let i = 0; i < 5; i += 1) await limited.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200);
    });
  });
});
