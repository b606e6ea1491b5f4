import * as path from "node:path";

import { contractsDir } from "../contracts-dir";

/*
 * The deployment record's shape and where it lives, without ethers or the contracts' bindings: the API's settings
 * read it in the cluster primary (see ../settings.ts).
 */

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
  /** Holder of SIGNER_ROLE; `platform rotate-signer` keeps it current. */
  signer: string;
  admin: string;
  /** Block of the first platform contract: where an indexer starts. */
  deployBlock: number;
  deployedAt: string;
  /** The Hardhat Ignition deployment (contracts/ignition/deployments/<id>) it was written from, if any. */
  ignitionDeploymentId?: string;
}

/**
 * `DEPLOYMENTS_DIR`, else contracts/deployments. Resolved on use, not at import: a production image has no
 * contracts folder and passes `DEPLOYMENT_FILE` instead.
 */
export function defaultDeploymentsDir(): string {
  return process.env.DEPLOYMENTS_DIR || path.join(contractsDir(), "deployments");
}

export function deploymentPath(chainId: number, dir: string = defaultDeploymentsDir()): string {
  return path.join(dir, `${chainId}.json`);
}
