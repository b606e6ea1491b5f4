import { scope } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";

/**
 * `hardhat ignition verify <deploymentId>` verifies every contract of an Ignition deployment on the explorer. Its own
 * error for a missing key does not say which setting to fill; this says it first.
 */
scope("ignition").task("verify", async (args, hre, runSuper) => {
  const apiKey = hre.config.etherscan.apiKey;
  const values = typeof apiKey === "string" ? [apiKey] : Object.values(apiKey);
  if (values.every((value) => !value)) {
    throw new HardhatPluginError(
      "raffle",
      "ETHERSCAN_API_KEY is not set: `npx hardhat vars set ETHERSCAN_API_KEY` (one Etherscan key serves every chain)",
    );
  }
  return runSuper(args);
});
