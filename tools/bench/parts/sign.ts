/** Part "sign": POST /raffle/ticket/sign under load, its signatures checked, against a bare ethers loop and metrics off. */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { Wallet, verifyTypedData } from "ethers";
import { LOCAL_DEV_KEYS, PURCHASE_TYPES, exchangeDomain, type PurchaseVoucher } from "@raffle/chain";
import { freePort } from "@raffle/testing";
import { ApiMetrics } from "@raffle/api";

import { startApiProcess, type ApiProcess } from "../api-process";
import { apiCpuPerRequest, apiIdleCpuMicrosPerSecond, figuresOf, type MeasuredLoad } from "../load";
import { CONNECTIONS, METRICS_COMPARE, ROOT, SIGN_COMPARE_MAIN, SIGN_CONNECTIONS, SIGN_RUNS, SIGN_SECONDS, medianRun, say } from "../settings";
import { randomAccounts, signLoad, warmUpSignPath, type BenchStack } from "../stack";

/** Seconds the API is watched idle before the sign runs, for its background CPU. */
const IDLE_SECONDS = 5;
/** Connections to each of the two metrics followers, which run side by side: together, the sign runs' load. */
const FOLLOWER_CONNECTIONS = Math.max(1, Math.floor(SIGN_CONNECTIONS / 2));

