import * as fs from "node:fs";
import * as path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";

/** Reading what Hardhat Ignition keeps in ignition/deployments/<id>: its journal and the addresses it deployed. */

export function ignitionDeploymentDir(hre: HardhatRuntimeEnvironment, deploymentId: string): string {
  return path.join(hre.config.paths.ignition, "deployments", deploymentId);
}

/** Future id (`Module#Future`) → address, for what the journal says is deployed. */
export function deployedAddresses(dir: string): Record<string, string> {
  const file = path.join(dir, "deployed_addresses.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>) : {};
}

/** The earliest block of a confirmed transaction of the given futures: where an indexer of them starts. */
export function firstConfirmedBlock(dir: string, futureIds: string[]): number | undefined {
  const file = path.join(dir, "journal.jsonl");
  if (!fs.existsSync(file)) return undefined;
  let first: number | undefined;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.includes("TRANSACTION_CONFIRM")) continue;
    const message = JSON.parse(line) as { type: string; futureId: string; receipt: { blockNumber: number | string } };
    if (message.type !== "TRANSACTION_CONFIRM" || !futureIds.includes(message.futureId)) continue;
    const block = Number(message.receipt.blockNumber);
    first = first === undefined ? block : Math.min(first, block);
  }
  return first;
}

/**
 * A journal of a local dev chain that was restarted since describes contracts that no longer exist; resuming it would
 * fail. On local chains only, such a journal is set aside (renamed, never deleted); on real chains a journal is the
 * only record of money spent and is always kept.
 */
export async function setAsideStaleLocalJournal(hre: HardhatRuntimeEnvironment, dir: string, log: (line: string) => void): Promise<void> {
  const addresses = Object.values(deployedAddresses(dir));
  if (addresses.length === 0) return;
  for (const address of addresses) {
    if ((await hre.ethers.provider.getCode(address)) !== "0x") return;
  }
  const aside = `${dir}.stale-${Date.now()}`;
  fs.renameSync(dir, aside);
  log(`the local chain was restarted: its old Ignition journal is moved to ${aside}`);
}
