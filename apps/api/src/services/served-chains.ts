import { Inject, Injectable, type OnApplicationBootstrap } from "@nestjs/common";
import { Wallet, type JsonRpcProvider } from "ethers";
import { FastVoucherSigner, SigningThread } from "@raffle/chain";

import type { ApiConfig, ChainConfig } from "../config/api-config";
import { jsonLog } from "../logging/logger";
import { ApiMetrics } from "../metrics/api-metrics";
import { ChainNotServedError } from "./errors";
import { StartupError } from "./api-database";
import { ChainMonitor } from "./chain-monitor";
import { chainProvider } from "./chain-provider";
import { API_CONFIG } from "./tokens";

/** What the API holds for one chain it serves: its node, the checks of that node, and the keys that sign for it. */
export class ServedChain {
  readonly chainId: number;
  readonly provider: JsonRpcProvider;
  readonly monitor: ChainMonitor;
  /** Per key (current, and next during a rotation): purchase vouchers under this chain's EIP-712 domain, and claims. */
  private readonly signers: Record<"current" | "next", { voucher: FastVoucherSigner; claim: Wallet } | undefined>;

  constructor(
    readonly config: ChainConfig,
    checkIntervalMs: number,
    metrics?: ApiMetrics,
    signingThread?: SigningThread,
  ) {
    this.chainId = config.chainId;
    this.provider = chainProvider(config.rpcUrl, config.chainId, metrics ? () => metrics.rpcError(config.chainId) : undefined);
    this.monitor = new ChainMonitor(config, this.provider, checkIntervalMs);
    const signersOf = (key: string) => ({
      voucher: new FastVoucherSigner(key, config.chainId, config.deployment.exchange, signingThread),
      claim: new Wallet(key),
    });
    this.signers = {
      current: signersOf(config.signerPrivateKey),
      next: config.nextSignerPrivateKey ? signersOf(config.nextSignerPrivateKey) : undefined,
    };
  }

  /**
   * Purchase vouchers, signed with the key that holds SIGNER_ROLE (the monitor's choice: the next key as soon as it
   * holds the role during a rotation, else the current one).
   */
  get voucherSigner(): FastVoucherSigner {
    return (this.signers[this.monitor.activeKey] ?? this.signers.current)!.voucher;
  }

  /** Claim vouchers (rare: ethers' own signer is fast enough), with the same key as purchase vouchers. */
  get claimSigner(): Wallet {
    return (this.signers[this.monitor.activeKey] ?? this.signers.current)!.claim;
  }

  /** The addresses of this chain's voucher keys (the next one too during a rotation): a voucher this API signed recovers to one. */
  get signerAddresses(): string[] {
    return [this.signers.current, this.signers.next].filter((signer) => signer !== undefined).map((signer) => signer.claim.address);
  }

  get deployment() {
    return this.config.deployment;
  }
}

/**
 * Every chain this deployment serves. A raffle, a claim or a query of another chain is refused (`chainNotServed`):
 * its vouchers would carry a domain no Exchange of that chain accepts.
 */
@Injectable()
export class ServedChains implements OnApplicationBootstrap {
  private readonly byId: Map<number, ServedChain>;
  private started: Promise<void> | null = null;
  /**
   * One thread signs the vouchers of every chain, beside the event loop that serves the requests: about a quarter of
   * a sign request's CPU leaves the loop (measured A/B against signing on the loop; the loop stays the fallback when
   * the thread fails).
   */
  private readonly signingThread: SigningThread;

  constructor(@Inject(API_CONFIG) config: ApiConfig, metrics: ApiMetrics) {
    this.signingThread = new SigningThread(reportSigningThreadFailure);
    this.byId = new Map(
      config.chains.map((chain) => [chain.chainId, new ServedChain(chain, config.chainCheckIntervalMs, metrics, this.signingThread)]),
    );
  }

  get ids(): number[] {
    return [...this.byId.keys()];
  }

  all(): ServedChain[] {
    return [...this.byId.values()];
  }

  /** The chain `chainId`; a ChainNotServedError (the `chainNotServed` problem at the edge) when it is not served. */
  get(chainId: number): ServedChain {
    const chain = this.byId.get(chainId);
    if (!chain) throw new ChainNotServedError(chainId, this.ids);
    return chain;
  }

  /**
   * The first check of every chain, at once. A node that answers wrongly (another chain, no contracts, no signer role)
   * stops the API, each such chain named; a node that does not answer yet does not: it may come up later.
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      const results = await Promise.allSettled(this.all().map((chain) => chain.monitor.start()));
      const failures = results.flatMap((result, index) =>
        result.status === "rejected" ? [{ chain: this.all()[index], error: result.reason as Error }] : [],
      );
      if (failures.length === 0) return;
      const several = this.byId.size > 1;
      throw new StartupError(failures.map(({ chain, error }) => (several ? `chain ${chain.chainId}: ${error.message}` : error.message)).join("; "));
    })();
    return this.started;
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** Stops the checks, closes the nodes' connections (after the indexers stopped) and ends the signing thread. */
  async close(): Promise<void> {
    for (const chain of this.all()) {
      chain.monitor.stop();
      chain.provider.destroy();
    }
    await this.signingThread.close();
  }
}

function reportSigningThreadFailure(error: Error): void {
  jsonLog("error", "the voucher signing thread failed: vouchers are signed on the event loop from now on", {
    component: "ticket-sign",
    error: error.message,
  });
}
