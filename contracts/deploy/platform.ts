/**
 * Deploys the platform (Exchange, ticket deployer, RaffleFactory, and Chainlink's VRF mock on local chains) to the
 * network named by the environment, and writes contracts/deployments/<chainId>.json.
 *
 *   RPC_URL=http://127.0.0.1:8545 npm run deploy:platform
 *
 * Environment: RPC_URL, DEPLOYER_PRIVATE_KEY (else the node's first unlocked account), SIGNER_ADDRESS (else the
 * local dev signer), MERCHANT_ADDRESSES (comma-separated), VRF_COORDINATOR, VRF_KEY_HASH, VRF_SUBSCRIPTION_ID,
 * VRF_CALLBACK_GAS_LIMIT, VRF_REQUEST_CONFIRMATIONS, VRF_RANDOMNESS_TIMEOUT (seconds).
 */
import { ethers } from "hardhat";
import { Wallet } from "ethers";

import { LOCAL_DEV_KEYS, LOCAL_VRF_SETTINGS, deployPlatform, writeDeployment } from "@raffle/chain";

async function main(): Promise<void> {
  const [deployer] = await ethers.getSigners();
  const env = process.env;
  const coordinator = env.VRF_COORDINATOR || undefined;
  const deployment = await deployPlatform(
    deployer,
    {
      signer: env.SIGNER_ADDRESS || new Wallet(LOCAL_DEV_KEYS.voucherSigner).address,
      merchants: (env.MERCHANT_ADDRESSES ?? "")
        .split(",")
        .map((address) => address.trim())
        .filter(Boolean),
      vrf: {
        coordinator,
        keyHash: env.VRF_KEY_HASH || LOCAL_VRF_SETTINGS.keyHash,
        subscriptionId: env.VRF_SUBSCRIPTION_ID ? BigInt(env.VRF_SUBSCRIPTION_ID) : undefined,
        callbackGasLimit: Number(env.VRF_CALLBACK_GAS_LIMIT || LOCAL_VRF_SETTINGS.callbackGasLimit),
        requestConfirmations: Number(env.VRF_REQUEST_CONFIRMATIONS || LOCAL_VRF_SETTINGS.requestConfirmations),
        randomnessTimeout: Number(env.VRF_RANDOMNESS_TIMEOUT || LOCAL_VRF_SETTINGS.randomnessTimeout),
      },
    },
    (message) => console.log(`[deploy:platform] ${message}`),
  );
  const file = writeDeployment(deployment, env.DEPLOYMENTS_DIR || undefined);
  console.log(`[deploy:platform] wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(`[deploy:platform] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
