/** The knobs of `npm run bench` (BENCH_* variables) and the helpers every part shares. */
import * as path from "node:path";

import type { LoadOutcome } from "./load";

export const ROOT = path.resolve(__dirname, "../..");
export const RESULTS_FILE = path.join(ROOT, "bench/results.json");
export const SIGN_SECONDS = Number(process.env.BENCH_SIGN_SECONDS ?? 20);
export const READ_SECONDS = Number(process.env.BENCH_READ_SECONDS ?? 10);
export const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 20_000);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/**
 * The sign endpoint's fixed concurrency (the figures are at 16), where its throughput has levelled off on two
 * cores; more connections only queue. It is measured at CONNECTIONS as well, for that queueing.
 */
export const SIGN_CONNECTIONS = Number(process.env.BENCH_SIGN_CONNECTIONS ?? 16);
/** Runs of the sign load at SIGN_CONNECTIONS; the median one (by requests/s) is reported, all are kept. */
export const SIGN_RUNS = Number(process.env.BENCH_SIGN_RUNS ?? 3);
/**
 * Seconds of untimed sign load on each freshly started API before its measured runs: its first seconds (the JIT's
 * compiling, the first loads of the caches, each connection's first statements) cost it 20-40 % more CPU per request
 * than the runs after, and would otherwise weigh on whichever run comes first.
 */
export const SIGN_WARM_UP_SECONDS = Number(process.env.BENCH_SIGN_WARM_UP_SECONDS ?? 5);
export const POLL_MS = 250;
/**
 * API processes (API_WORKERS). One by default: on these two cores the API shares the machine with PostgreSQL, Redis,
 * the chain node and the load generator, and a second worker halves each event loop's batches (rate-limit calls,
 * voucher INSERTs) for no more throughput: it cost 1.4-1.5x the API CPU per sign request at 16 connections in
 * alternating runs (docs/performance.md). Rate limits are in Redis at BENCH_REDIS_URL whatever the count.
 */
export const API_WORKERS = Number(process.env.BENCH_API_WORKERS ?? 1);
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
/**
 * The sign load also runs against two more API processes, both following the stack's API's indexing, one with
 * metrics and one with METRICS_ENABLED=false, their runs alternating (this machine's speed drifts), to show what the
 * metrics cost. BENCH_METRICS_COMPARE=false skips them.
 */
export const METRICS_COMPARE = process.env.BENCH_METRICS_COMPARE !== "false";
/**
 * Another build's compiled API entry (e.g. main's dist/apps/api/src/main.js copied under dist/): the sign part then
 * alternates its runs between this build and that one, and reports both CPU costs per request (an A/B measure that the
 * machine's drift moves far less than two separate bench runs).
 */
export const SIGN_COMPARE_MAIN = process.env.BENCH_SIGN_COMPARE_MAIN ?? "";
/** Which parts to run (all by default), e.g. BENCH_PARTS=sign,reads while working on the API. */
export const PARTS = new Set(
  (process.env.BENCH_PARTS ?? "sign,memory,chains,webhooks,relayer,reads,scale,growth,indexer,gas,web").split(",").map((part) => part.trim()),
);

export const say = (line: string) => process.stdout.write(`${line}\n`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function getJson(url: string, headers: Record<string, string>): Promise<any> {
  return (await fetch(url, { headers })).json();
}

/** This machine's speed drifts from minute to minute: the median of a few runs is steadier than any one. */
export function medianRun<T extends LoadOutcome>(runs: T[]): T {
  return [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
