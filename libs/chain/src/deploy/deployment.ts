import * as fs from "node:fs";
import * as path from "node:path";

import { contractsDir } from "../contracts-dir";

/** Addresses and settings of one chain's platform deployment: one JSON file per chain id. */
export interface PlatformDeployment {
  chainId: number;
  exchange: string;
  raffleFactory: string;
  ticketDeployer: string;
  vrfCoordinator: string;
  vrfKeyHash: string;
  vrfSubscriptionId: string;
  /** True when the coordinator is Chainlink's VRFCoordinatorV2_5Mock (local chains). */
  vrfIsMock: boolean;
  signer: string;
  admin: string;
  /** Block of the first platform contract: where an indexer starts. */
  deployBlock: number;
  deployedAt: string;
}

export const DEFAULT_DEPLOYMENTS_DIR = path.join(contractsDir(), "deployments");

export function deploymentPath(chainId: number, dir: string = DEFAULT_DEPLOYMENTS_DIR): string {
  return path.join(dir, `${chainId}.json`);
}

export function writeDeployment(deployment: PlatformDeployment, dir: string = DEFAULT_DEPLOYMENTS_DIR): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = deploymentPath(deployment.chainId, dir);
  fs.writeFileSync(file, `${JSON.stringify(deployment, null, 2)}\n`);
  return file;
}

export function readDeployment(chainId: number, dir: string = DEFAULT_DEPLOYMENTS_DIR): PlatformDeployment {
  const file = deploymentPath(chainId, dir);
  if (!fs.existsSync(file)) throw new Error(`no deployment for chain ${chainId} at ${file}`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as PlatformDeployment;
}
