import { JsonRpcProvider, Network, Wallet } from "ethers";

import type { WorkerConfig } from "./config";

/**
 * The RPC provider and the merchant wallet. The provider never caches (an auto-mining node would otherwise answer
 * with stale nonces and blocks) and is pinned to the configured chain; `verifyChainId` checks the node agrees.
 */
export class ChainConnection {
  readonly provider: JsonRpcProvider;
  readonly wallet: Wallet;

  constructor(private readonly config: Pick<WorkerConfig, "rpcUrl" | "chainId" | "merchantKey">) {
    const network = Network.from(config.chainId);
    this.provider = new JsonRpcProvider(config.rpcUrl, network, { cacheTimeout: -1, staticNetwork: network });
    this.wallet = new Wallet(config.merchantKey.reveal(), this.provider);
  }

  async verifyChainId(): Promise<void> {
    const reported = Number(await this.provider.send("eth_chainId", []));
    if (reported !== this.config.chainId) throw new Error(`RPC_URL serves chain ${reported}, CHAIN_ID is ${this.config.chainId}`);
  }

  destroy(): void {
    this.provider.destroy();
  }
}