export async function signPart(stack: BenchStack): Promise<void> {
  const { api, world, results, rows } = stack;
  const accounts = randomAccounts();
  let apiWithMetrics: ApiProcess | null = null;
  let apiWithoutMetrics: ApiProcess | null = null;
  let apiOtherBuild: ApiProcess | null = null;
  let otherBuildIdleCpu = 0;
  const runs: MeasuredLoad[] = [];
  const runsWithMetrics: MeasuredLoad[] = [];
  const runsWithoutMetrics: MeasuredLoad[] = [];
  const runsOtherBuild: MeasuredLoad[] = [];
  // The API's background CPU (its indexer, chain monitors and timers), measured while it serves nothing.
  const idleCpuMicrosPerSecond = await apiIdleCpuMicrosPerSecond(api, IDLE_SECONDS);
  try {
    if (METRICS_COMPARE) {
      say("starting two more API processes, metrics on and METRICS_ENABLED=false, for the comparison");
      // A pair started alike after the stack's API, so both follow its indexing: they differ in METRICS_ENABLED only.
      // (The stack's API leads the indexing, and with one process its indexer shares the requests' event loop.)
      apiWithMetrics = await startApiProcess({ ...stack.apiEnv, METRICS_ENABLED: "true" }, await freePort());
      apiWithoutMetrics = await startApiProcess({ ...stack.apiEnv, METRICS_ENABLED: "false" }, await freePort());
    }
    if (SIGN_COMPARE_MAIN) {
      say(`starting the other build's API (${SIGN_COMPARE_MAIN}) for the A/B comparison`);
      apiOtherBuild = await startApiProcess(stack.apiEnv, await freePort(), path.resolve(SIGN_COMPARE_MAIN));
      otherBuildIdleCpu = await apiIdleCpuMicrosPerSecond(apiOtherBuild, IDLE_SECONDS);
    }
    await warmUpSignPath(stack, accounts);
    if (apiWithMetrics) await warmUpSignPath(stack, accounts, apiWithMetrics, "warm-up, metrics on, follower");
    if (apiWithoutMetrics) await warmUpSignPath(stack, accounts, apiWithoutMetrics, "warm-up, metrics off, follower");
    if (apiOtherBuild) await warmUpSignPath(stack, accounts, apiOtherBuild, "warm-up, other build");
    for (let run = 0; run < SIGN_RUNS; run += 1) {
      runs.push(await signLoad(stack, accounts, SIGN_CONNECTIONS));
      if (apiWithMetrics && apiWithoutMetrics) {
        // Side by side: the two processes share the same seconds of the machine, so its drift (which moves one
        // process's CPU per request by 10-20 % between runs) weighs on both alike.
        const [withMetrics, withoutMetrics] = await Promise.all([
          signLoad(stack, accounts, FOLLOWER_CONNECTIONS, apiWithMetrics, "metrics on, follower, side by side"),
          signLoad(stack, accounts, FOLLOWER_CONNECTIONS, apiWithoutMetrics, "metrics off, follower, side by side"),
        ]);
        runsWithMetrics.push(withMetrics);
        runsWithoutMetrics.push(withoutMetrics);
      }
      if (apiOtherBuild) runsOtherBuild.push(await signLoad(stack, accounts, SIGN_CONNECTIONS, apiOtherBuild, "other build"));
    }
  } finally {
    await apiWithMetrics?.stop();
    await apiWithoutMetrics?.stop();
    await apiOtherBuild?.stop();
  }
  const sign = medianRun(runs);
  const signWithMetrics = runsWithMetrics.length > 0 ? medianRun(runsWithMetrics) : null;
  const signWithoutMetrics = runsWithoutMetrics.length > 0 ? medianRun(runsWithoutMetrics) : null;
  const metricsCostPercent =
    signWithMetrics && signWithoutMetrics ? (1 - signWithMetrics.requestsPerSecond / signWithoutMetrics.requestsPerSecond) * 100 : null;
  // The same cost in the API's CPU per request, summed over the side-by-side runs: at saturation the throughput is
  // the cores over this, and it moves far less with the machine's drift than requests/s do.
  const metricsCpuCostPercent =
    signWithMetrics && signWithoutMetrics ? (apiCpuPerRequest(runsWithMetrics) / apiCpuPerRequest(runsWithoutMetrics) - 1) * 100 : null;
  const allRequests = runs.reduce((sum, run) => sum + run.requests, 0);
  const samples = sign.samples.map(({ requestBody, responseBody }) => ({ account: JSON.parse(requestBody).account as string, body: responseBody }));
  const verified = countRecoveringToSigner(samples, world.deployment.chainId, world.deployment.exchange);
  const apiCpuMicrosPerRequest = apiCpuPerRequest(runs);
  const apiRequestCpuMicros = apiCpuPerRequest(runs, idleCpuMicrosPerSecond);
  const loadCpuMicrosPerRequest = runs.reduce((sum, run) => sum + run.cpuMicros, 0) / Math.max(allRequests, 1);
  const peakRss = api.peakRssMiB();
  const firstSample = JSON.parse(samples[0]?.body ?? "null");
  const bare = firstSample
    ? bareEthersSignsPerSecond(
        { account: accounts[0], params: firstSample.params, item: firstSample.item, price: firstSample.price },
        BigInt(world.deployment.chainId),
        world.deployment.exchange,
        5,
      )
    : 0;
  const queued = SIGN_CONNECTIONS === CONNECTIONS ? null : figuresOf(await signLoad(stack, accounts, CONNECTIONS));
  const metricsNanos = metricsNanosPerSignRequest();
  const metricsShareOfCpu = metricsNanos / 1000 / Math.max(apiCpuMicrosPerRequest, 1);
  results.sign = {
    ...figuresOf(sign),
    connections: SIGN_CONNECTIONS,
    runs: runs.map(figuresOf),
    atMoreConnections: queued && { ...queued, connections: CONNECTIONS },
    seconds: SIGN_SECONDS,
    samplesVerified: verified,
    samples: samples.length,
    bareEthersSignsPerSecond: Math.round(bare),
    apiCpuMicrosPerRequest: Math.round(apiCpuMicrosPerRequest),
    apiIdleCpuMicrosPerSecond: Math.round(idleCpuMicrosPerSecond),
    apiRequestCpuMicros: Math.round(apiRequestCpuMicros),
    loadGeneratorCpuMicrosPerRequest: Math.round(loadCpuMicrosPerRequest),
    metricsEnabled: true,
    withMetricsFollower: signWithMetrics && { ...figuresOf(signWithMetrics), runs: runsWithMetrics.map(figuresOf) },
    withoutMetrics: signWithoutMetrics && { ...figuresOf(signWithoutMetrics), runs: runsWithoutMetrics.map(figuresOf) },
    metricsCostPercent: metricsCostPercent === null ? null : Math.round(metricsCostPercent * 10) / 10,
    metricsCpuCostPercent: metricsCpuCostPercent === null ? null : Math.round(metricsCpuCostPercent * 10) / 10,
    metricsNanosPerRequest: Math.round(metricsNanos),
    metricsShareOfApiCpuPercent: Math.round(metricsShareOfCpu * 1000) / 10,
  };
  results.memory = { apiPeakRssMiB: Math.round(peakRss) };
  rows.push(
    {
      measure: `sign, metrics on (${SIGN_CONNECTIONS} connections, median of ${SIGN_RUNS}): requests/s`,
      result: String(sign.requestsPerSecond),
      target: ">= 3000",
      met: sign.requestsPerSecond >= 3_000,
    },
    {
      measure: `sign, metrics on (${SIGN_CONNECTIONS} connections, median of ${SIGN_RUNS}): p50 / p99`,
      result: `${sign.p50Ms} / ${sign.p99Ms} ms`,
      target: "p99 <= 25 ms",
      met: sign.p99Ms <= 25,
    },
    ...(signWithMetrics && signWithoutMetrics && metricsCostPercent !== null && metricsCpuCostPercent !== null
      ? [
          {
            measure: `sign, two follower APIs side by side, metrics on vs METRICS_ENABLED=false (${FOLLOWER_CONNECTIONS} connections each, median of ${SIGN_RUNS}): req/s, p50 / p99`,
            result: `${signWithMetrics.requestsPerSecond}, ${signWithMetrics.p50Ms} / ${signWithMetrics.p99Ms} ms vs ${signWithoutMetrics.requestsPerSecond}, ${signWithoutMetrics.p50Ms} / ${signWithoutMetrics.p99Ms} ms`,
            target: "",
            met: null,
          },
          {
            measure: "metrics cost on the sign figure, the followers side by side: req/s off vs on; API CPU per request on vs off",
            result: `${metricsCostPercent.toFixed(1)}%; ${metricsCpuCostPercent.toFixed(1)}% (${apiCpuPerRequest(runsWithMetrics).toFixed(0)} vs ${apiCpuPerRequest(runsWithoutMetrics).toFixed(0)} µs)`,
            target: "<= 5% (CPU)",
            met: metricsCpuCostPercent <= 5,
          },
        ]
      : []),
    {
      measure: "metrics work per sign request (in-process loop) / share of the API's CPU per request",
      result: `${Math.round(metricsNanos)} ns / ${(metricsShareOfCpu * 100).toFixed(1)}%`,
      target: "<= 5%",
      met: metricsShareOfCpu <= 0.05,
    },
    { measure: "sign: non-2xx / errors", result: `${sign.non2xx} / ${sign.errors}`, target: "0 / 0", met: sign.non2xx === 0 && sign.errors === 0 },
    {
      measure: "sign: sampled signatures recovering to the signer",
      result: `${verified} of ${samples.length}`,
      target: "all",
      met: samples.length > 0 && verified === samples.length,
    },
    { measure: "bare ethers signTypedData loop", result: `${Math.round(bare)}/s`, target: "", met: null },
    {
      measure: "sign endpoint vs bare ethers",
      result: `${(sign.requestsPerSecond / Math.max(bare, 1)).toFixed(1)}x`,
      target: ">= 4x",
      met: sign.requestsPerSecond >= 4 * bare,
    },
    ...(queued
      ? [
          {
            measure: `sign at ${CONNECTIONS} connections: req/s, p50 / p99`,
            result: `${queued.requestsPerSecond}, ${queued.p50Ms} / ${queued.p99Ms} ms`,
            target: "",
            met: null,
          },
        ]
      : []),
    {
      measure: "sign: CPU per request, API / load generator",
      result: `${apiCpuMicrosPerRequest.toFixed(0)} / ${loadCpuMicrosPerRequest.toFixed(0)} µs`,
      target: "API <= 200 µs",
      met: apiCpuMicrosPerRequest <= 200,
    },
    {
      measure: "sign: API CPU per request less its idle CPU over the runs (background while idle: ms/s)",
      result: `${apiRequestCpuMicros.toFixed(0)} µs (${(idleCpuMicrosPerSecond / 1000).toFixed(1)} ms/s)`,
      target: "",
      met: null,
    },
    { measure: "API peak RSS under sign load", result: `${peakRss.toFixed(0)} MiB`, target: "", met: null },
  );
  if (runsOtherBuild.length > 0) {
    const other = medianRun(runsOtherBuild);
    const thisCpu = apiCpuPerRequest(runs, idleCpuMicrosPerSecond);
    const otherCpu = apiCpuPerRequest(runsOtherBuild, otherBuildIdleCpu);
    results.signOtherBuild = {
      main: SIGN_COMPARE_MAIN,
      ...figuresOf(other),
      runs: runsOtherBuild.map(figuresOf),
      apiCpuMicrosPerRequest: Math.round(apiCpuPerRequest(runsOtherBuild)),
      apiRequestCpuMicros: Math.round(otherCpu),
    };
    rows.push({
      measure: `sign A/B, alternating runs: API CPU per request less idle, this build vs ${SIGN_COMPARE_MAIN} (req/s, medians)`,
      result: `${thisCpu.toFixed(0)} vs ${otherCpu.toFixed(0)} µs: ${(thisCpu / otherCpu).toFixed(2)}x (${sign.requestsPerSecond} vs ${other.requestsPerSecond} req/s)`,
      target: "",
      met: null,
    });
  }
}

