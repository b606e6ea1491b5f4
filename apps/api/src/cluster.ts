import cluster, { type Worker } from "node:cluster";

import { jsonLog } from "./logging/logger";

/** Which worker a process is (0 when not clustered): worker 0 runs the indexer, the others only serve requests. */
export function workerIndex(): number {
  return cluster.isWorker ? Number(process.env.API_WORKER_INDEX ?? 0) : 0;
}

const RESTART_DELAY_MS = 1_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Each worker's young generation, in MiB per semi-space (V8's default on 64 bits is 16). Under the sign load V8 grows
 * it to the maximum, and the two workers' young generations were most of what they held above their code: with 4 the
 * API (primary and two workers) peaked at 387 MiB of RSS under the sign load against 451 with the default (bench part
 * `memory`; see docs/performance.md, "Memory").
 */
const WORKER_SEMI_SPACE_MIB = 4;

/**
 * Each worker's old-generation limit, in MiB. V8 lets the old generation grow to a multiple of what the last major
 * collection left before it collects again, and that multiple follows the limit: 4× with the default limit on a
 * machine with 2 GiB or more, about 1.4× at 512 MiB (1.3× at 256). Under the sign load a worker's old generation
 * grew from about 50 MiB live to 180 MiB committed before each major collection, which is what held the API's RSS
 * near 500–650 MiB while its live heap stayed at 127 MiB. A worker's live heap is about 50 MiB after a full
 * collection (the soak), so 512 leaves it ten times room; a worker that reaches it ends and the primary restarts it.
 */
const WORKER_OLD_SPACE_MIB = 512;

/**
 * The workers collect garbage on their own thread (V8's `--single-threaded-gc`). By default each young-generation
 * collection is split among helper threads and the worker's loop waits until all of them are done; on a machine
 * where every core is busy (two workers and their clients, the database), a helper that the kernel has not scheduled
 * yet holds the worker, and its 16 connections, for a whole time slice: bench part `reads` (stall-report.js) counted
 * these stretched collections among the slow requests' overlaps; single-threaded, the workers' collections paused
 * them 9-23 % less per request in three A/B runs (docs/performance.md, "Reads and data growth").
 */
const WORKER_GC_FLAG = "--single-threaded-gc";

/**
 * The workers' V8 flags: the sizes above, unless NODE_OPTIONS or the command line sets that flag (or --max-heap-size),
 * and the collector's threads unless the command line chooses them (Node refuses those flags in NODE_OPTIONS).
 */
export function workerExecArgv(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): string[] {
  const given = [...execArgv, nodeOptions].join(" ");
  const flags = [...execArgv];
  if (!given.includes("--max-semi-space-size")) flags.push(`--max-semi-space-size=${WORKER_SEMI_SPACE_MIB}`);
  if (!/--max-(old-space|heap)-size/.test(given)) flags.push(`--max-old-space-size=${WORKER_OLD_SPACE_MIB}`);
  if (!/--(no-)?(single-threaded-gc|parallel-scavenge)\b/.test(execArgv.join(" "))) flags.push(WORKER_GC_FLAG);
  return flags;
}

/**
 * The primary of API_WORKERS > 1: forks the workers, which share the listening port (connections are spread
 * across them), restarts one that dies, and passes SIGTERM/SIGINT on so each closes cleanly.
 */
export function runClusterPrimary(workers: number): void {
  let stopping = false;
  const running = new Set<Worker>();

  const fork = (index: number): void => {
    if (stopping) return;
    const worker = cluster.fork({ API_WORKER_INDEX: String(index) });
    running.add(worker);
    worker.on("exit", (code, signal) => {
      running.delete(worker);
      if (stopping) {
        if (running.size === 0) process.exit(0);
        return;
      }
      jsonLog("error", "api worker exited; restarting it", { worker: index, code, signal });
      setTimeout(() => fork(index), RESTART_DELAY_MS);
    });
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      jsonLog("info", "stopping api workers", { signal, workers: running.size });
      if (running.size === 0) process.exit(0);
      for (const worker of running) worker.process.kill("SIGTERM");
      setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    });
  }
  cluster.setupPrimary({ execArgv: workerExecArgv() });
  jsonLog("info", "starting api workers", { workers });
  for (let index = 0; index < workers; index += 1) fork(index);
}
