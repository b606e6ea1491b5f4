import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startApiProcess as startCompiledApi, type ApiProcess as CompiledApi } from "@raffle/test-stack";

export interface ApiProcess {
  url: string;
  pid: number;
  /** Peak resident set size so far (VmHWM), in MiB, summed over the API's processes (its workers when clustered). */
  peakRssMiB(): number;
  /** Each of the API's processes (the primary first, then its workers): resident set now and at its peak, in MiB. */
  memoryByProcess(): Array<{ pid: number; rssMiB: number; peakRssMiB: number }>;
  /** CPU seconds (user + system) used so far, summed over the API's processes: divided by requests, a cost per request that the machine's noise moves less than throughput. */
  cpuSeconds(): number;
  /** Time the API's processes' main threads were runnable but waited for a CPU (/proc/<pid>/schedstat), in µs, summed. */
  runQueueWaitMicros(): number;
  stop(): Promise<void>;
}

/** USER_HZ: Linux reports CPU times in hundredths of a second on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

function readStatusKiB(pid: number, field: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) : 0;
}

/** /proc/<pid>/stat's utime + stime, in seconds; fields after "(comm)", which may hold spaces. */
function readCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** /proc/<pid>/schedstat's second field (ns runnable but waiting for a CPU), of the process's main thread, in µs. */
function readRunQueueWaitMicros(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e3;
  } catch {
    return 0;
  }
}

/** The process and its direct children (the workers of a clustered API). */
function processTree(pid: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after its closing paren.
        const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children];
}

/** CPU seconds used so far by a process and its direct children (an API and its workers, a postmaster and its backends). */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + readCpuSeconds(each), 0);
}

/** Node flags of every bench API process: a CPU profile (BENCH_API_PROFILE) and the stall probe (BENCH_STALL_PROBE_DIR). */
export function benchNodeArgs(): string[] {
  return [
    ...(process.env.BENCH_API_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_API_PROFILE}`] : []),
    // Every API process (the workers inherit it) records its stalls and collections (stall-probe.js).
    ...(process.env.BENCH_STALL_PROBE_DIR ? ["--require", path.join(__dirname, "stall-probe.js")] : []),
  ];
}

/** A started compiled API with what the bench measures of it (CPU, memory, run-queue wait, from /proc). */
export function measuredApi(api: CompiledApi, cleanup: () => void = () => undefined): ApiProcess {
  const pid = api.child.process.pid!;
  return {
    url: api.url,
    pid,
    peakRssMiB: () => processTree(pid).reduce((sum, each) => sum + readStatusKiB(each, "VmHWM"), 0) / 1024,
    memoryByProcess: () =>
      processTree(pid).map((each) => ({ pid: each, rssMiB: readStatusKiB(each, "VmRSS") / 1024, peakRssMiB: readStatusKiB(each, "VmHWM") / 1024 })),
    cpuSeconds: () => treeCpuSeconds(pid),
    runQueueWaitMicros: () => processTree(pid).reduce((sum, each) => sum + readRunQueueWaitMicros(each), 0),
    stop: async () => {
      await api.stop();
      cleanup();
    },
  };
}

/**
 * Runs the API in its own process, as in production, so its memory is its own and the load generator's isn't; `main`
 * is another build's compiled entry for an A/B comparison (BENCH_SIGN_COMPARE_MAIN).
 */
export async function startApiProcess(env: Record<string, string>, port: number, main?: string): Promise<ApiProcess> {
  // Each `<PREFIX>DEPLOYMENT_JSON` (DEPLOYMENT_JSON, CHAIN_<id>_DEPLOYMENT_JSON) becomes the file of `<PREFIX>DEPLOYMENT_FILE`.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "raffle-bench-"));
  const deploymentFiles = Object.fromEntries(
    Object.entries(env)
      .filter(([name]) => name.endsWith("DEPLOYMENT_JSON"))
      .map(([name, json]) => {
        const file = path.join(folder, `${name.toLowerCase()}.json`);
        fs.writeFileSync(file, json);
        return [name.replace(/DEPLOYMENT_JSON$/, "DEPLOYMENT_FILE"), file];
      }),
  );
  // The compiled API as production runs it (`npm run bench` builds it first), started by the tests' own starter.
  const api = await startCompiledApi({ ...env, ...deploymentFiles, LOG_LEVEL: "silent" }, { port, main, nodeArgs: benchNodeArgs() });
  return measuredApi(api, () => fs.rmSync(folder, { recursive: true, force: true }));
}
