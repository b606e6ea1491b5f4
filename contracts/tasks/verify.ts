import * as fs from "node:fs";
import * as path from "node:path";
import { scope } from "hardhat/config";
import { HardhatPluginError } from "hardhat/plugins";
import type { HardhatRuntimeEnvironment } from "hardhat/types";

import { compileOnce, friendly } from "./action";

/** The explorer key's one setting, named before anything is sent: hardhat-verify's own error does not say it. */
function requireExplorerKey(hre: HardhatRuntimeEnvironment): void {
  const apiKey = hre.config.etherscan.apiKey;
  const values = typeof apiKey === "string" ? [apiKey] : Object.values(apiKey);
  if (values.every((value) => !value)) {
    throw new HardhatPluginError(
      "raffle",
      "ETHERSCAN_API_KEY is not set: `npx hardhat vars set ETHERSCAN_API_KEY` (one Etherscan key serves every chain)",
    );
  }
}

/** The raffle a merchant's Ignition deployment (`raffle deploy`) made, from its journal's addresses, if it is one. */
function raffleOfDeployment(hre: HardhatRuntimeEnvironment, deploymentId: string): string | undefined {
  const file = path.join(hre.config.paths.ignition, "deployments", deploymentId, "deployed_addresses.json");
  if (!fs.existsSync(file)) return undefined;
  const addresses = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>;
  return Object.entries(addresses).find(([future]) => /^Raffle_[A-Za-z0-9]+#Raffle$/.test(future))?.[1];
}

/**
 * `hardhat ignition verify <deploymentId>` verifies every contract an Ignition deployment created (the platform). A
 * merchant's raffle deployment created nothing itself (the factory did), so Ignition answers IGN1001: for those,
 * `raffle verify` does it.
 */
scope("ignition").task("verify", async (args: { deploymentId: string }, hre, runSuper) => {
  requireExplorerKey(hre);
  const raffle = raffleOfDeployment(hre, args.deploymentId);
  if (raffle) return hre.run({ scope: "raffle", task: "verify" }, { raffle });
  return runSuper(args);
});

/**
 * A merchant's raffle and its ticket contract are created by the factory (inside a call), so Ignition has nothing to
 * verify for them (IGN1001). Their constructor arguments are all on chain: the factory's RaffleDeployed event, the
 * factory's immutables and the ticket's name and symbol.
 */
scope("raffle")
  .task("verify", "Verify merchant raffles and their ticket contracts on the network's explorer")
  .addOptionalParam("raffle", "The raffle to verify (default: every raffle the platform's factory deployed)")
  .setAction(
    friendly(async ({ raffle }: { raffle?: string }, hre) => {
      requireExplorerKey(hre);
      await compileOnce(hre);
      const { RaffleFactory__factory, RaffleTicket__factory, readDeployment } = await import("@raffle/chain");
      const { getAddress } = await import("ethers");
      const { chainContext } = await import("../deploy/context");
      const context = await chainContext(hre);
      const record = readDeployment(context.chainId);
      const factory = RaffleFactory__factory.connect(record.raffleFactory, hre.ethers.provider);
      const filter = factory.filters.RaffleDeployed(undefined, raffle ? getAddress(raffle) : undefined);
      const events = await factory.queryFilter(filter, record.deployBlock);
      if (events.length === 0) {
        throw new Error(
          raffle ? `${raffle} is not a raffle of the factory ${record.raffleFactory} on chain ${context.chainId}` : "the factory has no raffle yet",
        );
      }
      const [exchange, ticketDeployer] = await Promise.all([factory.exchange(), factory.ticketDeployer()]);
      for (const event of events) {
        const { merchant, raffle: raffleAddress, ticket, commission, timeLagBeforeRelease } = event.args;
        const ticketContract = RaffleTicket__factory.connect(ticket, hre.ethers.provider);
        const [ticketName, ticketSymbol] = await Promise.all([ticketContract.name(), ticketContract.symbol()]);
        const settings = [merchant, record.raffleFactory, exchange, ticketDeployer, commission, timeLagBeforeRelease, ticketName, ticketSymbol];
        await hre.run("verify:verify", { address: raffleAddress, contract: "src/Raffle.sol:Raffle", constructorArguments: [settings] });
        await hre.run("verify:verify", {
          address: ticket,
          contract: "src/RaffleTicket.sol:RaffleTicket",
          constructorArguments: [ticketName, ticketSymbol, raffleAddress],
        });
        console.log(`verified raffle ${raffleAddress} and its ticket ${ticket}`);
      }
    }),
  );
