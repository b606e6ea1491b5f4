import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

/**
 * Children that must not outlive this process, whatever ends it. Node has no PDEATHSIG, and exit hooks do not run on
 * SIGKILL (a test runner's timeout, `kill -9`, a supervisor's TERM-then-KILL), so each process that starts chain nodes
 * or servers also starts one reaper (reaper.js): a tiny process in a group of its own that holds a pipe from this one
 * and, when the pipe closes, takes down every child still listed. One reaper per owner, not one per child, so each
 * child keeps its own pid (the bench reads its memory and CPU by pid) and its own exit code. Polling the parent's pid
 * from each child would need every child's code to cooperate (a Hardhat node's does not) and adds latency.
 */
const REAPER = path.join(__dirname, "reaper.js");

let reaper: ChildProcess | undefined;

function reaperProcess(): ChildProcess {
  if (reaper?.stdin?.writable) return reaper;
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  // detached: Ctrl-C in a terminal signals the foreground group, and the reaper must outlive this process's exit.
  // No stdout or stderr: a caller waiting for this process's pipes to close must not wait for the reaper too.
  reaper = spawn(process.execPath, [REAPER], { detached: true, stdio: ["pipe", "ignore", "ignore"], env });
  reaper.on("error", () => undefined);
  reaper.stdin!.on("error", () => undefined);
  // Neither the reaper nor its pipe keeps this process alive.
  reaper.unref();
  (reaper.stdin as unknown as { unref(): void }).unref();
  return reaper;
}

/** Has `pid` (and its process group, when it leads one) stopped when this process ends, however it ends. */
export function reapWithThisProcess(pid: number): void {
  reaperProcess().stdin!.write(`+${pid}\n`);
}

/** `pid` has exited: the reaper forgets it, so a later process given the same pid is never signalled. */
export function releaseFromReaper(pid: number): void {
  if (reaper?.stdin?.writable) reaper.stdin.write(`-${pid}\n`);
}

/** The reaper's pid, once a child was registered (tests kill it to check that it does its job). */
export function reaperPid(): number | undefined {
  return reaper?.pid;
}
