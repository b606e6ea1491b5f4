import { JsonRpcProvider, Network, Wallet } from "ethers";
import { verifyServedChain, type NodeSetting } from "@raffle/chain";
import { urlOrigin } from "@raffle/config";

import type { MerchantKey, WorkerChainConfig } from "./config";

/** How messages name a chain's node: its setting, and only the URL's scheme and host (a path may hold an API key). */
export function nodeSetting(chain: Pick<WorkerChainConfig, "rpcUrl" | "rpcUrlSetting">): NodeSetting {
  return { setting: chain.rpcUrlSetting, shown: `${chain.rpcUrlSetting} (${urlOrigin(chain.rpcUrl)})` };
}

/**
 * One chain's RPC provider and the merchant wallet on it. The provider never caches (an auto-mining node would
 * otherwise answer with stale nonces and blocks) and is pinned to the configured chain; `verifyChainId` checks the
 * node agrees. Each chain has its own connection: nothing (provider, wallet, nonces) is shared across chains.
 */
export class ChainConnection {
  readonly provider: JsonRpcProvider;
  readonly wallet: Wallet;

  constructor(
    private readonly chain: Pick<WorkerChainConfig, "chainId" | "rpcUrl" | "rpcUrlSetting">,
    merchantKey: MerchantKey,
  ) {
    const network = Network.from(chain.chainId);
    this.provider = new JsonRpcProvider(chain.rpcUrl, network, { cacheTimeout: -1, staticNetwork: network });
    this.wallet = new Wallet(merchantKey.reveal(), this.provider);
  }

  get chainId(): number {
    return this.chain.chainId;
  }

  /** Throws a WrongChainError when the node serves another chain; a network error when it does not answer. */
  async verifyChainId(): Promise<void> {
    await verifyServedChain(this.provider, this.chain.chainId, nodeSetting(this.chain));
  }

  /** Whether `address` holds contract code on this chain. */
  async hasContract(address: string): Promise<boolean> {
    return (await this.provider.getCode(address)) !== "0x";
  }

  destroy(): void {
    this.provider.destroy();
  }
}
