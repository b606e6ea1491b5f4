import { HardhatPluginError } from "hardhat/plugins";

/** Hardhat's own switch: the error's stack and causes are wanted. */
const showStackTraces = (): boolean => process.argv.includes("--show-stack-traces");

/**
 * Task actions refuse with messages meant for the operator, shown once: Hardhat prints a plugin error's message, then
 * (on any Linux machine without a display, which it takes for a CI server) the error again with its stack, then each
 * cause with its own copy of the message. So unless --show-stack-traces is given the error carries no cause, and its
 * stack is one line pointing at that switch.
 */
export function friendly<A, H>(action: (args: A, hre: H) => Promise<unknown>): (args: A, hre: H) => Promise<unknown> {
  return async (args, hre) => {
    try {
      return await action(args, hre);
    } catch (error) {
      if (error instanceof HardhatPluginError || !(error instanceof Error)) throw error;
      if (showStackTraces()) throw new HardhatPluginError("raffle", error.message, error);
      const refusal = new HardhatPluginError("raffle", error.message);
      // What Hardhat's errors print when inspected (hardhat/internal/core/errors.js keeps it in `_stack`).
      (refusal as unknown as { _stack: string })._stack = "(run with --show-stack-traces for where it came from)";
      throw refusal;
    }
  };
}

let compiled = false;

/**
 * Compiles once per process before a task needs the generated bindings (a fresh clone has none). Once is enough: a
 * Hardhat process does not see sources change under it, and tests running many tasks in one process stay fast.
 */
export async function compileOnce(hre: { run(name: string, args?: Record<string, unknown>): Promise<unknown> }): Promise<void> {
  if (compiled || buildIsFrozen()) return;
  await hre.run("compile", { quiet: true });
  compiled = true;
}

/**
 * Set by `npm test` for its test phase, after its build phase compiled everything: suites run side by side, and a task
 * that compiled then would rewrite the artifacts and the generated bindings while another suite reads them.
 */
export function buildIsFrozen(): boolean {
  return process.env.RAFFLE_FROZEN_BUILD === "1";
}
