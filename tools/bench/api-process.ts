import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
/** The API as production runs it: compiled by `npm run build`, which `npm run bench` runs first. */
const COMPILED_MAIN = path.join(ROOT, "dist/apps/api/src/main.js");

export interface ApiProcess {
  url: string;
  pid: number;
  /** Peak resident set size so far (VmHWM), in MiB, summed over the API's processes (its workers when clustered). */
  peakRssMiB(): number;
  /** Each of the API's processes (the primary first, then its workers): resident set now and at its peak, in MiB. */
  memoryByProcess(): Array<{ pid: number; rssMiB: number; peakRssMiB: number }>;
  /** CPU seconds (user + system) used so far, summed over the API's processes: divided by requests, a cost per request that the machine's noise moves less than throughput. */
  cpuSeconds(): number;
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

/**
 * Runs the API in its own process, as in production, so its memory is its own and the load generator's isn't; `main`
 * is another build's compiled entry for an A/B comparison (BENCH_SIGN_COMPARE_MAIN).
 */
export async function startApiProcess(env: Record<string, string>, port: number, main = COMPILED_MAIN): Promise<ApiProcess> {
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\``);
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
  const child: ChildProcess = spawn(
    process.execPath,
    [...(process.env.BENCH_API_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=" + process.env.BENCH_API_PROFILE] : []), main],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        ...deploymentFiles,
        PORT: String(port),
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    },
  );
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited: ${errors.slice(-1000)}`);
    const healthy = await fetch(`${url}/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error("the API did not start in 90 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid!,
    peakRssMiB: () => processTree(child.pid!).reduce((sum, pid) => sum + readStatusKiB(pid, "VmHWM"), 0) / 1024,
    memoryByProcess: () =>
      processTree(child.pid!).map((pid) => ({ pid, rssMiB: readStatusKiB(pid, "VmRSS") / 1024, peakRssMiB: readStatusKiB(pid, "VmHWM") / 1024 })),
    cpuSeconds: () => processTree(child.pid!).reduce((sum, pid) => sum + readCpuSeconds(pid), 0),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    },
  };
}
