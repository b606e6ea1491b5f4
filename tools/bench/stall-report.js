#!/usr/bin/env node
// Sets the slow requests of part `reads` (run with BENCH_STALL_PROBE_DIR=<dir>) beside what the API's workers and the
// load generator were doing then: `node tools/bench/stall-report.js <dir>`. For each timed run: the requests of
// 15 ms or more, how many of them overlapped a stall (5 ms or more) of the load generator's event loop, of API
// worker 0 (which runs the indexer) or of worker 1, a worker's own long task (a stall during which its thread ran
// 5 ms or more, rather than waited for a CPU), or a garbage collection of 2 ms or more; and each worker's stalls,
// long tasks, collections and run-queue wait (ms per second of run) over the run.
const fs = require("node:fs");
const path = require("node:path");

/** A stall ([start, ms, ms on a CPU]) during which the worker's thread ran 5 ms or more: its own work, not the machine's. */
const isOwnLongTask = ([, , cpuMs]) => cpuMs >= 5;
const overlaps = (intervals, from, to) => intervals.some(([start, ms]) => start < to && start + ms > from);
const sum = (values) => values.reduce((total, value) => total + value, 0);

/**
 * How many slow requests ([end, ms]) overlapped each kind of pause: `loadGeneratorStalls` and each worker's `stalls`
 * ([start, ms, ms on a CPU]) and `gcs` ([start, ms, kind]); a request counts once per kind, and under `none` if it
 * overlapped nothing.
 */
function slowRequestCauses(slow, loadGeneratorStalls, byWorker) {
  const cause = { loadGenerator: 0, worker0: 0, worker1: 0, ownLongTask: 0, gc: 0, none: 0 };
  for (const [end, ms] of slow) {
    const from = end - ms;
    const hits = [];
    if (overlaps(loadGeneratorStalls, from, end)) hits.push("loadGenerator");
    for (const [worker, figures] of Object.entries(byWorker)) {
      if (overlaps(figures.stalls, from, end) && `worker${worker}` in cause) hits.push(`worker${worker}`);
      if (overlaps(figures.stalls.filter(isOwnLongTask), from, end)) hits.push("ownLongTask");
      if (
        overlaps(
          figures.gcs.filter(([, gcMs]) => gcMs >= 2),
          from,
          end,
        )
      )
        hits.push("gc");
    }
    for (const hit of new Set(hits)) cause[hit] += 1;
    if (hits.length === 0) cause.none += 1;
  }
  return cause;
}

function report(dir) {
  const lines = (file) =>
    fs
      .readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  const runs = lines("runs.ndjson");
  const probes = fs
    .readdirSync(dir)
    .filter((file) => /^\d+\.ndjson$/.test(file))
    .flatMap((file) => lines(file));

  for (const run of runs) {
    const { startedAt, endedAt } = run;
    const workers = [...new Set(probes.filter((line) => line.ppid === run.apiPid).map((line) => line.worker))].sort();
    const byWorker = Object.fromEntries(
      workers.map((worker) => {
        const own = probes.filter((line) => line.ppid === run.apiPid && line.worker === worker);
        const inRun = (intervals) => intervals.filter(([start]) => start >= startedAt && start <= endedAt);
        const stalls = inRun(own.flatMap((line) => line.stalls));
        const gcs = inRun(own.flatMap((line) => line.gcs));
        const during = own.filter((line) => line.at >= startedAt && line.at <= endedAt + 1_000);
        const before = own.filter((line) => line.at < startedAt).at(-1);
        const waitMs = before && during.length ? (during.at(-1).waitNs - before.waitNs) / 1e6 : NaN;
        const spanS = before && during.length ? (during.at(-1).at - before.at) / 1e3 : NaN;
        return [worker, { stalls, gcs, waitMsPerS: waitMs / spanS }];
      }),
    );
    const seconds = (endedAt - startedAt) / 1e3;
    const cause = slowRequestCauses(run.slow ?? [], run.stalls ?? [], byWorker);
    const describe = (worker) => {
      const { stalls, gcs, waitMsPerS } = byWorker[worker];
      const stallMs = sum(stalls.map(([, ms]) => ms));
      return (
        `worker ${worker}: ${stalls.length} stalls ≥ 5 ms (${Math.round(stallMs)} ms, max ${Math.max(0, ...stalls.map(([, ms]) => ms))}), ` +
        `${stalls.filter(isOwnLongTask).length} own long tasks (max ${Math.max(0, ...stalls.map(([, , cpuMs]) => cpuMs ?? 0))} ms on a CPU), ` +
        `${gcs.length} GCs (${Math.round(sum(gcs.map(([, ms]) => ms)))} ms, max ${Math.max(0, ...gcs.map(([, ms]) => ms)).toFixed(1)}, ` +
        `${gcs.filter(([, , kind]) => kind !== 1).length} not scavenges), run-queue wait ${waitMsPerS.toFixed(0)} ms/s`
      );
    };
    const ownStallMs = sum((run.stalls ?? []).map(([, ms]) => ms));
    console.log(
      `${run.name} (${run.side}): ${run.requests} requests, ${run.slowRequests} ≥ 15 ms; of those overlapping a stall of ` +
        `the load generator ${cause.loadGenerator}, worker 0 ${cause.worker0}, worker 1 ${cause.worker1} (a worker's own long ` +
        `task ${cause.ownLongTask}), a GC ≥ 2 ms ${cause.gc}, none ${cause.none}`,
    );
    console.log(
      `  load generator: ${(run.stalls ?? []).length} stalls ≥ 5 ms (${ownStallMs} ms), run-queue wait ` +
        `${(run.runQueueWaitMicros / 1e3 / seconds).toFixed(0)} ms/s; API main threads' wait ${((run.apiRunQueueWaitMicros ?? 0) / 1e3 / seconds).toFixed(0)} ms/s`,
    );
    for (const worker of workers) console.log(`  ${describe(worker)}`);
  }
}

module.exports = { slowRequestCauses };
if (require.main === module) report(process.argv[2]);
