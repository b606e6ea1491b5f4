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
