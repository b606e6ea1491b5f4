import { deployTestRaffle } from "@raffle/chain/testing";

import { ApiKeyGuard } from "../src/app/auth/api-key.guard";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";

/**
 * POST /raffle/ticket/sign is served by a plain Fastify handler (sign-route.ts), not through Nest's pipeline: Nest
 * never runs its guard for it (the handler calls the guard's check itself), and the guard, the pipe and the problem
 * filter still answer as on every route.
 */
describe("the sign route outside Nest's pipeline", () => {
  let harness: ApiHarness;
  let key: string;
  let contractId: number;
  // Nest calls each guard's canActivate for the routes it serves; the sign route's handler calls authorize directly.
  let nestGuard: jest.SpyInstance;

  beforeAll(async () => {
    harness = await startApiHarness("sign_route");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    const raffle = await deployTestRaffle(harness.world, "NATIVE", 100n);
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
    nestGuard = jest.spyOn(ApiKeyGuard.prototype, "canActivate");
  });

  afterAll(async () => {
    nestGuard?.mockRestore();
    await harness?.close();
  });

  const account = () => harness.world.players[0].getAddress();

  it("signs with the guard's caller, echoes the request id, and never goes through Nest's guard (other routes do)", async () => {
    const response = await harness.http
      .post("/raffle/ticket/sign")
      .set({ Authorization: `Bearer ${key}`, "x-request-id": "sign-route-test-1" })
      .send({ account: await account(), contractId });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["x-request-id"]).toBe("sign-route-test-1");
    expect(response.body).toMatchObject({ nonce: expect.stringMatching(/^0x[0-9a-f]{64}$/), signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) });
    expect(Object.keys(response.body)).toEqual(["nonce", "signature", "expiresAt", "params", "item", "price", "value"]);
    expect(nestGuard).not.toHaveBeenCalled();
    await harness.http
      .get("/webhooks")
      .set({ Authorization: `Bearer ${key}` })
      .expect(200);
    expect(nestGuard).toHaveBeenCalledTimes(1);
    nestGuard.mockClear();
  });

  it("refuses without a key, with a console session token and with a bad key, as the guard does on every route", async () => {
    const body = { account: await account(), contractId };
    expectProblem(await harness.http.post("/raffle/ticket/sign").send(body), 401, "unauthorized");
    expectProblem(await harness.http.post("/raffle/ticket/sign").set({ Authorization: "Bearer ms_notasession" }).send(body), 401, "unauthorized");
    expectProblem(
      await harness.http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}x` })
        .send(body),
      401,
      "unauthorized",
    );
    expect(nestGuard).not.toHaveBeenCalled();
  });

  it("hands a body its own check refuses to the validation pipe, which lists every bad field", async () => {
    const response = await harness.http
      .post("/raffle/ticket/sign")
      .set({ Authorization: `Bearer ${key}` })
      .send({ account: "0x12", contractId: 0, extra: 1 });
    expect(fieldsOf(expectProblem(response, 400, "validationFailed"))).toEqual(["account", "contractId", "extra"]);
    expectProblem(
      await harness.http
        .post("/raffle/ticket/sign")
        .set({ Authorization: `Bearer ${key}` })
        .send({ account: await account(), contractId: 999_999 }),
      404,
      "contractNotFound",
    );
    expect(nestGuard).not.toHaveBeenCalled();
  });
});