/** How many sampled vouchers carry a signature that recovers to the local chain's voucher signer. */
function countRecoveringToSigner(samples: Array<{ account: string; body: string }>, chainId: number | bigint, exchange: string): number {
  const signer = new Wallet(LOCAL_DEV_KEYS.voucherSigner).address;
  const domain = exchangeDomain(chainId, exchange);
  return samples.filter((sample) => {
    const response = JSON.parse(sample.body);
    const voucher = { account: sample.account, params: response.params, item: response.item, price: response.price };
    return verifyTypedData(domain, PURCHASE_TYPES, voucher, response.signature) === signer;
  }).length;
}

/**
 * Nanoseconds of metrics work one sign request costs (the request hook's histogram observation and the vouchers
 * counter), timed in a loop in this process: a figure the machine's drift barely moves, unlike two load runs.
 */
function metricsNanosPerSignRequest(): number {
  const metrics = new ApiMetrics(true);
  let hook: (request: unknown, reply: unknown, done: () => void) => void = () => undefined;
  metrics.instrument({ addHook: (_name: string, handler: typeof hook) => (hook = handler) } as never);
  const request = { routeOptions: { url: "/raffle/ticket/sign" }, method: "POST" };
  const reply = { statusCode: 200, elapsedTime: 0 };
  const loop = (count: number) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i += 1) {
      reply.elapsedTime = (i % 64) / 4;
      hook(request, reply, () => undefined);
      metrics.voucherSigned(31337);
    }
    return Number(process.hrtime.bigint() - started) / count;
  };
  loop(200_000);
  return Math.min(loop(1_000_000), loop(1_000_000));
}

/** Runs tools/bench/bare-ethers-sign.js in its own process over the same voucher. */
function bareEthersSignsPerSecond(voucher: PurchaseVoucher, chainId: bigint, exchange: string, seconds: number): number {
  const domain = { ...exchangeDomain(chainId, exchange), chainId: chainId.toString() };
  const input = JSON.stringify({ privateKey: LOCAL_DEV_KEYS.voucherSigner, domain, types: PURCHASE_TYPES, voucher, seconds });
  const output = execFileSync(process.execPath, [path.join(ROOT, "tools/bench/bare-ethers-sign.js"), input], { cwd: ROOT, encoding: "utf8" });
  return Number(output.trim());
}
