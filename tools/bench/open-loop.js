// The open-loop mode of the load generator (load-process.js, LoadOptions.rate): requests leave on a fixed schedule,
// request i at i × 1000 / rate ms after the start, whether or not earlier ones were answered, and each latency is
// counted from the request's scheduled time, not from when it was sent. A closed loop (autocannon) sends the next
// request only after an answer, so a server that stalls also stops the clock of the requests it held back
// (coordinated omission) and its p99 hides the queue; here the queue, the server's and this process's own, is in it.
// Plain JavaScript on node:http, no dependencies: it runs in the load generator's process, outside ts-node.
const http = require("node:http");
const { performance } = require("node:perf_hooks");

/** Requests due `elapsedMs` after the start at `rate` per second, capped at `total`: request 0 leaves at once. */
function dueCount(elapsedMs, rate, total) {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor((elapsedMs * rate) / 1000) + 1);
}

/** When request `index` is scheduled, in ms after the start. */
function scheduledMs(index, rate) {
  return (index * 1000) / rate;
}

/** Nearest-rank percentile (p in 0..100) of ascending `sorted`: the smallest value with at least p % of them at or below it. */
function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  // Less a hair, as 99.9 % of 1,000 is 999.0000000000001 in floating point.
  const rank = Math.ceil((p * sorted.length) / 100 - 1e-9);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1];
}

/** Picks one of `mix`'s entries by weight, `random` being a draw in [0, 1). */
function pickByWeight(mix, random) {
  const total = mix.reduce((sum, entry) => sum + entry.weight, 0);
  let draw = random * total;
  return mix.find((entry) => (draw -= entry.weight) < 0) ?? mix[mix.length - 1];
}

const round = (ms) => Math.round(ms * 10) / 10;

/**
 * p50 / p99 / p99.9 / max of `latencies` (ms), and p50 / p99 of each of `entries` (the mix), `entryOf[i]` being the
 * entry of latency i: one run's, or several runs' put end to end.
 */
function summarize(latencies, entryOf, entries) {
  const sorted = Float64Array.from(latencies).sort();
  const byEntry = entries.map((entry, index) => {
    const own = Float64Array.from(latencies)
      .filter((_, at) => entryOf[at] === index)
      .sort();
    return {
      method: entry.method,
      path: entry.path.split("?")[0],
      requests: own.length,
      p50Ms: round(percentile(own, 50)),
      p99Ms: round(percentile(own, 99)),
    };
  });
  return {
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    p999Ms: round(percentile(sorted, 99.9)),
    maxMs: round(percentile(sorted, 100)),
    byEntry,
  };
}

/** A request unanswered this long after it was sent is an error (autocannon's default timeout). */
const TIMEOUT_MS = 10_000;
/** The schedule is checked every millisecond: a request leaves at most about that late, and its lateness is counted. */
const CHECK_MS = 1;

/**
 * Runs the open loop for `options` (LoadOptions with `rate`): at most `connections` kept-alive sockets, further due
 * requests waiting for one in the agent's queue (their wait counted). `slowMs`: requests at least this slow are counted
 * (and listed as [end, ms] with `recordSlow`). Resolves with the figures once every request is answered or timed out.
 */
function runOpenLoop(options, slowMs) {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const entries = (
    options.mix ?? [{ weight: 1, method: options.method ?? "GET", path: target.pathname + target.search, bodies: options.bodies }]
  ).map((entry) => ({ ...entry, next: 0 }));
  const total = Math.max(1, Math.round(options.rate * options.durationSeconds));
  const latencies = new Float64Array(total);
  // Which entry of the mix each answered request was, for its own percentiles (the sign path against the reads).
  const entryOf = new Uint8Array(total);
  const statusCodes = {};
  const refusals = [];
  const slow = [];
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let slowRequests = 0;
  let sent = 0;
  let settled = 0;
  // How late this process sent its requests against their schedule: its own share of the latencies it reports.
  let maxSendLagMs = 0;
  let sendsLate5Ms = 0;

  return new Promise((resolve) => {
    const start = performance.now();
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      clearTimeout(deadline);
      agent.destroy();
      const summary = summarize(latencies.subarray(0, answered), entryOf.subarray(0, answered), entries);
      const elapsedSeconds = (performance.now() - start) / 1000;
      resolve({
        requests: answered,
        requestsPerSecond: Math.round(answered / Math.max(elapsedSeconds, options.durationSeconds)),
        offeredRate: options.rate,
        ...summary,
        non2xx,
        errors: errors + (total - settled),
        slowRequests,
        statusCodes,
        refusals,
        maxSendLagMs: round(maxSendLagMs),
        sendsLate5Ms,
        ...(options.recordSlow && { slow }),
        // Every latency (0.01 ms) and its entry of the mix, for percentiles over several runs together (summarize).
        ...(options.keepLatencies && {
          latencies: Array.from(latencies.subarray(0, answered), (ms) => Math.round(ms * 100) / 100),
          entryOf: Array.from(entryOf.subarray(0, answered)),
        }),
      });
    };
    const settle = () => {
      settled += 1;
      if (settled === total) finish();
    };
    const send = (index) => {
      const scheduled = start + scheduledMs(index, options.rate);
      const lag = performance.now() - scheduled;
      if (lag > maxSendLagMs) maxSendLagMs = lag;
      if (lag >= 5) sendsLate5Ms += 1;
      const entryIndex = entries.indexOf(pickByWeight(entries, Math.random()));
      const entry = entries[entryIndex];
      // One outcome per request: a socket error after the answer's end must not count it twice.
      let done = false;
      const once = (record) => {
        if (done) return;
        done = true;
        record();
        settle();
      };
      const body = entry.bodies?.length ? entry.bodies[entry.next++ % entry.bodies.length] : undefined;
      const headers = body === undefined ? options.headers : { ...options.headers, "content-length": Buffer.byteLength(body) };
      const request = http.request(
        { agent, hostname: target.hostname, port: target.port, method: entry.method, path: entry.path, headers, timeout: TIMEOUT_MS },
        (response) => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status <= 299;
          let text = "";
          if (ok) response.resume();
          else response.setEncoding("utf8").on("data", (chunk) => (text += chunk));
          response.on("end", () =>
            once(() => {
              const ms = performance.now() - scheduled;
              entryOf[answered] = entryIndex;
              latencies[answered++] = ms;
              statusCodes[status] = (statusCodes[status] ?? 0) + 1;
              if (!ok) {
                non2xx += 1;
                if (refusals.length < 5) refusals.push(`${status} ${body ?? ""} ${text.slice(0, 300)}`);
              }
              if (ms >= slowMs) {
                slowRequests += 1;
                if (options.recordSlow && slow.length < 50_000) slow.push([Date.now(), Math.round(ms * 10) / 10]);
              }
            }),
          );
        },
      );
      request.on("timeout", () => request.destroy(new Error("timed out")));
      request.on("error", () => once(() => (errors += 1)));
      request.end(body);
    };
    const timer = setInterval(() => {
      const due = dueCount(performance.now() - start, options.rate, total);
      while (sent < due) send(sent++);
      if (sent === total) clearInterval(timer);
    }, CHECK_MS);
    // Requests still unanswered long after the last was due are counted as errors (total - settled) rather than awaited.
    const deadline = setTimeout(finish, options.durationSeconds * 1000 + TIMEOUT_MS + 1_000);
  });
}

module.exports = { dueCount, scheduledMs, percentile, pickByWeight, summarize, runOpenLoop };
