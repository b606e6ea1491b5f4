// The load generator of the benchmarks and the soak: autocannon (a closed loop at a fixed concurrency), or with
// `rate` an open loop at a fixed rate (open-loop.js), in a plain JavaScript process of its own. A
// TypeScript loader (ts-node) loads Node's `domain` module, whose async hook taxes every promise and event, so a load
// generator inside it spends more CPU per request and adds its own delay to the latencies it reports.
// Input (stdin): JSON LoadOptions of load.ts. Output (stdout): one JSON line, the result.
const fs = require("node:fs");
const autocannon = require("autocannon");
const { pickByWeight, runOpenLoop } = require("./open-loop");

/** This process's main thread: time on a CPU and time runnable but waiting for one (/proc/self/schedstat), in µs. */
function schedstat() {
  try {
    const [runNs, waitNs] = fs.readFileSync("/proc/self/schedstat", "utf8").split(" ").map(Number);
    return { runMicros: Math.round(runNs / 1e3), waitMicros: Math.round(waitNs / 1e3) };
  } catch {
    return { runMicros: 0, waitMicros: 0 };
  }
}

/** Requests at least this slow are counted (and, with `recordSlow`, listed with the time they ended). */
const SLOW_MS = 15;
/** This process's own event loop, checked every 2 ms: a check 5 ms or more late is a stall of the load generator. */
const TICK_MS = 2;
const STALL_MS = 5;

function readStdin() {
  return new Promise((resolve) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
  });
}

(async () => {
  const options = JSON.parse(await readStdin());
  const bodies = options.bodies ?? [];
  const capture = options.capture ? new RegExp(options.capture) : null;
  const samples = [];
  const captures = [];
  let nextBody = 0;
  // A mixed load: each request is one of `mix`'s, drawn at random by weight, with its own bodies in turn.
  const mix = options.mix?.map((entry) => ({ ...entry, next: 0 }));
  const mixedRequest = (request, context) => {
    const entry = pickByWeight(mix, Math.random());
    context.body = entry.bodies?.length ? entry.bodies[entry.next++ % entry.bodies.length] : undefined;
    // Fresh headers each time: autocannon writes a body's Content-Length into the request's headers object, which a
    // bodyless GET after a POST would otherwise carry.
    return { ...request, headers: { ...options.headers }, method: entry.method, path: entry.path, body: context.body };
  };
  let ok = 0;
  const wantsResponses = Boolean(capture || options.sampleEvery || mix);
  // The first few refusals' bodies, to say why a load failed.
  const refusals = [];
  const cpuBefore = process.cpuUsage();
  const schedBefore = schedstat();
  let slowRequests = 0;
  const slow = [];
  const stalls = [];
  let expected = Date.now() + TICK_MS;
  const tick = setInterval(() => {
    const now = Date.now();
    if (now - expected >= STALL_MS) stalls.push([expected, now - expected]);
    expected = now + TICK_MS;
  }, TICK_MS);
  // What this process cost and how much it waited for a CPU or stalled, beside the figures of either mode: a starved
  // load generator counts its own delays in the latencies it measures.
  const report = (figures) => {
    const cpu = process.cpuUsage(cpuBefore);
    const sched = schedstat();
    clearInterval(tick);
    const answer = {
      ...figures,
      cpuMicros: cpu.user + cpu.system,
      runQueueWaitMicros: sched.waitMicros - schedBefore.waitMicros,
      ownStallsOver5Ms: stalls.length,
      ownStallMs: stalls.reduce((sum, [, ms]) => sum + ms, 0),
      ...(options.recordSlow && { stalls }),
      samples,
      captures,
    };
    process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(0));
  };

  if (options.rate) {
    // Open loop at a fixed rate (open-loop.js): latencies from each request's scheduled time.
    report(await runOpenLoop(options, SLOW_MS));
    return;
  }

  const instance = autocannon(
    {
      url: options.url,
      method: options.method ?? "GET",
      headers: options.headers,
      connections: options.connections,
      duration: options.durationSeconds,
      pipelining: 1,
      requests: [
        {
          setupRequest: (request, context) => {
            if (mix) return mixedRequest(request, context);
            if (bodies.length === 0) return request;
            context.body = bodies[nextBody++ % bodies.length];
            return { ...request, body: context.body };
          },
          // Without an onResponse autocannon does not gather bodies at all, which is cheaper.
          ...(wantsResponses && {
            onResponse: (status, body, context) => {
              if (status < 200 || status > 299) {
                if (refusals.length < 5) refusals.push(`${status} ${context.body ?? ""} ${body.slice(0, 300)}`);
                return;
              }
              ok += 1;
              if (capture) captures.push(capture.exec(body)?.[1] ?? "");
              if (options.sampleEvery && ok % options.sampleEvery === 0 && samples.length < (options.maxSamples ?? 200)) {
                samples.push({ requestBody: context.body ?? "", responseBody: body });
              }
            },
          }),
        },
      ],
    },
    (error, result) => {
      if (error) {
        process.stderr.write(`${error.stack ?? error}\n`);
        process.exit(1);
      }
      report({
        requests: result.requests.total,
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        slowRequests,
        ...(options.recordSlow && { slow }),
        errors: result.errors + result.timeouts,
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count])),
        refusals,
      });
    },
  );
  // [when it ended, how long it took] of each slow request: the part sets them beside the API's stalls.
  instance.on("response", (_client, _status, _bytes, responseTime) => {
    if (responseTime < SLOW_MS) return;
    slowRequests += 1;
    if (options.recordSlow && slow.length < 50_000) slow.push([Date.now(), Math.round(responseTime * 10) / 10]);
  });
  instance.on("error", (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
})();
