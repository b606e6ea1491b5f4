#!/usr/bin/env node
/**
 * The reaper of one owner process (see process-reaper.ts). Its standard input is a pipe from the owner, on which the
 * owner writes `+<pid>` when it starts a child and `-<pid>` once that child has exited. When the pipe closes, the owner
 * is gone, however it ended (a return, a crash, SIGKILL): every child still listed gets SIGTERM to its process group,
 * and SIGKILL once KILL_AFTER_MS have passed. Plain JavaScript with no imports, so it starts in tens of milliseconds.
 */
const KILL_AFTER_MS = 2_000;
const children = new Set();

function signal(pid, name) {
  // A child started in a process group of its own is taken with its descendants; else the child alone.
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, name);
      return true;
    } catch (error) {
      if (error.code === "EPERM") return true;
    }
  }
  return false;
}

let reaping = false;
function reap() {
  if (reaping) return;
  reaping = true;
  const alive = [...children].filter((pid) => signal(pid, "SIGTERM"));
  if (alive.length === 0) process.exit(0);
  const deadline = Date.now() + KILL_AFTER_MS;
  const check = setInterval(() => {
    const left = alive.filter((pid) => signal(pid, 0));
    if (left.length > 0 && Date.now() < deadline) return;
    for (const pid of left) signal(pid, "SIGKILL");
    clearInterval(check);
    process.exit(0);
  }, 50);
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  const lines = pending.split("\n");
  pending = lines.pop();
  for (const line of lines) {
    const pid = Number(line.slice(1));
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (line[0] === "+") children.add(pid);
    if (line[0] === "-") children.delete(pid);
  }
});
process.stdin.on("end", reap);
process.stdin.on("error", reap);
// Stopped by someone else: the children must not outlive their reaper either.
for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, reap);
// For a watcher that needs to know the handlers are in place (its test); the owner gives it no stdout.
process.stdout.write("reaping\n");
