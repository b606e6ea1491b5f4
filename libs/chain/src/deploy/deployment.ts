import * as fs from "node:fs";
import type { Provider } from "ethers";

import { RaffleFactory__factory } from "../typechain";
import { defaultDeploymentsDir, deploymentPath, type PlatformDeployment } from "./deployment-path";

export * from "./deployment-path";

export function writeDeployment(deployment: PlatformDeployment, dir: string = defaultDeploymentsDir()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = deploymentPath(deployment.chainId, dir);
  fs.writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
  return file;
}

export function readDeployment(chainId: number, dir: string = defaultDeploymentsDir()): PlatformDeployment {
  const file = deploymentPath(chainId, dir);
  if (!fs.existsSync(file)) throw new Error(`no deployment for chain ${chainId} at ${file}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as PlatformDeployment;
}

const IDENTITY = ["chainId", "exchange", "raffleFactory", "ticketDeployer"] as const;

/**
 * Writes the record of a finished deployment, but never over the record of another one: a file naming other
 * contracts is the only copy the API and the worker read, and losing it silently strands a live platform. A record
 * of the same contracts is updated, keeping what administration tasks maintain (the current signer) and the earliest
 * deploy block.
 */
export function saveDeployment(deployment: PlatformDeployment, dir: string = defaultDeploymentsDir()): string {
  const file = deploymentPath(deployment.chainId, dir);
  if (fs.existsSync(file)) {
    const existing = JSON.parse(fs.readFileSync(file, "utf8")) as PlatformDeployment;
    const differs = IDENTITY.filter((key) => String(existing[key]).toLowerCase() !== String(deployment[key]).toLowerCase());
    if (differs.length > 0) {
      throw new Error(
        `refusing to overwrite ${file}: it records another deployment (${differs
          .map((key) => `${key} ${existing[key]} there, ${deployment[key]} now`)
          .join("; ")}). Move it away if that deployment is abandoned.`,
      );
    }
    deployment = { ...deployment, signer: existing.signer, deployBlock: Math.min(existing.deployBlock, deployment.deployBlock) };
  }
  return writeDeployment(deployment, dir);
}

/** A deployment record with the VRF settings read back from the factory, so the record says what the chain says. */
export async function platformRecord(
  provider: Provider,
  base: Omit<PlatformDeployment, "vrfCoordinator" | "vrfKeyHash" | "vrfSubscriptionId" | "deployedAt">,
): Promise<PlatformDeployment> {
  const vrf = await RaffleFactory__factory.connect(base.raffleFactory, provider).vrfConfig();
  return {
    ...base,
    vrfCoordinator: vrf.coordinator,
    vrfKeyHash: vrf.keyHash,
    vrfSubscriptionId: vrf.subscriptionId.toString(),
    deployedAt: new Date().toISOString(),
  };
}
