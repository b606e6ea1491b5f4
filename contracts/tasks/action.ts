import { HardhatPluginError } from "hardhat/plugins";

/**
 * Task actions refuse with messages meant for the operator: shown as Hardhat shows a plugin's error (the message,
 * no stack trace unless --show-stack-traces), never as "An unexpected error occurred".
 */
export function friendly<A, H>(action: (args: A, hre: H) => Promise<unknown>): (args: A, hre: H) => Promise<unknown> {
  return async (args, hre) => {
    try {
      return await action(args, hre);
    } catch (error) {
      if (error instanceof HardhatPluginError || !(error instanceof Error)) throw error;
      throw new HardhatPluginError("raffle", error.message, error);
    }
  };
}

let compiled = false;

/**
 * Compiles once per process before a task needs the generated bindings (a fresh clone has none). Once is enough: a
 * Hardhat process does not see sources change under it, and tests running many tasks in one process stay fast.
 */
export async function compileOnce(hre: { run(name: string, args?: Record<string, unknown>): Promise<unknown> }): Promise<void> {
  if (compiled) return;
  await hre.run("compile", { quiet: true });
  compiled = true;
}
