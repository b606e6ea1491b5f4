import * as fs from "node:fs";
import { killLiveNodes } from "@raffle/chain/testing";

/**
 * How long a stopping stack may take before it ends its processes the hard way: supervisors send TERM, then KILL a
 * few seconds later, and whatever has not stopped by then must already be gone.
 */
export const SHUTDOWN_BUDGET_MS = 2_000;
/**
 * How often the ancestors are checked. A stack under `npm start` runs as npm → sh → node: when npm is killed, the
 * `sh` in between stays, so the stack is not even orphaned, and no signal reaches it.
 */
const ANCESTOR_CHECK_MS = 500;

/** /proc/<pid>/stat's ppid and start time (the start time tells a pid reused by another process apart). */
function procStat(pid: number): { ppid: number; start: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), start: fields[19] };
  } catch {
    return null;
  }
}

/** This process's ancestors up to (not including) init, nearest first. */
function ancestors(): Array<{ pid: number; start: string }> {
  const found: Array<{ pid: number; start: string }> = [];
  for (let pid = process.ppid; pid > 1 && found.length < 64;) {
    const stat = procStat(pid);
    if (!stat) break;
    found.push({ pid, start: stat.start });
    pid = stat.ppid;
  }
  return found;
}

/**
 * Runs `stop()` once, whatever ends this process: Ctrl-C (SIGINT), SIGTERM, SIGHUP, a crash (an uncaught exception or
 * rejection), or one of its ancestors going away (npm killed above it); then exits, within SHUTDOWN_BUDGET_MS. The chain
 * nodes and child services have their own exit hooks and reaper (@raffle/testing's reapWithThisProcess), so exiting
 * early never leaves them behind. Returns how to end the process this way from the program itself.
 */
export function stopOnAnyEnd(
  stop: () => Promise<void>,
  say: (line: string) => void,
  { what = "the stack", budgetMs = SHUTDOWN_BUDGET_MS }: { what?: string; budgetMs?: number } = {},
): (reason: string, code: number) => void {
  let stopping = false;
  const end = (reason: string, code: number) => {
    if (stopping) {
      // A second Ctrl-C: stop waiting.
      killLiveNodes();
      process.exit(code || 130);
    }
    stopping = true;
    say(`\n${reason}: stopping ${what}...`);
    const late = setTimeout(() => {
      say(`${what} did not stop within ${budgetMs / 1000} s: ending its processes`);
      killLiveNodes();
      process.exit(code || 1);
    }, budgetMs);
    void stop()
      .catch((error: unknown) => say(`stopping failed: ${error instanceof Error ? error.message : String(error)}`))
      .then(() => {
        clearTimeout(late);
        say("stopped");
        process.exit(code);
      });
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => end(signal, 0));
  const crash = (error: unknown) => {
    say(`${what} crashed: ${error instanceof Error ? error.stack : String(error)}`);
    end("crash", 1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  const watched = ancestors();
  setInterval(() => {
    const gone = watched.find(({ pid, start }) => procStat(pid)?.start !== start);
    if (gone) end(`the process that started it (pid ${gone.pid}) is gone`, 0);
  }, ANCESTOR_CHECK_MS).unref();
  return end;
}
