import { spawn, type ChildProcess } from "node:child_process";
import { reapWithThisProcess, releaseFromReaper } from "@raffle/testing";

/** A long-running child (an API, a worker) in its own process group, with the tail of its output kept for errors. */
export interface ChildService {
  readonly process: ChildProcess;
  /** The last 20 kB of its stdout and stderr. */
  output(): string;
  /** Whether it has exited (on its own or by stop()). */
  exited(): boolean;
  /** SIGTERM to its group; SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 20_000;
const STOP_GRACE_MS = 10_000;

/**
 * Children started here and still running: taken down with this process, so none outlives a crashed test run (the
 * exit hook below), nor one that is SIGKILLed (the reaper).
 */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export function spawnChildService(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): ChildService {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => running.forEach((child) => killGroup(child, "SIGKILL")));
  }
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  if (child.pid) reapWithThisProcess(child.pid);
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => {
    running.delete(child);
    if (child.pid) releaseFromReaper(child.pid);
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    process: child,
    output: () => output,
    exited: hasExited,
    stop: async () => {
      if (hasExited()) return;
      killGroup(child, "SIGTERM");
      const late = setTimeout(() => killGroup(child, "SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(late);
    },
  };
}
