import { gzipSync } from "node:zlib";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { expectProblem, fieldsOf } from "./support/problem";

/** Hardhat account 5, EIP-55 checksummed, and the same address with one letter's case flipped (bad checksum). */
const ADDRESS = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const BAD_CHECKSUM = ADDRESS.replace("D1a", "d1a");

interface QueryCase {
  query: string;
  fields: string[];
}

/** Pagination rules (skip >= 0, take 1..100, decimal integers only), checked on every list endpoint. */
function paginationCases(base: string): QueryCase[] {
  const prefix = base ? `${base}&` : "";
  return [
    { query: `${prefix}skip=-1`, fields: ["skip"] },
    { query: `${prefix}skip=abc`, fields: ["skip"] },
    { query: `${prefix}skip=1e3`, fields: ["skip"] },
    { query: `${prefix}skip=0x10`, fields: ["skip"] },
    { query: `${prefix}skip=%207`, fields: ["skip"] },
    { query: `${prefix}take=0`, fields: ["take"] },
    { query: `${prefix}take=101`, fields: ["take"] },
    { query: `${prefix}take=2.5`, fields: ["take"] },
    { query: `${prefix}take=1&take=2`, fields: ["take"] },
    { query: `${prefix}limit=5`, fields: ["limit"] },
  ];
}

const QUERY_CASES: Record<string, QueryCase[]> = {
  "/raffle/contracts": [
    ...paginationCases(""),
    { query: "chainId=abc", fields: ["chainId"] },
    { query: "chainId=0", fields: ["chainId"] },
    // Beyond PostgreSQL's integer: once a 500 from the database.
    { query: "chainId=2147483648", fields: ["chainId"] },
    { query: "chainId=99999999999999999999", fields: ["chainId"] },
    { query: "chainId=1&chainId=2", fields: ["chainId"] },
    { query: "skip=-1&take=0&chainId=x&foo=1", fields: ["chainId", "foo", "skip", "take"] },
  ],
  "/rounds/current": [
    { query: "", fields: ["contractId"] },
    { query: "contractId=abc", fields: ["contractId"] },
    { query: "contractId=0", fields: ["contractId"] },
    { query: "contractId=-3", fields: ["contractId"] },
    { query: "contractId=1.5", fields: ["contractId"] },
    { query: "contractId=2147483648", fields: ["contractId"] },
    { query: "contractId=1&contractId=2", fields: ["contractId"] },
    { query: "contractId=1&skip=0", fields: ["skip"] },
  ],
  "/claims": [
    ...paginationCases(`account=${ADDRESS}`),
    { query: "", fields: ["account"] },
    { query: "account=0x1234", fields: ["account"] },
    { query: "account=hello", fields: ["account"] },
    { query: "account=%E0%A4%A", fields: ["account"] },
    { query: `account=${BAD_CHECKSUM}`, fields: ["account"] },
    { query: `account=${ADDRESS.slice(2)}`, fields: ["account"] },
    { query: `account=${ADDRESS}&account=${ADDRESS}`, fields: ["account"] },
    { query: `account=${ADDRESS}&claimStatus=BOGUS`, fields: ["claimStatus"] },
    { query: `account=${ADDRESS}&chainId=1`, fields: ["chainId"] },
    { query: "account=x&skip=-1&take=500", fields: ["account", "skip", "take"] },
  ],
};

const BODY_CASES: Array<{ name: string; body: unknown; fields: string[] }> = [
  { name: "an empty object", body: {}, fields: ["account", "contractId"] },
  { name: "a short account", body: { account: "0x1234", contractId: 1 }, fields: ["account"] },
  { name: "a badly checksummed account", body: { account: BAD_CHECKSUM, contractId: 1 }, fields: ["account"] },
  { name: "a bad referrer", body: { account: ADDRESS, referrer: "nope", contractId: 1 }, fields: ["referrer"] },
  { name: "a string contractId", body: { account: ADDRESS, contractId: "1" }, fields: ["contractId"] },
  { name: "a fractional contractId", body: { account: ADDRESS, contractId: 1.5 }, fields: ["contractId"] },
  { name: "contractId 0", body: { account: ADDRESS, contractId: 0 }, fields: ["contractId"] },
  { name: "a negative contractId", body: { account: ADDRESS, contractId: -1 }, fields: ["contractId"] },
  { name: "a contractId beyond int4", body: { account: ADDRESS, contractId: 2_147_483_648 }, fields: ["contractId"] },
  { name: "a null contractId", body: { account: ADDRESS, contractId: null }, fields: ["contractId"] },
  { name: "arrays for scalars", body: { account: [ADDRESS], contractId: [1] }, fields: ["account", "contractId"] },
  { name: "an object for the account", body: { account: { value: ADDRESS }, contractId: 1 }, fields: ["account"] },
  { name: "an unknown field", body: { account: ADDRESS, contractId: 1, amount: 5 }, fields: ["amount"] },
  {
    name: "every field bad",
    body: { account: 12, referrer: 3, contractId: "x", extra: true },
    fields: ["account", "contractId", "extra", "referrer"],
  },
];

