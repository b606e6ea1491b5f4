import { deployTestRaffle } from "@raffle/chain/testing";

import { ApiKeyGuard } from "../src/app/auth/api-key.guard";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";

/**
 * The four hot reads are served by plain Fastify handlers (read-routes.ts) that send each cached read's JSON as it was
 * serialised once (json-body.ts): Nest's guard never runs for them, and the guard, the validation pipe and the problem
 * filter answer as on every route.
 */
describe("the hot reads outside Nest's pipeline", () => {
  let harness: ApiHarness;
  let key: string;
  let contractId: number;
  let nestGuard: jest.SpyInstance;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    harness = await startApiHarness("read_routes");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    const raffle = await deployTestRaffle(harness.world, "NATIVE", 100n);
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
    nestGuard = jest.spyOn(ApiKeyGuard.prototype, "canActivate");
  });

  afterAll(async () => {
    nestGuard?.mockRestore();
    await harness?.close();
  });

  it("answers each read as JSON, the same bytes on a cache hit, without Nest's guard", async () => {
    const account = await harness.world.players[0].getAddress();
    for (const url of [
      `/rounds/current?contractId=${contractId}`,
      `/rounds?contractId=${contractId}&skip=0&take=25`,
      "/raffle/contracts?chainId=31337",
      `/claims?account=${account}`,
    ]) {
      const first = await harness.http.get(url).set(auth()).expect(200);
      const again = await harness.http.get(url).set(auth()).expect(200);
      expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(again.text).toBe(first.text);
      expect(first.text).toBe(JSON.stringify(JSON.parse(first.text)));
    }
    expect(nestGuard).not.toHaveBeenCalled();
  });

  it("refuses without a key and a bad query every time, and answers the same query once it is right", async () => {
    expectProblem(await harness.http.get(`/rounds/current?contractId=${contractId}`), 401, "unauthorized");
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await harness.http.get("/rounds?contractId=0&take=101&extra=1").set(auth());
      expect(fieldsOf(expectProblem(refused, 400, "validationFailed"))).toEqual(["contractId", "extra", "take"]);
      expect(fieldsOf(expectProblem(await harness.http.get("/claims?account=0x12").set(auth()), 400, "validationFailed"))).toEqual(["account"]);
    }
    expectProblem(await harness.http.get("/rounds/current?contractId=999999").set(auth()), 404, "contractNotFound");
    expectProblem(await harness.http.get("/raffle/contracts?chainId=5").set(auth()), 422, "chainNotServed");
    // The same values written otherwise ("007") are validated (and kept) apart and give the same answer.
    const plain = await harness.http.get(`/rounds?contractId=${contractId}&take=7`).set(auth()).expect(200);
    const padded = await harness.http.get(`/rounds?contractId=${contractId}&take=007`).set(auth()).expect(200);
    expect(padded.text).toBe(plain.text);
    expect(nestGuard).not.toHaveBeenCalled();
  });
});
