import { Wallet, ZeroAddress, type Signer } from "ethers";
import type { Response } from "supertest";
import { RaffleFactory__factory, deployMerchantRaffle } from "@raffle/chain";
import { buyTicket, deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";

import { ApiKeyService } from "../../api/src/app/auth/api-key.service";
import { eventually } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem } from "./support/problem";
import { endAndDraw } from "../../../libs/indexer/test/support/v2-world";

/** Every endpoint needs a merchant API key, and a merchant only ever sees its own contracts and claims. */
describe("authentication and merchant isolation", () => {
  let harness: ApiHarness;
  let alice: string;
  let keyA: string;
  let keyB: string;
  let walletA: string;
  let walletB: string;
  let raffleA: TestRaffle;
  let raffleIdsA: number[];
  let raffleIdB: number;

  beforeAll(async () => {
    harness = await startApiHarness("auth");
    const { world } = harness;
    alice = await world.players[0].getAddress();
    walletA = await world.merchant.getAddress();
    raffleA = await deployTestRaffle(world, "NATIVE");
    const secondA = await deployTestRaffle(world, "NATIVE");

    // A second merchant with its own raffle, deployed through the factory like any merchant.
    const merchantB: Signer = await harness.node.provider.getSigner(3);
    walletB = await merchantB.getAddress();
    const factory = RaffleFactory__factory.connect(world.deployment.raffleFactory, world.admin);
    await (await factory.grantRole(await factory.MERCHANT_ROLE(), walletB)).wait();
    const raffleB = await deployMerchantRaffle(merchantB, {
      factory: world.deployment.raffleFactory,
      commission: 500n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "B Ticket",
      ticketSymbol: "TB",
      firstRound: { price: raffleA.price, maxTicket: 10n },
    });

    keyA = await harness.apiKey(walletA);
    keyB = await harness.apiKey(walletB);
    raffleIdsA = [await indexedRaffleId(harness, keyA, raffleA.raffle), await indexedRaffleId(harness, keyA, secondA.raffle)];
    raffleIdB = await indexedRaffleId(harness, keyB, raffleB.raffle);

    // One ticket, then a draw: the only ticket wins, which gives Alice a prize claim with merchant A.
    await buyTicket(world, raffleA, world.players[0]);
    await endAndDraw(world, raffleA);
  });

  afterAll(async () => {
    await harness?.close();
  });

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  type Send = (headers: Record<string, string>, query?: Record<string, string>) => Promise<Response>;

  /** One valid request per protected endpoint, so that only the credentials can make it fail. */
  function requests(): Array<[string, Send]> {
    const sign = { account: alice, referrer: ZeroAddress, contractId: raffleIdsA[1] };
    return [
      ["GET /raffle/contracts", async (headers, query = {}) => harness.http.get("/raffle/contracts").query(query).set(headers)],
      [
        "GET /rounds/current",
        async (headers, query = {}) =>
          harness.http
            .get("/rounds/current")
            .query({ contractId: raffleIdsA[1], ...query })
            .set(headers),
      ],
      [
        "GET /claims",
        async (headers, query = {}) =>
          harness.http
            .get("/claims")
            .query({ account: alice, ...query })
            .set(headers),
      ],
      ["POST /raffle/ticket/sign", async (headers, query = {}) => harness.http.post("/raffle/ticket/sign").query(query).set(headers).send(sign)],
    ];
  }

  const WELL_FORMED_UNKNOWN_KEY = `rk_${"0".repeat(12)}_${"A".repeat(43)}`;
  const badCredentials: Array<[string, () => { headers: Record<string, string>; query?: Record<string, string> }]> = [
    ["no Authorization header", () => ({ headers: {} })],
    ["an unknown well-formed key", () => ({ headers: bearer(WELL_FORMED_UNKNOWN_KEY) })],
    ["a malformed key", () => ({ headers: bearer("not-a-key") })],
    ["an empty bearer token", () => ({ headers: { Authorization: "Bearer " } })],
    ["the Basic scheme", () => ({ headers: { Authorization: `Basic ${Buffer.from(`merchant:${keyA}`).toString("base64")}` } })],
    ["the raw key without a scheme", () => ({ headers: { Authorization: keyA } })],
    ["the key in the query string", () => ({ headers: {}, query: { apiKey: keyA } })],
    ["the key as access_token", () => ({ headers: {}, query: { access_token: keyA } })],
  ];

  describe.each(badCredentials)("with %s", (_name, credentials) => {
    it("answers 401 unauthorized problem+json with WWW-Authenticate on every endpoint", async () => {
      const { headers, query } = credentials();
      for (const [endpoint, send] of requests()) {
        const response = await send(headers, query);
        expect({ endpoint, status: response.status }).toEqual({ endpoint, status: 401 });
        expectProblem(response, 401, "unauthorized");
        expect(response.headers["www-authenticate"]).toMatch(/^Bearer\b/);
      }
    });
  });

  it("accepts a valid key on every endpoint, with the scheme name in any case", async () => {
    for (const [endpoint, send] of requests()) {
      expect({ endpoint, status: (await send(bearer(keyA))).status }).toEqual({ endpoint, status: 200 });
    }
    expect((await harness.http.get("/raffle/contracts").set("Authorization", `bearer ${keyA}`)).status).toBe(200);
  });

  it("refuses a key as soon as it is revoked", async () => {
    const keys = harness.app.get(ApiKeyService);
    const issued = await keys.create(walletA, "to revoke");
    await harness.http.get("/raffle/contracts").set(bearer(issued.key)).expect(200);
    expect(await keys.revoke(issued.prefix)).toBe(true);
    expectProblem(await harness.http.get("/raffle/contracts").set(bearer(issued.key)), 401, "unauthorized");
    // The other keys of the merchant keep working.
    await harness.http.get("/raffle/contracts").set(bearer(keyA)).expect(200);
  });

  it("lists only the caller's raffles, with their merchant, paginated as { rows, count }", async () => {
    const listA = (await harness.http.get("/raffle/contracts").query({ chainId: 31337 }).set(bearer(keyA)).expect(200)).body;
    expect(listA.rows.map((row: { id: number }) => row.id)).toEqual(raffleIdsA);
    expect(listA.count).toBe(2);
    for (const row of listA.rows) expect(row).toMatchObject({ merchantId: row.merchant.id, merchant: { wallet: walletA }, contractStatus: "ACTIVE" });

    const listB = (await harness.http.get("/raffle/contracts").set(bearer(keyB)).expect(200)).body;
    expect(listB).toMatchObject({ count: 1, rows: [{ id: raffleIdB, merchant: { wallet: walletB } }] });

    const page = (await harness.http.get("/raffle/contracts").query({ skip: 1, take: 1 }).set(bearer(keyA)).expect(200)).body;
    expect(page).toMatchObject({ count: 2, rows: [{ id: raffleIdsA[1] }] });
    // A chain this API does not serve is refused rather than answered empty: an empty page would hide a wrong chainId.
    expectProblem(await harness.http.get("/raffle/contracts").query({ chainId: 1 }).set(bearer(keyA)), 422, "chainNotServed");
  });

  it("answers 404 contractNotFound, not 403, for another merchant's raffle", async () => {
    const stranger = await harness.apiKey(Wallet.createRandom().address);
    for (const key of [keyB, stranger]) {
      expectProblem(await harness.http.get("/rounds/current").query({ contractId: raffleIdsA[1] }).set(bearer(key)), 404, "contractNotFound");
      const sign = await harness.http.post("/raffle/ticket/sign").set(bearer(key)).send({ account: alice, contractId: raffleIdsA[1] });
      expectProblem(sign, 404, "contractNotFound");
    }
    expectProblem(await harness.http.get("/rounds/current").query({ contractId: raffleIdB }).set(bearer(keyA)), 404, "contractNotFound");
    expect((await harness.http.get("/raffle/contracts").set(bearer(stranger)).expect(200)).body).toEqual({ rows: [], count: 0 });
  });

  it("shows an account's claims only to the merchant they belong to", async () => {
    const claimsA = await eventually(async () => {
      const { body } = await harness.http.get("/claims").query({ account: alice }).set(bearer(keyA)).expect(200);
      expect(body.count).toBe(1);
      return body;
    });
    expect(claimsA.rows[0]).toMatchObject({ account: alice, claimType: "RAFFLE_PRIZE", contractId: raffleIdsA[0] });
    // Lower-case input names the same account.
    const lower = (await harness.http.get("/claims").query({ account: alice.toLowerCase() }).set(bearer(keyA)).expect(200)).body;
    expect(lower.count).toBe(1);
    expect((await harness.http.get("/claims").query({ account: alice }).set(bearer(keyB)).expect(200)).body).toEqual({ rows: [], count: 0 });
  });

  it.each(["/health", "/ready", "/status", "/metrics", "/docs", "/docs-json"])("serves %s without a key", async (path) => {
    expect((await harness.http.get(path)).status).toBe(200);
  });

  it.each([
    ["GET", "/nope", {}],
    ["GET", "/nope", null],
    ["POST", "/raffle/contracts", {}],
    ["DELETE", "/claims", {}],
  ] as const)("answers %s %s with 404 notFound problem+json", async (method, path, withKey) => {
    let request = method === "GET" ? harness.http.get(path) : method === "POST" ? harness.http.post(path) : harness.http.delete(path);
    if (withKey) request = request.set(bearer(keyA));
    expectProblem(await request, 404, "notFound");
  });

  it("answers a path with a broken percent-encoding with 400 badRequest problem+json", async () => {
    const body = expectProblem(await harness.http.get("/raffle/%E0%A4%A").set(bearer(keyA)), 400, "badRequest");
    expect(body.instance).toBe("/raffle/%E0%A4%A");
  });
});