describe("request validation: 400 problem+json naming each bad field", () => {
  let harness: ApiHarness;
  let key: string;

  beforeAll(async () => {
    harness = await startApiHarness("validation");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  for (const [path, cases] of Object.entries(QUERY_CASES)) {
    describe(`GET ${path}`, () => {
      it.each(cases)("?$query names $fields", async ({ query, fields }) => {
        const response = await harness.http.get(query ? `${path}?${query}` : path).set(auth());
        const body = expectProblem(response, 400, "validationFailed");
        expect(fieldsOf(body)).toEqual([...fields].sort());
      });
    });
  }

  describe("POST /raffle/ticket/sign", () => {
    it.each(BODY_CASES)("$name names $fields", async ({ body, fields }) => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send(body as object);
      const problem = expectProblem(response, 400, "validationFailed");
      expect(fieldsOf(problem)).toEqual([...fields].sort());
    });

    it("refuses a JSON array instead of an object", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send([{ account: ADDRESS, contractId: 1 }]);
      expect(fieldsOf(expectProblem(response, 400, "validationFailed"))).toEqual(expect.arrayContaining(["account", "contractId"]));
    });

    it.each(["{", "{'account': 1}", "null", '"text"', "42"])("answers %j with 400 invalidJson", async (raw) => {
      const response = await harness.http.post("/raffle/ticket/sign").set(auth()).set("Content-Type", "application/json").send(raw);
      expectProblem(response, 400, "invalidJson");
    });

    it("answers a body over 16 kB with 413 payloadTooLarge", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send({ account: ADDRESS, contractId: 1, pad: "x".repeat(17_000) });
      expectProblem(response, 413, "payloadTooLarge");
    });

    // Game backends send small bodies; inflating one could be a decompression bomb, so compressed bodies are refused.
    it.each([
      ["a gzip body", gzipSync(JSON.stringify({ account: ADDRESS, contractId: 1, pad: "x".repeat(40_000) })), "gzip"],
      ["a body that is not the gzip it claims", Buffer.from("{}"), "gzip"],
      ["a deflate body", Buffer.from("{}"), "deflate"],
    ])("answers %s with 415 unsupportedMediaType", async (_name, bytes, encoding) => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .set("Content-Type", "application/json")
        .set("Content-Encoding", encoding)
        .serialize((raw: Buffer) => raw as unknown as string) // send the bytes as they are, not as JSON
        .send(bytes);
      expectProblem(response, 415, "unsupportedMediaType");
    });

    it("reads a body marked Content-Encoding: identity", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .set("Content-Type", "application/json")
        .set("Content-Encoding", "identity")
        .send(JSON.stringify({ account: ADDRESS, contractId: 1 }));
      expect(response.status).not.toBe(415);
      expect(response.status).toBeLessThan(500);
    });

    it.each([
      ["text/plain", "hello"],
      ["application/x-www-form-urlencoded", "account=1&contractId=1"],
    ])("answers a %s body with 415 unsupportedMediaType", async (type, raw) => {
      const response = await harness.http.post("/raffle/ticket/sign").set(auth()).set("Content-Type", type).send(raw);
      expectProblem(response, 415, "unsupportedMediaType");
    });

    it("refuses __proto__ keys as invalidJson", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .set("Content-Type", "application/json")
        .send(`{"account":"${ADDRESS}","contractId":1,"__proto__":{"admin":true}}`);
      expectProblem(response, 400, "invalidJson");
    });

    it("answers an unsupported charset with 415 unsupportedMediaType", async () => {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .set("Content-Type", "application/json; charset=latin-9")
        .send(JSON.stringify({ account: ADDRESS, contractId: 1 }));
      expectProblem(response, 415, "unsupportedMediaType");
    });
  });

  // Fastify reads a body sent with DELETE as with POST, so the cancel route answers the body refusals too (and the
  // harness holds each answer to the OpenAPI document).
  describe("DELETE /claims/:id with a body", () => {
    it("answers a text/plain body with 415 unsupportedMediaType", async () => {
      const response = await harness.http.delete("/claims/1").set(auth()).set("Content-Type", "text/plain").send("cancel");
      expectProblem(response, 415, "unsupportedMediaType");
    });

    it("answers malformed JSON with 400 invalidJson", async () => {
      const response = await harness.http.delete("/claims/1").set(auth()).set("Content-Type", "application/json").send("{");
      expectProblem(response, 400, "invalidJson");
    });
  });

  describe("edge inputs on the body routes (issue 27)", () => {
    const ROUTES = ["/raffle/ticket/sign", "/claims", "/webhooks"];
    const claimBody = () => ({ account: ADDRESS, items: [{ tokenType: "ERC20", token: harness.world.token, tokenId: "0", amount: "1" }] });
    const post = (route: string, body: unknown) =>
      harness.http
        .post(route)
        .set(auth())
        .set("Content-Type", "application/json")
        .send(typeof body === "string" ? body : JSON.stringify(body));

    it.each(ROUTES)("answers a body nested 2,000 levels deep on %s with 400 invalidJson, not a 500", async (route) => {
      const deep = `{"account":"${ADDRESS}","contractId":1,"url":"https://93.184.216.34/","x":${"[".repeat(2_000)}${"]".repeat(2_000)}}`;
      const problem = expectProblem(await post(route, deep), 400, "invalidJson");
      expect(problem.detail).toBe("The request body nests objects or arrays deeper than 32 levels.");
      const deepObject = `{"items":${'{"a":'.repeat(40)}1${"}".repeat(40)}}`;
      expectProblem(await post(route, deepObject), 400, "invalidJson");
    });

    it.each(ROUTES.flatMap((route) => ["constructor", "prototype", "toString", "hasOwnProperty", "valueOf"].map((name) => [route, name])))(
      "on %s refuses an extra field named %s as validationFailed",
      async (route, name) => {
        const base =
          route === "/claims" ? claimBody() : route === "/webhooks" ? { url: "https://93.184.216.34/hook" } : { account: ADDRESS, contractId: 1 };
        const body = `${JSON.stringify(base).slice(0, -1)},"${name}":{"x":1}}`;
        const problem = expectProblem(await post(route, body), 400, "validationFailed");
        expect(problem.errors).toContainEqual({ field: name, message: `property ${name} should not exist` });
      },
    );

    it("refuses a prototype-named field inside a nested object, naming its path", async () => {
      const body = { ...claimBody(), items: [{ ...claimBody().items[0], toString: "x" }] };
      const problem = expectProblem(await post("/claims", body), 400, "validationFailed");
      expect(fieldsOf(problem)).toEqual(["items.0.toString"]);
    });

    it("refuses null for every optional field instead of reading it as omitted", async () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ["/raffle/ticket/sign", { account: ADDRESS, contractId: 1, referrer: null }, "referrer"],
        ["/claims", { ...claimBody(), chainId: null }, "chainId"],
        ["/claims", { ...claimBody(), ttlSeconds: null }, "ttlSeconds"],
        ["/webhooks", { url: "https://93.184.216.34/hook", events: null }, "events"],
        ["/webhooks", { url: "https://93.184.216.34/hook", description: null }, "description"],
      ];
      for (const [route, body, field] of cases) {
        const response = await post(route, body);
        expect([route, field, fieldsOf(expectProblem(response, 400, "validationFailed"))]).toEqual([route, field, [field]]);
      }
      const listed = await harness.http.get("/webhooks").set(auth()).expect(200);
      expect(listed.body.count).toBe(0);
    });

    it("refuses control characters in a webhook description with 400, storing nothing", async () => {
      for (const description of ["game\u0000server", "bell\u0007", "del\u007f"]) {
        const problem = expectProblem(await post("/webhooks", { url: "https://93.184.216.34/hook", description }), 400, "validationFailed");
        expect(fieldsOf(problem)).toEqual(["description"]);
      }
      expect((await harness.http.get("/webhooks").set(auth()).expect(200)).body.count).toBe(0);
    });

    it("refuses a claim voucher for the zero token address, which could never be redeemed", async () => {
      const body = {
        account: ADDRESS,
        items: [{ tokenType: "ERC20", token: "0x0000000000000000000000000000000000000000", tokenId: "0", amount: "1" }],
      };
      const problem = expectProblem(await post("/claims", body), 400, "validationFailed");
      expect(problem.errors).toEqual([
        { field: "items.0.token", message: "token must be a token contract's 0x-prefixed 20-byte address, not the zero address" },
      ]);
      const listed = await harness.http.get(`/claims?account=${ADDRESS}`).set(auth()).expect(200);
      expect(listed.body.count).toBe(0);
    });

    it("reads /claims/:id and /webhooks/:id only as plain decimal ids: 0x1 and 007 are not 1 and 7", async () => {
      const claim = (await post("/claims", claimBody()).expect(201)).body as { id: number };
      const webhook = (await post("/webhooks", { url: "https://93.184.216.34/hook" }).expect(201)).body as { id: number };
      await harness.http.get(`/claims/${claim.id}`).set(auth()).expect(200);
      await harness.http.get(`/webhooks/${webhook.id}`).set(auth()).expect(200);
      const statuses = async (base: string, paths: string[]) =>
        Promise.all(
          paths.map(async (path) => {
            const r = await harness.http.get(`${base}/${path}`).set(auth());
            return [path, r.body.code ?? `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`];
          }),
        );
      const claimPaths = [`0x${claim.id.toString(16)}`, `00${claim.id}`, `${claim.id}.0`, `+${claim.id}`, `${claim.id}e0`];
      expect(await statuses("/claims", claimPaths)).toEqual(claimPaths.map((path) => [path, "claimNotFound"]));
      const webhookPaths = [`00${webhook.id}`, `0x${webhook.id.toString(16)}`, `${webhook.id}.0`];
      expect(await statuses("/webhooks", webhookPaths)).toEqual(webhookPaths.map((path) => [path, "webhookNotFound"]));
      await harness.http.delete(`/webhooks/${webhook.id}`).set(auth()).expect(200);
    });
  });
});
