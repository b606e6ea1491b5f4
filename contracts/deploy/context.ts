import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { ZeroAddress, getAddress } from "ethers";

import { KEY_ROLES, keySource, type KeyRole } from "./keys";
import { isKeyedNetwork } from "./networks";

/** What every deploy script and task needs to know first: which chain, whether it is a dev chain, who acts. */
export interface ChainContext {
  chainId: number;
  local: boolean;
  network: string;
}

export async function chainContext(hre: HardhatRuntimeEnvironment): Promise<ChainContext> {
  const chainId = Number(await hre.network.provider.request({ method: "eth_chainId" }));
  return { chainId, local: hre.config.raffle.localChainIds.includes(chainId), network: hre.network.name };
}

export interface Actor {
  address: string;
  /** False when the address is a node's unlocked account rather than a key configured for this network. */
  keyConfigured: boolean;
  /** The setting that configures this role's key, for messages. */
  keySetting: string;
}

/**
 * The account acting as `role`: `--from` when given (one of the network's accounts), else on a real network the key
 * configured for the role, else (dev nodes) the node's account `devIndex`.
 */
export async function actor(hre: HardhatRuntimeEnvironment, role: KeyRole, from?: string, devIndex = 0): Promise<Actor> {
  const accounts = ((await hre.network.provider.request({ method: "eth_accounts" })) as string[]).map((account) => account.toLowerCase());
  const keyed = isKeyedNetwork(hre.network.name);
  const keySetting = `${role}_PRIVATE_KEY`;
  if (from) {
    if (!accounts.includes(from.toLowerCase())) {
      throw new Error(`--from ${from} is not an account of network ${hre.network.name} (configure its key first)`);
    }
    const configured = keyed && KEY_ROLES.some((other) => keySource(other)?.address.toLowerCase() === from.toLowerCase());
    return { address: getAddress(from), keyConfigured: configured, keySetting };
  }
  const source = keyed ? keySource(role) : undefined;
  if (source) return { address: source.address, keyConfigured: true, keySetting };
  return { address: accounts[devIndex] ? getAddress(accounts[devIndex]) : ZeroAddress, keyConfigured: false, keySetting };
}

/**
 * Hardhat Ignition's own guard against deploying to a live network by mistake: ask unless
 * HARDHAT_IGNITION_CONFIRM_DEPLOYMENT is set (scripts and tests set it).
 */
export async function confirmLiveNetwork(context: ChainContext, action: string): Promise<void> {
  if (context.local || process.env.HARDHAT_IGNITION_CONFIRM_DEPLOYMENT !== undefined) return;
  if (!process.stdin.isTTY) {
    throw new Error(
      `${action} on network ${context.network} (${context.chainId}) needs a confirmation: run it in a terminal or set HARDHAT_IGNITION_CONFIRM_DEPLOYMENT=1`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: enquirer } = require("enquirer");
  const answer = (await enquirer.prompt({
    type: "confirm",
    name: "ok",
    message: `Confirm ${action} on network ${context.network} (${context.chainId})?`,
    initial: false,
  })) as { ok: boolean };
  if (!answer.ok) throw new Error("cancelled: nothing was sent");
}

/** Deploying to the in-process network leaves nothing behind once the command exits. */
export function refuseEphemeralNetwork(hre: HardhatRuntimeEnvironment): void {
  if (hre.network.name === "hardhat") {
    throw new Error(
      "the in-process hardhat network vanishes when the command exits: pass --network localhost (a running `hardhat node`) or a real network",
    );
  }
}

/**
 * Whether Ignition's live display may run: it redraws its batches in place, which a log file or a pipe receives as a
 * new copy of every batch at each status change. Elsewhere the deploy prints its own lines.
 */
export function interactive(): boolean {
  return process.stdout.isTTY === true;
}
