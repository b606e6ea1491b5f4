// The load generator of the benchmarks and the soak: autocannon in a plain JavaScript process of its own. A
// TypeScript loader (ts-node) loads Node's `domain` module, whose async hook taxes every promise and event, so a load
// generator inside it spends more CPU per request and adds its own delay to the latencies it reports.
// Input (stdin): JSON LoadOptions of load.ts. Output (stdout): one JSON line, the result.
const autocannon = require("autocannon");

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
  let ok = 0;
  const wantsResponses = Boolean(capture || options.sampleEvery);
  const cpuBefore = process.cpuUsage();

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
            if (bodies.length === 0) return request;
            context.body = bodies[nextBody++ % bodies.length];
            return { ...request, body: context.body };
          },
          // Without an onResponse autocannon does not gather bodies at all, which is cheaper.
          ...(wantsResponses && {
            onResponse: (status, body, context) => {
              if (status < 200 || status > 299) return;
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
      const cpu = process.cpuUsage(cpuBefore);
      const answer = {
        cpuMicros: cpu.user + cpu.system,
        requests: result.requests.total,
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
        samples,
        captures,
      };
      process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(0));
    },
  );
  instance.on("error", (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
})();
