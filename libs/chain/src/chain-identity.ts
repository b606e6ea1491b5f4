import { ConfigError } from "@raffle/config";

/*
 * The one "does this node serve the right chain?" check of the API, the merchant worker and the tools. A node of
 * another chain is a setting to fix, not an outage: no retry helps (WrongChainError is a ConfigError).
 */

/** What answers `eth_chainId`: any ethers JsonRpcProvider, or a stand-in with the same `send`. */
export interface ChainIdSource {
  send(method: string, params: unknown[]): Promise<unknown>;
}

/** The setting that names a node's URL, and how a message shows the node (the setting, maybe with the URL's origin). */
export interface NodeSetting {
  setting: string;
  /** Defaults to `setting`; never a full URL (its path or query may hold a provider's API key). */
  shown?: string;
}

/** The chain id the node serves, as it answers `eth_chainId` now. */
export async function servedChainId(node: ChainIdSource): Promise<number> {
  return Number(await node.send("eth_chainId", []));
}

/** The sentence that tells an operator a node serves another chain, and what to change. */
export function wrongChainMessage(node: NodeSetting, served: number, expected: number): string {
  return `${node.shown ?? node.setting} serves chain ${served}, not chain ${expected}: point ${node.setting} at a node of chain ${expected}`;
}

/** The node at a chain's URL serves another chain. */
export class WrongChainError extends ConfigError {
  constructor(
    readonly node: NodeSetting,
    readonly servedChainId: number,
    readonly expectedChainId: number,
  ) {
    super(wrongChainMessage(node, servedChainId, expectedChainId));
  }
}

/** Asks the node its chain id: a WrongChainError when it is not `expected`, a network error when it does not answer. */
export async function verifyServedChain(node: ChainIdSource, expected: number, setting: NodeSetting): Promise<void> {
  const served = await servedChainId(node);
  if (served !== expected) throw new WrongChainError(setting, served, expected);
}
