/**
 * A merchant deploys a raffle through the platform's factory and starts its first round.
 *
 *   RPC_URL=http://127.0.0.1:8545 npm run deploy:raffle
 *
 * Environment: RPC_URL; MERCHANT_PRIVATE_KEY (else, on the local chain only, the well-known demo merchant key);
 * PRICE_TOKEN (ERC20 address, or "native"; default native), PRICE_AMOUNT (smallest unit; default 0.01 ether),
 * MAX_TICKET (default 100, 0 = no cap), COMMISSION_BPS (default 1000), TIME_LAG_BEFORE_RELEASE (seconds, default
 * 86400), TICKET_NAME, TICKET_SYMBOL, DEPLOYMENTS_DIR.
 */
import { ethers } from "hardhat";
import { Wallet, ZeroAddress, getAddress, parseEther } from "ethers";

import { LOCAL_CHAIN_ID, LOCAL_DEV_KEYS, RaffleFactory__factory, TokenType, deployMerchantRaffle, readDeployment } from "@raffle/chain";

const log = (message: string): void => console.log(`[deploy:raffle] ${message}`);

async function main(): Promise<void> {
  const env = process.env;
  const { chainId } = await ethers.provider.getNetwork();
  const deployment = readDeployment(Number(chainId), env.DEPLOYMENTS_DIR || undefined);

  let merchantKey = env.MERCHANT_PRIVATE_KEY;
  if (!merchantKey) {
    if (Number(chainId) !== LOCAL_CHAIN_ID) throw new Error("MERCHANT_PRIVATE_KEY is required off the local chain");
    merchantKey = LOCAL_DEV_KEYS.demoMerchant;
    log("using the well-known local demo merchant key");
  }
  const merchant = new Wallet(merchantKey, ethers.provider);

  const factory = RaffleFactory__factory.connect(deployment.raffleFactory, ethers.provider);
  const merchantRole = await factory.MERCHANT_ROLE();
  if (!(await factory.hasRole(merchantRole, merchant.address))) {
    if (Number(chainId) !== LOCAL_CHAIN_ID) {
      throw new Error(`${merchant.address} lacks MERCHANT_ROLE on the factory; ask the platform admin`);
    }
    const [admin] = await ethers.getSigners();
    await (await factory.connect(admin).grantRole(merchantRole, merchant.address)).wait();
    log(`local chain: granted MERCHANT_ROLE to ${merchant.address}`);
  }

  const priceToken = (env.PRICE_TOKEN || "native").toLowerCase();
  const isNative = priceToken === "native";
  const price = {
    tokenType: isNative ? TokenType.NATIVE : TokenType.ERC20,
    token: isNative ? ZeroAddress : getAddress(priceToken),
    tokenId: 0n,
    amount: BigInt(env.PRICE_AMOUNT || parseEther("0.01").toString()),
  };
  const result = await deployMerchantRaffle(
    merchant,
    {
      factory: deployment.raffleFactory,
      commission: BigInt(env.COMMISSION_BPS || "1000"),
      timeLagBeforeRelease: BigInt(env.TIME_LAG_BEFORE_RELEASE || "86400"),
      ticketName: env.TICKET_NAME || "Raffle Ticket",
      ticketSymbol: env.TICKET_SYMBOL || "TICKET",
      firstRound: { price, maxTicket: BigInt(env.MAX_TICKET || "100") },
    },
    log,
  );
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(`[deploy:raffle] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
