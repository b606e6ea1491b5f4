/**
 * `npm run deploy:raffle -- --network <name> --ticket-symbol GOLD ...` (task `raffle deploy`): a merchant deploys a
 * raffle through the platform's factory with the merchant's own key and starts its first round, as a Hardhat Ignition
 * deployment (`chain-<chainId>-raffle-<symbol>`): a re-run finishes an interrupted one and never deploys a second.
 */
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { Wallet, ZeroAddress, getAddress } from "ethers";
import { LOCAL_DEV_KEYS, RaffleFactory__factory, TokenType, readDeployment, wellKnownDevAccountIndex } from "@raffle/chain";

import { raffleModule, type RaffleModuleOptions } from "../ignition/modules/raffle";
import { actor, chainContext, confirmLiveNetwork, interactive, refuseEphemeralNetwork } from "./context";
import { ignitionDeploymentDir, recoverLostSends } from "./ignition-journal";

export interface DeployRaffleArgs {
  ticketName: string;
  ticketSymbol: string;
  priceToken: string;
  priceAmount: string;
  maxTicket: string;
  commissionBps: string;
  timeLagBeforeRelease: string;
  deploymentId?: string;
}

const log = (line: string): void => console.log(`[deploy:raffle] ${line}`);

export async function deployRaffleTask(hre: HardhatRuntimeEnvironment, args: DeployRaffleArgs): Promise<void> {
  refuseEphemeralNetwork(hre);
  const context = await chainContext(hre);
  const deployment = readDeployment(context.chainId);
  const factory = RaffleFactory__factory.connect(deployment.raffleFactory, hre.ethers.provider);
  const demoMerchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant).address;
  const merchant = await actor(hre, "MERCHANT");
  if (!merchant.keyConfigured) merchant.address = context.local ? demoMerchant : merchant.address;

  const problems: string[] = [];
  if (!context.local && !merchant.keyConfigured) {
    problems.push(
      "the merchant key: not configured; set MERCHANT_PRIVATE_KEY (`npx hardhat vars set MERCHANT_PRIVATE_KEY`) or MERCHANT_KEYSTORE_FILE",
    );
  } else if (!context.local && wellKnownDevAccountIndex(merchant.address) !== undefined) {
    problems.push(`the merchant key: ${merchant.address} is Hardhat's public dev account #${wellKnownDevAccountIndex(merchant.address)}`);
  }
  const isNative = args.priceToken.toLowerCase() === "native";
  let token = ZeroAddress;
  try {
    token = isNative ? ZeroAddress : getAddress(args.priceToken);
  } catch {
    problems.push(`--price-token: "${args.priceToken}" is neither "native" nor an address`);
  }
  if (!isNative && token !== ZeroAddress && !(await factory.isPriceToken(token))) {
    problems.push(`--price-token: ${token} is not an allowed price token (the platform admin runs \`platform allow-price-token\`)`);
  }
  const numbers = { priceAmount: 0n, maxTicket: 0n, commissionBps: 0n, timeLagBeforeRelease: 0n };
  for (const name of Object.keys(numbers) as Array<keyof typeof numbers>) {
    if (/^[0-9]+$/.test(args[name])) numbers[name] = BigInt(args[name]);
    else problems.push(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: "${args[name]}" is not a whole number`);
  }
  const symbol = args.ticketSymbol.replace(/[^A-Za-z0-9]/g, "");
  if (!symbol) problems.push("--ticket-symbol: letters or digits needed (it names the deployment)");

  const merchantRole = await factory.MERCHANT_ROLE();
  if (problems.length === 0 && !(await factory.hasRole(merchantRole, merchant.address))) {
    if (!context.local)
      problems.push(
        `${merchant.address} lacks MERCHANT_ROLE on the factory ${deployment.raffleFactory}: ask the platform admin (\`platform grant-merchant\`)`,
      );
    else {
      const admin = await hre.ethers.getSigner(deployment.admin);
      await (await factory.connect(admin).grantRole(merchantRole, merchant.address)).wait();
      log(`local chain: granted MERCHANT_ROLE to ${merchant.address}`);
    }
  }
  if (problems.length > 0)
    throw new Error(`refusing to deploy a raffle on chain ${context.chainId}:\n${problems.map((p) => `  - ${p}`).join("\n")}\nNothing was deployed.`);

  const options: RaffleModuleOptions = {
    id: `Raffle_${symbol}`,
    factory: deployment.raffleFactory,
    config: {
      commission: numbers.commissionBps,
      timeLagBeforeRelease: numbers.timeLagBeforeRelease,
      ticketName: args.ticketName,
      ticketSymbol: args.ticketSymbol,
    },
    firstRound: {
      price: { tokenType: isNative ? TokenType.NATIVE : TokenType.ERC20, token, tokenId: 0n, amount: numbers.priceAmount },
      maxTicket: numbers.maxTicket,
    },
  };
  await confirmLiveNetwork(context, `deploying raffle ${args.ticketSymbol}`);
  const deploymentId = args.deploymentId || `chain-${context.chainId}-raffle-${symbol}`;
  log(
    `merchant ${merchant.address} deploys raffle ${args.ticketSymbol} through factory ${deployment.raffleFactory} (Ignition deployment ${deploymentId})`,
  );
  await recoverLostSends(hre, ignitionDeploymentDir(hre, deploymentId), log);
  const result = await hre.ignition.deploy(raffleModule(options), { deploymentId, defaultSender: merchant.address, displayUi: interactive() });
  const raffle = await result.raffle.getAddress();
  const ticket = await result.ticket.getAddress();
  log(`raffle ${raffle} with ticket ${ticket}; first round started`);
  console.log(JSON.stringify({ raffle, ticket, deploymentId }));
}
