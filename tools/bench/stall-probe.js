// A bench-only probe, preloaded into each API process with `--require` (BENCH_STALL_PROBE_DIR=<dir>, see
// bench/api-process.ts): it records when the process's event loop stalled (a 2 ms timer firing 5 ms or more late, and
// how much of that time its main thread ran rather than waited for a CPU), its garbage collections and its main
// thread's CPU and run-queue wait (/proc/self/schedstat), each with wall-clock timestamps, so that stall-report.js can
// set the load generator's slow requests beside what the API's workers were doing then. It appends one JSON line per
// second to `<BENCH_STALL_PROBE_DIR>/<pid>.ndjson`: lines are written as they come, because a worker stopped by a
// signal does not run its exit handlers. Plain JavaScript, no dependencies: the probe must not load what it measures.
const fs = require("node:fs");
const path = require("node:path");
const { PerformanceObserver, performance } = require("node:perf_hooks");

const DIR = process.env.BENCH_STALL_PROBE_DIR;
const TICK_MS = 2;
const STALL_MS = 5;
const FLUSH_MS = 1_000;

/** The main thread's time on a CPU and waiting for one, in nanoseconds (cumulative). */
function schedstat() {
  try {
    const [runNs, waitNs] = fs.readFileSync("/proc/self/schedstat", "utf8").split(" ").map(Number);
    return { runNs, waitNs };
  } catch {
    return { runNs: 0, waitNs: 0 };
  }
}

if (DIR) {
  const file = path.join(DIR, `${process.pid}.ndjson`);
  const worker = process.env.API_WORKER_INDEX ?? "primary";
  let stalls = [];
  let gcs = [];
  let expected = Date.now() + TICK_MS;
  let last = schedstat();
  const tick = () => {
    const now = Date.now();
    const late = now - expected;
    const sched = schedstat();
    // [when the loop stopped answering, for how long, how much of that its thread ran (ms): the rest it waited for a
    // CPU]. A stall mostly run is the process's own long task (a collection, a cache refresh); one mostly waited is
    // the machine's.
    if (late >= STALL_MS) stalls.push([expected, late, Math.round((sched.runNs - last.runNs) / 1e5) / 10]);
    last = sched;
    expected = now + TICK_MS;
    setTimeout(tick, TICK_MS).unref();
  };
  setTimeout(tick, TICK_MS).unref();
  new PerformanceObserver((list) => {
    // [start, duration, kind]: kind 1 is a scavenge (young generation), 2 a mark-compact, 4 incremental marking.
    for (const entry of list.getEntries())
      gcs.push([Math.round(performance.timeOrigin + entry.startTime), +entry.duration.toFixed(2), entry.detail?.kind ?? entry.kind]);
  }).observe({ entryTypes: ["gc"] });
  setInterval(() => {
    const line = { at: Date.now(), pid: process.pid, ppid: process.ppid, worker, ...schedstat(), stalls, gcs };
    stalls = [];
    gcs = [];
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, FLUSH_MS).unref();
}
