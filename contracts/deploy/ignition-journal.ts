import * as fs from "node:fs";
import * as path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import type { EIP1193Provider } from "@nomicfoundation/ignition-core";

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

interface LostSend {
  futureId: string;
  from: string;
  nonce: number;
}

/** Transactions Ignition gave a nonce to but never recorded as sent: the process died while sending them. */
function lostSends(dir: string): { lost: LostSend[]; lastConfirmedBlock: number } {
  const file = path.join(dir, "journal.jsonl");
  const senders = new Map<string, string>();
  const prepared = new Map<string, LostSend>();
  let lastConfirmedBlock = 0;
  if (!fs.existsSync(file)) return { lost: [], lastConfirmedBlock };
  for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const message = JSON.parse(line) as {
      type: string;
      futureId: string;
      networkInteractionId: number;
      from?: string;
      nonce?: number;
      receipt?: { blockNumber: number };
    };
    const key = `${message.futureId}/${message.networkInteractionId}`;
    if (message.type.endsWith("_EXECUTION_STATE_INITIALIZE") && message.from) senders.set(message.futureId, message.from);
    if (message.type === "WIPE_APPLY") for (const id of [...prepared.keys()].filter((k) => k.startsWith(`${message.futureId}/`))) prepared.delete(id);
    if (message.type === "TRANSACTION_PREPARE_SEND") {
      prepared.set(key, { futureId: message.futureId, from: senders.get(message.futureId) ?? "", nonce: message.nonce! });
    }
    if (message.type === "TRANSACTION_SEND") prepared.delete(key);
    if (message.type === "TRANSACTION_CONFIRM") lastConfirmedBlock = Math.max(lastConfirmedBlock, Number(message.receipt!.blockNumber));
  }
  return { lost: [...prepared.values()], lastConfirmedBlock };
}

/** How far back a lost transaction is looked for; an older one is left to `hardhat ignition track-tx`. */
const SEARCH_BLOCKS = 5_000;

/**
 * Makes a journal resumable after a kill between "nonce given" and "transaction recorded", which Ignition alone
 * stops on (IGN411). A nonce the chain has not used means the transaction never left: the future is wiped (Ignition's
 * own `ignition wipe`) and sent again. A used nonce means it left: it is found on chain and recorded (Ignition's own
 * `ignition track-tx`). Either way the transaction is the same intent, so nothing is done twice.
 */
export async function recoverLostSends(hre: HardhatRuntimeEnvironment, dir: string, log: (line: string) => void): Promise<void> {
  const { lost, lastConfirmedBlock } = lostSends(dir);
  if (lost.length === 0) return;
  const { wipe, trackTransaction } = await import("@nomicfoundation/ignition-core");
  const { HardhatArtifactResolver } = await import("@nomicfoundation/hardhat-ignition/helpers");
  const provider = hre.ethers.provider;
  for (const send of lost) {
    const used = await provider.getTransactionCount(send.from, "pending");
    if (used <= send.nonce) {
      await wipe(dir, new HardhatArtifactResolver(hre), send.futureId);
      log(`${send.futureId}: its transaction (nonce ${send.nonce}) never reached the chain; it is sent again`);
      continue;
    }
    const hash = await findTransaction(hre, send, lastConfirmedBlock);
    if (!hash) {
      log(
        `${send.futureId}: nonce ${send.nonce} of ${send.from} was used by a transaction not found in the last ${SEARCH_BLOCKS} blocks; Ignition explains what to do`,
      );
      continue;
    }
    await trackTransaction(dir, hash, withTransactionChainId(hre), 1);
    log(`${send.futureId}: its transaction ${hash} was sent before the interruption; Ignition now tracks it`);
  }
}

async function findTransaction(hre: HardhatRuntimeEnvironment, send: LostSend, from: number): Promise<string | undefined> {
  const latest = await hre.ethers.provider.getBlockNumber();
  for (let number = latest; number >= Math.max(from, latest - SEARCH_BLOCKS); number -= 1) {
    const block = await hre.ethers.provider.getBlock(number, true);
    const match = block?.prefetchedTransactions.find((tx) => tx.from.toLowerCase() === send.from.toLowerCase() && tx.nonce === send.nonce);
    if (match) return match.hash;
  }
  return undefined;
}

/**
 * The provider for Ignition's track-tx, filling in `chainId` of a legacy transaction when the node leaves it out:
 * Hardhat's node does, Ignition signs legacy transactions on Polygon chains, and its tracker needs the field.
 */
function withTransactionChainId(hre: HardhatRuntimeEnvironment): EIP1193Provider {
  const provider = hre.network.provider;
  return {
    request: async (args) => {
      const answer = (await provider.request(args)) as Record<string, unknown> | null;
      if (args.method !== "eth_getTransactionByHash" || answer === null || answer.chainId !== undefined) return answer;
      return { ...answer, chainId: await provider.request({ method: "eth_chainId" }) };
    },
  };
}
