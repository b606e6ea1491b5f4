import { spawn } from "node:child_process";
import { reapWithThisProcess, releaseFromReaper } from "@raffle/testing";
import * as path from "node:path";

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Requests that took 15 ms or more (the reads' p99 target). */
  slowRequests: number;
  /** Time the load generator's own main thread was runnable but waited for a CPU, in µs. */
  runQueueWaitMicros: number;
  /** The load generator's own event loop: checks 5 ms or more late, and their summed lateness in ms. */
  ownStallsOver5Ms: number;
  ownStallMs: number;
}

export interface LoadOptions {
  url: string;
  method?: "GET" | "POST";
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  /** Request bodies, sent in turn (one per request, cycling). */
  bodies?: string[];
  /** A mixed load against `url`'s host: each request drawn at random by weight (method, path, bodies in turn). */
  mix?: Array<{ weight: number; method: "GET" | "POST"; path: string; bodies?: string[] }>;
  /** Keep every n-th 2xx response with the body of its request, up to `maxSamples` (200). */
  sampleEvery?: number;
  maxSamples?: number;
  /** A regular expression: group 1 of it is collected from every 2xx response, in order. */
  capture?: string;
  /**
   * Requests per second, open loop (open-loop.js): sent on a fixed schedule whatever the answers, each latency counted
   * from its scheduled time, over at most `connections` sockets. Without it, autocannon's closed loop at `connections`.
   */
  rate?: number;
  /** Open loop only: return every latency and its entry of the mix (`latencies`, `entryOf`), to merge runs. */
  keepLatencies?: boolean;
  /** List every slow request ([end, ms]) and the load generator's own stalls ([start, ms]), wall-clock ms. */
  recordSlow?: boolean;
}

export interface LoadOutcome extends LoadResult {
  /** CPU time the load generator itself used, in microseconds. */
  cpuMicros: number;
  samples: Array<{ requestBody: string; responseBody: string }>;
  /** Responses by status code, and the first few refusals' status, request and response bodies. */
  statusCodes?: Record<string, number>;
  refusals?: string[];
  captures: string[];
  slow?: Array<[number, number]>;
  stalls?: Array<[number, number]>;
  /** Open loop only: the rate offered, p99.9 and the slowest, and how late this process sent against its schedule. */
  offeredRate?: number;
  p999Ms?: number;
  maxMs?: number;
  maxSendLagMs?: number;
  sendsLate5Ms?: number;
  /** Open loop only: each entry of the mix (or the one request) with its own count and percentiles. */
  byEntry?: Array<{ method: string; path: string; requests: number; p50Ms: number; p99Ms: number }>;
  latencies?: number[];
  entryOf?: number[];
}

/** The figures of a run without its samples and captures, for reports. */
export function figuresOf({
  samples: _samples,
  captures: _captures,
  slow: _slow,
  stalls: _stalls,
  latencies: _latencies,
  entryOf: _entryOf,
  ...figures
}: LoadOutcome): LoadResult & { cpuMicros: number } {
  return figures;
}

const LOAD_PROCESS = path.join(__dirname, "load-process.js");

/**
 * Drives one endpoint with autocannon at a fixed concurrency, or at a fixed rate (`rate`), from a plain JavaScript
 * process of its own (load-process.js), and reports throughput and latency.
 */
export function runLoad(options: LoadOptions): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD_PROCESS], { stdio: ["pipe", "pipe", "pipe"] });
    // A load run lasts seconds to minutes: a bench killed meanwhile must not leave it hammering a port.
    if (child.pid) reapWithThisProcess(child.pid);
    let output = "";
    let errors = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (child.pid) releaseFromReaper(child.pid);
      if (code !== 0) return reject(new Error(`the load generator failed (exit ${code}): ${errors.slice(-2000)}`));
      resolve(JSON.parse(output) as LoadOutcome);
    });
    child.stdin.end(JSON.stringify(options));
  });
}

/** A run against an API process, with the CPU time that process (all its workers) spent during it, and how long it took. */
export interface MeasuredLoad extends LoadOutcome {
  apiCpuMicros: number;
  wallMicros: number;
  /** Time the API's main threads waited for a CPU during the run, in µs (when the API reports it). */
  apiRunQueueWaitMicros?: number;
  /** Wall-clock start of the run, in ms. */
  startedAt: number;
}

export async function runLoadMeasuringApi(api: { cpuSeconds(): number; runQueueWaitMicros?(): number }, options: LoadOptions): Promise<MeasuredLoad> {
  const before = api.cpuSeconds();
  const waitBefore = api.runQueueWaitMicros?.() ?? 0;
  const startedAt = Date.now();
  const started = process.hrtime.bigint();
  const outcome = await runLoad(options);
  const wallMicros = Number((process.hrtime.bigint() - started) / 1000n);
  const apiRunQueueWaitMicros = api.runQueueWaitMicros ? Math.round(api.runQueueWaitMicros() - waitBefore) : undefined;
  return { ...outcome, apiCpuMicros: Math.round((api.cpuSeconds() - before) * 1e6), wallMicros, apiRunQueueWaitMicros, startedAt };
}

/**
 * The API's CPU per second of wall time while it serves nothing (its indexer, chain monitors and timers),
 * measured over `seconds`: the part of a run's CPU that is not the requests' own.
 */
export async function apiIdleCpuMicrosPerSecond(api: { cpuSeconds(): number }, seconds: number): Promise<number> {
  const before = api.cpuSeconds();
  const started = process.hrtime.bigint();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  return ((api.cpuSeconds() - before) * 1e6) / wallSeconds;
}

/**
 * The API's CPU microseconds per request over `runs` together; with `idleMicrosPerSecond`, less what the API spends
 * idle over the runs' time (the requests' own cost, which a slow machine's low throughput does not inflate).
 */
export function apiCpuPerRequest(runs: MeasuredLoad[], idleMicrosPerSecond = 0): number {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const background = runs.reduce((sum, run) => sum + (idleMicrosPerSecond * run.wallMicros) / 1e6, 0);
  return (runs.reduce((sum, run) => sum + run.apiCpuMicros, 0) - background) / Math.max(requests, 1);
}
