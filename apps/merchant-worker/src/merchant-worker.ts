import { ConfigError } from "@raffle/config";

import type { ChainRunner } from "./chain-runner";
import { overallStatus, type HealthReport } from "./health-server";
import { errorMessage, type WorkerLogger } from "./logger";
import type { RaffleRunRecord } from "./run-status";

export interface MerchantWorkerOptions {
  merchant: string;
  /** One runner per configured chain, in CHAIN_IDS order. */
  chains: ChainRunner[];
  logger: WorkerLogger;
}

/**
 * The merchant's round automation on every configured chain: one isolated runner per chain (its own node, nonces,
 * raffle list and schedules), one merchant key and one API for all. /health and `--once` cover every chain.
 */
export class MerchantWorker {
  private readonly startedAt = new Date().toISOString();

  constructor(private readonly options: MerchantWorkerOptions) {}

  get chainIds(): number[] {
    return this.options.chains.map((chain) => chain.chainId);
  }

  /** The runner of one chain; throws when the chain is not configured. */
  chain(chainId: number): ChainRunner {
    const runner = this.options.chains.find((chain) => chain.chainId === chainId);
    if (!runner) throw new ConfigError(`chain ${chainId} is not configured (chains: ${this.chainIds.join(", ")})`);
    return runner;
  }

  /**
   * Starts every chain at once. Resolves when each chain runs or retries its unreachable node in the background;
   * rejects when a chain fails fatally at its first attempt (node of another chain, refused API key).
   */
  async start(): Promise<void> {
    const { logger } = this.options;
    logger.info("merchant worker starting", { merchant: this.options.merchant, chainIds: this.chainIds });
    await Promise.all(this.options.chains.map((chain) => chain.start()));
    const chains = this.options.chains.map((chain) => chain.health()).map(({ chainId, state, raffles }) => ({ chainId, state, raffles }));
    logger.info("merchant worker started", { chains });
  }

  /**
   * One rotation of every raffle of every chain (or of `chainId` only), then done. With `contract`, each chain that
   * lists it or holds its code rotates it. Resolves false when a chain or a rotation failed, or when no chain has
   * `contract`; a node of another chain is a configuration error, thrown once every other chain has run.
   */
  async runOnce(contract?: string, chainId?: number): Promise<boolean> {
    const chains = chainId === undefined ? this.options.chains : [this.chain(chainId)];
    const results = await Promise.allSettled(chains.map((chain) => chain.runOnce(contract)));
    const configError = results.find((result) => result.status === "rejected" && result.reason instanceof ConfigError);
    if (configError) throw (configError as PromiseRejectedResult).reason;
    let ok = true;
    for (const [index, result] of results.entries()) {
      if (result.status === "fulfilled") ok &&= result.value.ok;
      else {
        ok = false;
        this.options.logger.error("chain's run failed", { chainId: chains[index].chainId, error: errorMessage(result.reason) });
      }
    }
    const found = results.some((result) => result.status !== "fulfilled" || result.value.found);
    if (contract && !found) {
      this.options.logger.error("contract is neither listed nor deployed on any configured chain", {
        contract,
        chainIds: chains.map((c) => c.chainId),
      });
      return false;
    }
    return ok;
  }

  /** The last run of the raffle at `address` on `chainId`. */
  lastRun(chainId: number, address: string): RaffleRunRecord | undefined {
    return this.chain(chainId).rotator.lastRun(address);
  }

  health(): HealthReport {
    const chains = this.options.chains.map((chain) => chain.health());
    const raffles = this.options.chains.flatMap((chain) => chain.rotator.report().runs);
    return { status: overallStatus(chains, raffles), merchant: this.options.merchant, startedAt: this.startedAt, chains, raffles };
  }

  /** Resolves when the runs started by ticks so far have finished, on every chain. */
  async idle(): Promise<void> {
    await Promise.all(this.options.chains.map((chain) => chain.idle()));
  }

  /** Stops every chain (timers, background retries, runs under way within a grace period) and closes the nodes. */
  async stop(): Promise<void> {
    await Promise.all(this.options.chains.map((chain) => chain.stop()));
  }
}
