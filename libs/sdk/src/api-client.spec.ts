import { RaffleApi, RaffleApiError } from "./api-client";

type Call = { url: URL; init: RequestInit };

function stubFetch(answer: (call: Call) => { status: number; body: unknown }): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fake = (async (url: URL, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    const { status, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  return { fetch: fake, calls };
}

describe("RaffleApi", () => {
  it("sends the bearer key and query, and follows every page of raffle contracts", async () => {
    const total = 230;
    const { fetch, calls } = stubFetch(({ url }) => {
      const skip = Number(url.searchParams.get("skip"));
      const take = Number(url.searchParams.get("take"));
      const rows = Array.from({ length: Math.max(0, Math.min(take, total - skip)) }, (_, i) => ({ id: skip + i + 1 }));
      return { status: 200, body: { rows, count: total } };
    });
    const api = new RaffleApi({ baseUrl: "http://api.test/", apiKey: "rk_x", fetch });
    const all = await api.listAllRaffleContracts(31337);
    expect(all.map((row) => row.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(calls).toHaveLength(3);
    expect(calls[0].url.toString()).toBe("http://api.test/raffle/contracts?chainId=31337&skip=0&take=100");
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe("Bearer rk_x");
  });

  it("posts JSON to sign and raises problems as typed errors with their code", async () => {
    const { fetch, calls } = stubFetch(() => ({
      status: 409,
      body: { type: "about:blank", title: "conflict", status: 409, statusCode: 409, code: "roundFull", detail: "full" },
    }));
    const api = new RaffleApi({ baseUrl: "http://api.test", apiKey: "rk_x", fetch });
    const failure = await api.signTicket({ account: "0x1", contractId: 3 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RaffleApiError);
    expect(failure).toMatchObject({ status: 409, code: "roundFull" });
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ account: "0x1", contractId: 3 });
    expect((calls[0].init.headers as Record<string, string>)["content-type"]).toBe("application/json");
  });
});
