import { RaffleApi, RaffleApiError, type FetchLike } from "./api-client";

type Call = { url: URL; method: string; headers: Record<string, string>; body?: string };

function stubFetch(answer: (call: Call) => { status: number; body: unknown }): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fake: FetchLike = async (url, init) => {
    const call = { url: new URL(url), method: init.method, headers: init.headers, body: init.body };
    calls.push(call);
    const { status, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { fetch: fake, calls };
}

const CLAIM = { id: 42, claimStatus: "NEW" };

describe("RaffleApi", () => {
  it("sends the bearer key and query, and follows every page of raffle contracts once each", async () => {
    const total = 230;
    const { fetch, calls } = stubFetch(({ url }) => {
      const skip = Number(url.searchParams.get("skip"));
      const take = Number(url.searchParams.get("take"));
      // A raffle added during the listing shifts the last row of a page into the next one.
      const from = skip === 0 ? 0 : skip - 1;
      const rows = Array.from({ length: Math.max(0, Math.min(take, total - from)) }, (_, i) => ({ id: from + i + 1 }));
      return { status: 200, body: { rows, count: total } };
    });
    const api = new RaffleApi({ baseUrl: "http://api.test/", apiKey: "rk_x", fetch });
    const all = await api.listAllRaffleContracts(31337);
    expect(all.map((row) => row.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(calls).toHaveLength(3);
    expect(calls[0].url.toString()).toBe("http://api.test/raffle/contracts?chainId=31337&skip=0&take=100");
    expect(calls[0].headers.authorization).toBe("Bearer rk_x");
  });

  it("calls every endpoint with its method and path", async () => {
    const { fetch, calls } = stubFetch(() => ({ status: 200, body: CLAIM }));
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: "rk_x", fetch });
    await api.listRaffleContracts({ chainId: 1 });
    await api.currentRound(3);
    await api.listRounds({ contractId: 3, take: 5 });
    await api.getRound(12);
    await api.signTicket({ account: "0x1", contractId: 3 });
    await api.listClaims({ account: "0x2", claimStatus: "NEW" });
    await api.getClaim(42);
    await api.createClaim({ account: "0x2", items: [{ tokenType: "ERC20", token: "0x3", tokenId: "0", amount: "1" }] });
    await api.cancelClaim(42);
    await api.createWebhook({ url: "https://game.test/hooks", events: ["round.drawn"] });
    await api.listWebhooks({ take: 10 });
    await api.getWebhook(7);
    await api.rotateWebhookSecret(7);
    await api.updateWebhook(7, { events: ["round.drawn"] });
    await api.listWebhookDeliveries(7, { skip: 25 });
    await api.listWebhookDeliveries(7, { type: "ticket.purchased", status: "PENDING" });
    await api.getWebhookDelivery(7, "42");
    await api.retryWebhookDelivery(7, "42");
    await api.deleteWebhook(7);
    await api.health();
    await api.ready();
    expect(calls.map((call) => `${call.method} ${call.url.pathname}${call.url.search}`)).toEqual([
      "GET /raffle/contracts?chainId=1",
      "GET /rounds/current?contractId=3",
      "GET /rounds?contractId=3&take=5",
      "GET /rounds/12",
      "POST /raffle/ticket/sign",
      "GET /claims?account=0x2&claimStatus=NEW",
      "GET /claims/42",
      "POST /claims",
      "DELETE /claims/42",
      "POST /webhooks",
      "GET /webhooks?take=10",
      "GET /webhooks/7",
      "POST /webhooks/7/secret",
      "PATCH /webhooks/7",
      "GET /webhooks/7/deliveries?skip=25",
      "GET /webhooks/7/deliveries?type=ticket.purchased&status=PENDING",
      "GET /webhooks/7/deliveries/42",
      "POST /webhooks/7/deliveries/42/retry",
      "DELETE /webhooks/7",
      "GET /health",
      "GET /ready",
    ]);
    expect(calls.filter((call) => call.body !== undefined).map((call) => call.headers["content-type"])).toEqual([
      "application/json",
      "application/json",
      "application/json",
      "application/json",
    ]);
  });

  it("calls the gasless and relayer routes, and reads a 204 as no content", async () => {
    const calls: Call[] = [];
    const fetch: FetchLike = async (url, init) => {
      calls.push({ url: new URL(url), method: init.method, headers: init.headers, body: init.body });
      const path = new URL(url).pathname;
      if (path.startsWith("/relayer/jobs/")) return new Response(null, { status: 204 });
      return new Response(JSON.stringify(path === "/relayer/claim" ? { jobs: [{ id: "j1" }] } : { id: "r1", state: "queued" }), { status: 200 });
    };
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: "rk_x", fetch });
    const id = "0b3f7a56-8c1d-4e2f-9a0b-1c2d3e4f5a6b";
    expect(await api.claimRelayJobs({ chainId: 31337, relayerId: "worker-1", limit: 5 })).toEqual([{ id: "j1" }]);
    await expect(
      api.reportRelayJobSent(id, { relayerId: "worker-1", txHash: `0x${"ab".repeat(32)}`, nonce: 3, maxFeePerGas: "2", maxPriorityFeePerGas: "1" }),
    ).resolves.toBeUndefined();
    await expect(api.reportRelayJobOutcome(id, { relayerId: "worker-1", outcome: "failed", failureCode: "voucherExpired" })).resolves.toBeUndefined();
    expect((await api.getGaslessRequest(id)).state).toBe("queued");
    await api.getGaslessSettings();
    await api.setGaslessSettings({ enabled: true, dailyGasBudgetWei: "1", perPlayerDailyLimit: 3 });
    expect(calls.map((call) => `${call.method} ${call.url.pathname}`)).toEqual([
      "POST /relayer/claim",
      `POST /relayer/jobs/${id}/sent`,
      `POST /relayer/jobs/${id}/outcome`,
      `GET /gasless/${id}`,
      "GET /merchant/gasless",
      "PUT /merchant/gasless",
    ]);
    expect(JSON.parse(calls[0].body!)).toEqual({ chainId: 31337, relayerId: "worker-1", limit: 5 });
    expect(JSON.parse(calls[2].body!)).toEqual({ relayerId: "worker-1", outcome: "failed", failureCode: "voucherExpired" });
  });

  it("raises problems as typed errors with their code, and says which may succeed later", async () => {
    const { fetch, calls } = stubFetch(() => ({
      status: 409,
      body: {
        type: "about:blank",
        title: "conflict",
        status: 409,
        statusCode: 409,
        code: "roundFull",
        detail: "full",
        instance: "/raffle/ticket/sign",
      },
    }));
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: "rk_x", fetch });
    const failure = await api.signTicket({ account: "0x1", contractId: 3 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RaffleApiError);
    expect(failure).toMatchObject({ status: 409, code: "roundFull", retryable: false });
    expect(JSON.parse(String(calls[0].body))).toEqual({ account: "0x1", contractId: 3 });
    expect([401, 404, 408, 429, 500, 503].map((status) => new RaffleApiError(status, "httpError", null).retryable)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it("answers a list body without rows as a retryable invalidResponse", async () => {
    const { fetch } = stubFetch(() => ({ status: 200, body: { unexpected: true } }));
    const failure = await new RaffleApi({ baseUrl: "http://api.test", apiKey: "rk_x", fetch })
      .listAllRaffleContracts()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 502, code: "invalidResponse", retryable: true });
  });
});
