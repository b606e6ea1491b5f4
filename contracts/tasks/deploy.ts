import { scope } from "hardhat/config";

import { compileOnce, friendly } from "./action";

/** The entry points of `npm run deploy:platform` and `npm run deploy:raffle`. */
scope("platform", "Deploy and administer the raffle platform")
  .task(
    "deploy",
    "Deploy the platform (Exchange, ticket deployer, RaffleFactory) with Hardhat Ignition and CREATE2, and write deployments/<chainId>.json",
  )
  .addOptionalParam("parameters", "Parameters file (default: ignition/parameters/<network>.json)")
  .addOptionalParam("deploymentId", "Ignition deployment id (default: chain-<chainId>)")
  .setAction(
    friendly(async (args: { parameters?: string; deploymentId?: string }, hre) => {
      // Compile first: the deploy code needs the bindings a compile generates (a fresh clone has none).
      await compileOnce(hre);
      const { deployPlatformTask } = await import("../deploy/platform");
      await deployPlatformTask(hre, args);
    }),
  );

scope("raffle", "A merchant's raffles")
  .task("deploy", "Deploy a raffle through the platform's factory with the merchant's key, and start its first round")
  .addOptionalParam("ticketName", "Name of the ticket NFT", "Raffle Ticket")
  .addOptionalParam("ticketSymbol", "Symbol of the ticket NFT; it also names the deployment", "TICKET")
  .addOptionalParam("priceToken", `"native" or an allowed ERC20 address`, "native")
  .addOptionalParam("priceAmount", "Ticket price in the token's smallest unit", "10000000000000000")
  .addOptionalParam("maxTicket", "Tickets per round, 0 = no cap", "100")
  .addOptionalParam("commissionBps", "Merchant's share of each pot in basis points", "1000")
  .addOptionalParam("timeLagBeforeRelease", "Seconds before an unclaimed prize may go to the merchant (at least 86400)", "86400")
  .addOptionalParam("deploymentId", "Ignition deployment id (default: chain-<chainId>-raffle-<symbol>)")
  .setAction(
    friendly(async (args, hre) => {
      await compileOnce(hre);
      const { deployRaffleTask } = await import("../deploy/raffle");
      await deployRaffleTask(hre, args);
    }),
  );
