import fc from "fast-check";
import type { Response } from "supertest";
import { deployTestRaffle } from "@raffle/chain/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";

/**
 * Property-based fuzzing of every endpoint: whatever the query, body or Authorization header, the answer is a 2xx or
 * a 4xx problem+json with a code — never a 5xx, never a hang — and rejected requests write nothing.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

/** Values that break naive parsers: odd strings, unicode, huge and negative numbers, injection attempts. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    "",
    "0x",
    `0x${"f".repeat(40)}`,
    `0x${"F".repeat(40)}`,
    "NaN",
    "Infinity",
    "-0",
    "1e309",
    "__proto__",
    "constructor",
    "%00",
    "' OR 1=1 --",
    "0x0000000000000000000000000000000000000000",
    "99999999999999999999",
    "2147483648",
  ),
);

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(nasty, nasty, { maxKeys: 3 }),
);

function queryOf(names: string[]): fc.Arbitrary<Array<[string, string]>> {
  const name = fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 }));
  // Repeated names make arrays where scalars belong.
  return fc.array(fc.tuple(name, nasty), { maxLength: 6 });
}

function bodyOf(names: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), jsonish, { maxKeys: 5 }), jsonish);
}

describe("fuzzed input never gets a 5xx and never writes", () => {
  let harness: ApiHarness;
  let key: string;
  let contractId: number;
  const tally = { sign2xx: 0, claims2xx: 0, requests: 0 };

  beforeAll(async () => {
    harness = await startApiHarness("fuzz");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    const raffle = await deployTestRaffle(harness.world, "NATIVE");
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
  });

  afterAll(async () => {
    await harness?.close();
  });

  function expectWellFormed(response: Response): void {
    tally.requests += 1;
    expect(response.status).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(typeof response.body.code).toBe("string");
      expect(response.body.statusCode).toBe(response.status);
    }
  }

  /** Any JSON value as a body, sent as its JSON text. */
  function postJson(path: string, body: unknown) {
    return harness.http
      .post(path)
      .set("Authorization", `Bearer ${key}`)
      .set("Content-Type", "application/json")
      .send(JSON.stringify(body))
      .timeout(5_000);
  }

  async function counts(): Promise<{ vouchers: number; claims: number }> {
    const dataSource = (await import("@raffle/db")).openDatabase;
    const db = await dataSource({ url: harness.database.url, poolSize: 1 });
    try {
      const [{ vouchers }] = await db.query(`SELECT count(*)::int AS vouchers FROM ticket_voucher`);
      const [{ claims }] = await db.query(`SELECT count(*)::int AS claims FROM claim WHERE claim_type = 'VOUCHER'`);
      return { vouchers, claims };
    } finally {
      await db.destroy();
    }
  }

  it("GET endpoints with fuzzed queries", async () => {
    const endpoints: Array<[string, string[]]> = [
      ["/raffle/contracts", ["skip", "take", "chainId"]],
      ["/rounds/current", ["contractId"]],
      ["/claims", ["account", "skip", "take", "claimStatus"]],
      ["/claims/1", []],
    ];
    for (const [path, names] of endpoints) {
      await fc.assert(
        fc.asyncProperty(queryOf(names.length > 0 ? names : ["x"]), async (pairs) => {
          const query = new URLSearchParams(pairs).toString();
          expectWellFormed(await harness.http.get(`${path}?${query}`).set("Authorization", `Bearer ${key}`).timeout(5_000));
        }),
        { numRuns: RUNS },
      );
    }
  });

  it("the gasless mailbox and relayer routes with fuzzed bodies: a 4xx problem, never a 5xx, and no request written", async () => {
    const voucher = (await postJson("/raffle/ticket/sign", { account: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", contractId }).expect(200)).body;
    // Each field either the real shape or anything at all, nested objects included.
    const maybe = <T>(value: T) => fc.oneof(fc.constant(value), jsonish);
    const fixed = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).map(([name, field]) => [name, fc.constant(field)]));
    const purchase = fc.record(
      {
        contractId: maybe(contractId),
        chainId: maybe(harness.world.deployment.chainId),
        voucher: fc.oneof(
          jsonish,
          fc.record({
            nonce: maybe(voucher.nonce),
            signature: maybe(voucher.signature),
            expiresAt: maybe(voucher.expiresAt),
            params: fc.oneof(
              jsonish,
              fc.record({ ...fixed(voucher.params), externalId: maybe(voucher.params.externalId), receiver: maybe(voucher.params.receiver) }),
            ),
            item: maybe(voucher.item),
            price: fc.oneof(
              jsonish,
              fc.record({ ...fixed(voucher.price), amount: maybe(voucher.price.amount), tokenType: maybe(voucher.price.tokenType) }),
            ),
            value: maybe(voucher.value),
          }),
        ),
        authorization: fc.oneof(
          jsonish,
          fc.record({ validAfter: maybe("0"), validBefore: maybe(String(voucher.expiresAt)), signature: maybe(voucher.signature) }),
        ),
        intent: fc.oneof(jsonish, fc.record({ deadline: maybe(String(voucher.expiresAt)), signature: maybe(voucher.signature) })),
      },
      { requiredKeys: ["voucher"] },
    );
    await fc.assert(
      fc.asyncProperty(purchase, async (body) => {
        const response = await postJson("/gasless/purchases", body);
        expectWellFormed(response);
        expect(response.status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: RUNS },
    );
    const id = "0b3f7a56-8c1d-4e2f-9a0b-1c2d3e4f5a6b";
    for (const path of ["/relayer/claim", `/relayer/jobs/${id}/sent`, `/relayer/jobs/${id}/outcome`, "/relayer/jobs/%E0%A4%A/sent"]) {
      await fc.assert(
        fc.asyncProperty(bodyOf(["chainId", "relayerId", "limit", "txHash", "nonce", "outcome", "failureCode"]), async (body) => {
          expectWellFormed(await postJson(path, body));
        }),
        { numRuns: RUNS / 4 },
      );
    }
    const db = await (await import("@raffle/db")).openDatabase({ url: harness.database.url, poolSize: 1 });
    try {
      expect(await db.query(`SELECT count(*)::int AS requests FROM gasless_request`)).toEqual([{ requests: 0 }]);
    } finally {
      await db.destroy();
    }
  });

  it("POST endpoints with fuzzed bodies, bad JSON and huge bodies; nothing rejected is written", async () => {
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(bodyOf(["account", "referrer", "contractId"]), async (body) => {
        const response = await postJson("/raffle/ticket/sign", body);
        expectWellFormed(response);
        if (response.status < 300) tally.sign2xx += 1;
      }),
      { numRuns: RUNS },
    );
    await fc.assert(
      fc.asyncProperty(bodyOf(["account", "items", "ttlSeconds"]), async (body) => {
        const response = await postJson("/claims", body);
        expectWellFormed(response);
        if (response.status < 300) tally.claims2xx += 1;
      }),
      { numRuns: RUNS },
    );
    // Raw text that is not JSON, sent as JSON; and bodies far over the limit.
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 200 }), async (text) => {
        const response = await harness.http
          .post("/raffle/ticket/sign")
          .set("Authorization", `Bearer ${key}`)
          .set("Content-Type", "application/json")
          .send(text)
          .timeout(5_000);
        expectWellFormed(response);
        if (response.status < 300) tally.sign2xx += 1;
      }),
      { numRuns: RUNS },
    );
    const huge = await harness.http
      .post("/raffle/ticket/sign")
      .set("Authorization", `Bearer ${key}`)
      .send({ account: "x".repeat(200_000), contractId })
      .timeout(5_000);
    expectWellFormed(huge);
    expect(huge.status).toBe(413);

    const after = await counts();
    expect(after.vouchers - before.vouchers).toBe(tally.sign2xx);
    expect(after.claims - before.claims).toBe(tally.claims2xx);
  });

  it("fuzzed Authorization headers are refused with 401 on every endpoint", async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 60 }).map((token) => `Bearer ${token}`),
      fc.constantFrom("Bearer", "Bearer ", "bearer rk_", `Basic ${Buffer.from("a:b").toString("base64")}`, `Bearer ${key}x`, `Bearer  ${key}`, key),
    );
    const requests = [
      () => harness.http.get("/raffle/contracts"),
      () => harness.http.get(`/rounds/current?contractId=${contractId}`),
      () => harness.http.get(`/claims?account=0x${"1".repeat(40)}`),
      () => harness.http.post("/raffle/ticket/sign").send({ account: `0x${"1".repeat(40)}`, contractId }),
    ];
    await fc.assert(
      fc.asyncProperty(header, fc.integer({ min: 0, max: requests.length - 1 }), async (value, index) => {
        let request = requests[index]();
        // Header values cannot carry newlines; drop those cases rather than let the client throw.
        if (/[\r\n\0]/.test(value) || /[^\x20-\x7e]/.test(value)) request = request.set("Authorization", "Bearer");
        else request = request.set("Authorization", value);
        const response = await request.timeout(5_000);
        expectWellFormed(response);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe("unauthorized");
      }),
      { numRuns: RUNS },
    );
    expect(tally.requests).toBeGreaterThan(RUNS * 5);
  });
});
