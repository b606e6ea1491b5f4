import { JsonRpcProvider, Network, Wallet } from "ethers";
import { ConfigError, urlOrigin } from "@raffle/config";

import type { MerchantKey, WorkerChainConfig } from "./config";

/** The node at a chain's RPC URL serves another chain: no retry helps, the setting must change. */
export class ChainMismatchError extends ConfigError {
  constructor(
    readonly chain: Pick<WorkerChainConfig, "chainId" | "rpcUrl" | "rpcUrlSetting">,
    readonly servedChainId: number,
  ) {
    // Only the URL's scheme and host: its path or query may hold a provider's API key.
    super(
      `${chain.rpcUrlSetting} (${urlOrigin(chain.rpcUrl)}) serves chain ${servedChainId}, not chain ${chain.chainId}: ` +
        `point ${chain.rpcUrlSetting} at a node of chain ${chain.chainId}`,
    );
  }
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

  /** Throws ChainMismatchError when the node serves another chain; a network error when it does not answer. */
  async verifyChainId(): Promise<void> {
    const reported = Number(await this.provider.send("eth_chainId", []));
    if (reported !== this.chain.chainId) throw new ChainMismatchError(this.chain, reported);
  }

  /** Whether `address` holds contract code on this chain. */
  async hasContract(address: string): Promise<boolean> {
    return (await this.provider.getCode(address)) !== "0x";
  }

  destroy(): void {
    this.provider.destroy();
  }
}
