import { killLiveNodes } from "@raffle/chain/testing";

/**
 * How long a stopping stack may take before it ends its processes the hard way: supervisors send TERM, then KILL a
 * few seconds later, and whatever has not stopped by then must already be gone.
 */
export const SHUTDOWN_BUDGET_MS = 2_000;
/** How often the parent's pid is checked: a stack under `npm` is orphaned, not signalled, when npm is SIGKILLed. */
const PARENT_CHECK_MS = 500;

/**
 * Runs `stop()` once, whatever ends this process: Ctrl-C (SIGINT), SIGTERM, SIGHUP, a crash (an uncaught exception or
 * rejection), or its parent going away (npm killed underneath it); then exits, within SHUTDOWN_BUDGET_MS. The chain
 * nodes and child services have their own exit hooks and reaper (@raffle/testing's reapWithThisProcess), so exiting
 * early never leaves them behind. Returns how to end the process this way from the program itself.
 */
export function stopOnAnyEnd(stop: () => Promise<void>, say: (line: string) => void): (reason: string, code: number) => void {
  let stopping = false;
  const end = (reason: string, code: number) => {
    if (stopping) {
      // A second Ctrl-C: stop waiting.
      killLiveNodes();
      process.exit(code || 130);
    }
    stopping = true;
    say(`\n${reason}: stopping the stack...`);
    const late = setTimeout(() => {
      say(`the stack did not stop within ${SHUTDOWN_BUDGET_MS / 1000} s: ending its processes`);
      killLiveNodes();
      process.exit(code || 1);
    }, SHUTDOWN_BUDGET_MS);
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
    say(`the stack crashed: ${error instanceof Error ? error.stack : String(error)}`);
    end("crash", 1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) end(`its parent (pid ${parent}) is gone`, 0);
  }, PARENT_CHECK_MS).unref();
  return end;
}
