/**
 * `npm --workspace tools run soak:memory`: the sign load on the API (API_WORKERS processes, as the bench runs it) for
 * SOAK_MINUTES (10 by default) after SOAK_WARMUP_SECONDS (60) of warm-up, comparing the live heap of all its
 * processes (after a full collection in each) at the end of the warm-up and at the end of the soak. Target: within
 * 10 % (no growth). Prints a table; exits non-zero when the target is missed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { API_WORKERS, say, sleep } from "./settings";
import { randomAccounts, signLoad, startBenchStack, stopBenchStack, type BenchStack } from "./stack";

const SOAK_SECONDS = Number(process.env.SOAK_MINUTES ?? 10) * 60;
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 60);
const CONNECTIONS = 16;
/** The load runs in slices, so the peak RSS is read between them and a failing run is seen early. */
const SLICE_SECONDS = 60;
const TARGET_GROWTH = 0.1;

interface HeapFigures {
  pid: number;
  heapUsedMiB: number;
  rssMiB: number;
}

const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-heap-probe-"));

/** Each API process's memory after a full collection (see heap-probe.js). */
async function liveHeap(stack: BenchStack): Promise<HeapFigures[]> {
  const asked = Date.now();
  const pids = stack.api.memoryByProcess().map((process) => process.pid);
  for (const pid of pids) process.kill(pid, "SIGWINCH");
  const deadline = asked + 30_000;
  const read = (pid: number) => {
    try {
      const figures = JSON.parse(fs.readFileSync(path.join(probeDir, `heap-${pid}.json`), "utf8"));
      return figures.at >= asked ? figures : null;
    } catch {
      return null;
    }
  };
  for (;;) {
    const figures = pids.map(read);
    if (figures.every((each) => each !== null)) {
      return figures.map((each, index) => ({ pid: pids[index], heapUsedMiB: each.heapUsed / 1048576, rssMiB: each.rss / 1048576 }));
    }
    if (Date.now() > deadline) throw new Error("the API's processes did not answer the heap probe (SIGWINCH) in 30 s");
    await sleep(100);
  }
}

async function loadFor(stack: BenchStack, accounts: string[], seconds: number, label: string): Promise<number> {
  let requests = 0;
  for (let left = seconds; left > 0; left -= SLICE_SECONDS) {
    const run = await signLoad(stack, accounts, CONNECTIONS, stack.api, label, Math.min(left, SLICE_SECONDS));
    if (run.non2xx > 0 || run.errors > 0) throw new Error(`the sign load failed: ${run.non2xx} non-2xx, ${run.errors} errors`);
    requests += run.requests;
  }
  return requests;
}

const sum = (figures: HeapFigures[], field: "heapUsedMiB" | "rssMiB") => figures.reduce((total, each) => total + each[field], 0);

async function main(): Promise<void> {
  // Every process the soak starts inherits this; only the API's processes are ever sent SIGWINCH.
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --expose-gc --require ${path.join(__dirname, "heap-probe.js")}`.trim();
  process.env.HEAP_PROBE_DIR = probeDir;
  say(`memory soak: ${WARMUP_SECONDS} s warm-up, then ${SOAK_SECONDS} s of the sign load at ${CONNECTIONS} connections; API workers: ${API_WORKERS}`);
  const stack = await startBenchStack({});
  let failed: boolean;
  try {
    const accounts = randomAccounts();
    const warmupRequests = await loadFor(stack, accounts, WARMUP_SECONDS, "warm-up");
    const afterWarmup = await liveHeap(stack);
    const soakRequests = await loadFor(stack, accounts, SOAK_SECONDS, "soak");
    const afterSoak = await liveHeap(stack);
    const growth = sum(afterSoak, "heapUsedMiB") / sum(afterWarmup, "heapUsedMiB") - 1;
    const peakRss = stack.api.peakRssMiB();
    failed = growth > TARGET_GROWTH;
    console.table([
      { measure: "requests (warm-up / soak)", result: `${warmupRequests} / ${soakRequests}`, target: "", met: "" },
      {
        measure: "live heap after warm-up, all API processes",
        result: `${sum(afterWarmup, "heapUsedMiB").toFixed(1)} MiB (${afterWarmup.map((each) => each.heapUsedMiB.toFixed(1)).join(" + ")})`,
        target: "",
        met: "",
      },
      {
        measure: "live heap after the soak, all API processes",
        result: `${sum(afterSoak, "heapUsedMiB").toFixed(1)} MiB (${afterSoak.map((each) => each.heapUsedMiB.toFixed(1)).join(" + ")})`,
        target: "",
        met: "",
      },
      { measure: "live heap growth over the soak", result: `${(growth * 100).toFixed(1)} %`, target: "<= 10 %", met: failed ? "NO" : "yes" },
      {
        measure: "RSS after warm-up / after the soak / each process's peak, summed",
        result: `${sum(afterWarmup, "rssMiB").toFixed(0)} / ${sum(afterSoak, "rssMiB").toFixed(0)} / ${peakRss.toFixed(0)} MiB`,
        target: "peak <= 400 MiB",
        met: peakRss <= 400 ? "yes" : "NO",
      },
    ]);
  } finally {
    await stopBenchStack(stack);
    fs.rmSync(probeDir, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().catch((error: unknown) => {
  process.stderr.write(`memory soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
