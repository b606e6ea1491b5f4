import * as http from "node:http";
import type { AddressInfo } from "node:net";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openLoop = require("../bench/open-loop.js") as {
  dueCount(elapsedMs: number, rate: number, total: number): number;
  scheduledMs(index: number, rate: number): number;
  percentile(sorted: ArrayLike<number>, p: number): number;
  pickByWeight<T extends { weight: number }>(mix: T[], random: number): T;
  summarize(
    latencies: number[],
    entryOf: number[],
    entries: Array<{ method: string; path: string }>,
  ): { p50Ms: number; p99Ms: number; p999Ms: number; maxMs: number; byEntry: Array<{ path: string; requests: number; p99Ms: number }> };
  runOpenLoop(
    options: { url: string; headers: Record<string, string>; connections: number; durationSeconds: number; rate: number; mix?: unknown[] },
    slowMs: number,
  ): Promise<{
    requests: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    non2xx: number;
    errors: number;
    slowRequests: number;
    statusCodes: Record<string, number>;
    byEntry: Array<{ path: string; requests: number }>;
  }>;
};

/** open-loop.js: the load generator's fixed-rate schedule and its percentiles (tools/bench/load-process.js). */
describe("open loop schedule", () => {
  it("sends request 0 at once and one more every 1000 / rate ms, never past the total", () => {
    expect(openLoop.dueCount(-1, 100, 50)).toBe(0);
    expect(openLoop.dueCount(0, 100, 50)).toBe(1);
    expect(openLoop.dueCount(9.99, 100, 50)).toBe(1);
    expect(openLoop.dueCount(10, 100, 50)).toBe(2);
    expect(openLoop.dueCount(495, 100, 50)).toBe(50);
    expect(openLoop.dueCount(60_000, 100, 50)).toBe(50);
    expect(openLoop.scheduledMs(3, 200)).toBe(15);
  });

  it("keeps the rate over a long run: 2,000/s for 60 s is 120,000 requests, the last at 59,999.5 ms", () => {
    expect(openLoop.dueCount(59_999.4, 2_000, 120_000)).toBe(119_999);
    expect(openLoop.dueCount(59_999.5, 2_000, 120_000)).toBe(120_000);
    expect(openLoop.scheduledMs(119_999, 2_000)).toBe(59_999.5);
  });

  it("takes nearest-rank percentiles: p99 of 1..100 is 99, of 1..1000 is 990; p100 is the slowest", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    const thousand = Array.from({ length: 1_000 }, (_, i) => i + 1);
    expect(openLoop.percentile(hundred, 99)).toBe(99);
    expect(openLoop.percentile(hundred, 50)).toBe(50);
    expect(openLoop.percentile(thousand, 99)).toBe(990);
    expect(openLoop.percentile(thousand, 99.9)).toBe(999);
    expect(openLoop.percentile(thousand, 100)).toBe(1_000);
    expect(openLoop.percentile([7], 99)).toBe(7);
    expect(openLoop.percentile([], 99)).toBe(0);
  });

  it("summarizes runs put end to end, each entry of the mix on its own", () => {
    // 200 reads of 1..200 ms (entry 0, unordered) and 20 signs of 1,000 ms (entry 1), as two runs' arrays joined.
    const reads = Array.from({ length: 200 }, (_, i) => 200 - i);
    const summary = openLoop.summarize(
      [...reads, ...Array(20).fill(1_000)],
      [...Array(200).fill(0), ...Array(20).fill(1)],
      [
        { method: "GET", path: "/rounds/current?contractId=1" },
        { method: "POST", path: "/raffle/ticket/sign" },
      ],
    );
    expect(summary.maxMs).toBe(1_000);
    expect(summary.p50Ms).toBe(110);
    expect(summary.p99Ms).toBe(1_000);
    expect(summary.byEntry).toEqual([
      { method: "GET", path: "/rounds/current", requests: 200, p50Ms: 100, p99Ms: 198 },
      { method: "POST", path: "/raffle/ticket/sign", requests: 20, p50Ms: 1_000, p99Ms: 1_000 },
    ]);
  });

  it("picks entries by weight", () => {
    const mix = [{ weight: 80 }, { weight: 15 }, { weight: 5 }];
    expect(openLoop.pickByWeight(mix, 0)).toBe(mix[0]);
    expect(openLoop.pickByWeight(mix, 0.799)).toBe(mix[0]);
    expect(openLoop.pickByWeight(mix, 0.8)).toBe(mix[1]);
    expect(openLoop.pickByWeight(mix, 0.95)).toBe(mix[2]);
    expect(openLoop.pickByWeight(mix, 0.999999)).toBe(mix[2]);
  });
});

describe("open loop against a server that stalls", () => {
  let server: http.Server;
  let url: string;
  let stallUntil = 0;
  const seen: string[] = [];

  beforeAll(async () => {
    // Answers at once, except while a stall is on: then every answer waits until it ends, as an event loop held by a
    // collection or a long task would.
    server = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const answer = () => response.writeHead(request.url === "/refused" ? 400 : 200, { "content-type": "text/plain" }).end("ok");
      const wait = stallUntil - Date.now();
      if (wait > 0) setTimeout(answer, wait);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("counts the queue a 300 ms stall builds, which a closed loop's clock would leave out", async () => {
    seen.length = 0;
    // 200/s for 2 s: the stall starts 500 ms in and holds about 60 scheduled requests.
    setTimeout(() => (stallUntil = Date.now() + 300), 500);
    const outcome = await openLoop.runOpenLoop({ url: `${url}/`, headers: {}, connections: 4, durationSeconds: 2, rate: 200 }, 15);
    expect(outcome.requests).toBe(400);
    expect(outcome.errors).toBe(0);
    expect(outcome.non2xx).toBe(0);
    // The requests scheduled during the stall waited up to its 300 ms from their scheduled time: about 60, where a clock
    // started at sending would count only the 4 on the sockets when it began (the rest leave after it, and answer at
    // once). No upper bound: on a loaded machine this process's own lateness counts too, by design.
    expect(outcome.slowRequests).toBeGreaterThanOrEqual(40);
    expect(outcome.maxMs).toBeGreaterThanOrEqual(250);
  });

  it("sends the mix by weight and counts refusals apart", async () => {
    seen.length = 0;
    const mix = [
      { weight: 3, method: "GET", path: "/ok" },
      { weight: 1, method: "POST", path: "/refused", bodies: ['{"a":1}'] },
    ];
    const outcome = await openLoop.runOpenLoop({ url, headers: {}, connections: 2, durationSeconds: 1, rate: 400, mix }, 15);
    expect(outcome.requests).toBe(400);
    expect(outcome.non2xx).toBe(outcome.statusCodes["400"]);
    expect(outcome.statusCodes["200"] + outcome.statusCodes["400"]).toBe(400);
    // 100 expected refusals: a draw by weight stays well within 60-140 over 400 requests.
    expect(outcome.non2xx).toBeGreaterThan(60);
    expect(outcome.non2xx).toBeLessThan(140);
    expect(seen.filter((line) => line === "POST /refused")).toHaveLength(outcome.non2xx);
    expect(outcome.byEntry.map((entry) => [entry.path, entry.requests])).toEqual([
      ["/ok", outcome.statusCodes["200"]],
      ["/refused", outcome.non2xx],
    ]);
  });
});
