import { freePort } from "@raffle/testing";

import { FakeRaffle } from "../test/support/fake-raffle";
import { LogCapture } from "../test/support/log-capture";
import { raffleRow, startFakeApi, type FakeApi } from "../test/support/fake-api";
import { RaffleApiError } from "@raffle/sdk";
import { isRetryable } from "@raffle/config";

import { ApiRaffleSource } from "./raffle-source";
import { backoffDelay, retryWithBackoff } from "./backoff";
import { WorkerLogger } from "./logger";
import { ChainRotator } from "./chain-rotator";

const KEY = "rk_test_key";

describe("ApiRaffleSource", () => {
  let api: FakeApi;
  afterEach(() => api?.close());

  it("follows every page of GET /raffle/contracts with the bearer key and the chain filter", async () => {
    const rows = Array.from({ length: 230 }, (_, index) => raffleRow(index + 1, "*/2 * * * * *"));
    api = await startFakeApi({ apiKey: KEY, rows: [...rows, raffleRow(999, "0 0 * * *", 1)] });
    const client = new ApiRaffleSource({ baseUrl: api.url, apiKey: KEY, chainId: 31337 });
    const raffles = await client.listRaffles();
    expect(raffles).toHaveLength(230);
    expect(raffles[0]).toEqual({ id: 1, address: rows[0].address, chainId: 31337, schedule: "*/2 * * * * *" });
    expect(api.requests.map((request) => request.url)).toEqual([
      "/raffle/contracts?chainId=31337&skip=0&take=100",
      "/raffle/contracts?chainId=31337&skip=100&take=100",
      "/raffle/contracts?chainId=31337&skip=200&take=100",
    ]);
    expect(api.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("reads a missing or non-string schedule as undefined", async () => {
    api = await startFakeApi({ rows: [raffleRow(1, 42), { ...raffleRow(2, "x"), parameters: {} }] });
    const raffles = await new ApiRaffleSource({ baseUrl: api.url, apiKey: KEY, chainId: 31337 }).listRaffles();
    expect(raffles.map((raffle) => raffle.schedule)).toEqual([undefined, undefined]);
  });

  it("reports a rejected key as a permanent failure", async () => {
    api = await startFakeApi({ apiKey: KEY });
    const error = await new ApiRaffleSource({ baseUrl: api.url, apiKey: "rk_wrong", chainId: 31337 })
      .listRaffles()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RaffleApiError);
    expect((error as RaffleApiError).status).toBe(401);
    expect(isRetryable(error)).toBe(false);
    expect(isRetryable(new RaffleApiError(503, "serviceUnavailable", null))).toBe(true);
  });
});

describe("retryWithBackoff", () => {
  it("doubles the delay after each failure up to the cap, logging every attempt", async () => {
    const logs = new LogCapture();
    const delays: number[] = [];
    let calls = 0;
    const result = await retryWithBackoff(
      "loading",
      async () => {
        calls += 1;
        if (calls < 7) throw new Error(`down ${calls}`);
        return "up";
      },
      new WorkerLogger({ sink: logs.sink }),
      { initialDelayMs: 500, maxDelayMs: 5_000, sleep: async (ms) => void delays.push(ms) },
    );
    expect(result).toBe("up");
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(logs.lines.map((line) => [line.level, line.attempt, line.retryInMs, line.error])).toEqual(
      delays.map((delay, index) => ["warn", index + 1, delay, `down ${index + 1}`]),
    );
  });

  it("throws a fatal error at once", async () => {
    let calls = 0;
    await expect(
      retryWithBackoff(
        "loading",
        async () => {
          calls += 1;
          throw new RaffleApiError(401, "unauthorized", null);
        },
        new WorkerLogger({ level: "silent" }),
        { initialDelayMs: 1, maxDelayMs: 1, isFatal: (error) => !isRetryable(error) },
      ),
    ).rejects.toThrow("401 unauthorized");
    expect(calls).toBe(1);
  });

  it("computes capped exponential delays", () => {
    expect([1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, { initialDelayMs: 100, maxDelayMs: 700 }))).toEqual([100, 200, 400, 700, 700]);
  });
});

describe("ChainRotator start with the API down", () => {
  it("retries with backoff until the API listens, then schedules the raffles", async () => {
    const port = await freePort();
    const logs = new LogCapture();
    const armed: string[] = [];
    const worker = new ChainRotator({
      chainId: 31337,
      source: new ApiRaffleSource({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, chainId: 31337 }),
      ports: () => new FakeRaffle().port(),
      logger: new WorkerLogger({ level: "debug", sink: logs.sink }),
      refreshIntervalMs: 60_000,
      permanentFailureRefreshes: 3,
      apiRetry: { initialDelayMs: 100, maxDelayMs: 400 },
      timers: (schedule) => (armed.push(schedule), { stop: () => undefined }),
    });
    const started = worker.start();
    // Nothing listens on the port for a while: the worker keeps retrying.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const retries = logs.lines.filter((line) => line.message === "loading the raffle list failed; retrying");
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries.map((line) => line.retryInMs).slice(0, 3)).toEqual([100, 200, 400]);
    expect(worker.report().lastRefresh).toBeUndefined();

    const api = await startFakeApi({ port, apiKey: KEY, rows: [raffleRow(1, "*/2 * * * * *")] });
    try {
      await started;
      expect(armed).toEqual(["*/2 * * * * *"]);
      expect(worker.report().lastRefresh).toMatchObject({ ok: true, raffles: 1 });
      expect(logs.messages()).toContain("chain rotations started");
    } finally {
      await worker.stop();
      await api.close();
    }
  });
});
