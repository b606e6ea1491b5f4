import { formatEther } from "ethers";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

import type { HealthReport } from "./health-server";
import { errorMessage, type WorkerLogger } from "./logger";
import type { RelayerMetricsSink } from "./relayer/chain-relayer";
import type { RaffleRunRecord } from "./run-status";

/**
 * The worker's Prometheus metrics (served at /metrics beside /health). Labels: the chain id and, for per-raffle
 * counters, the raffle's address — bounded by the merchant's own raffles.
 */
export class WorkerMetrics implements RelayerMetricsSink {
  readonly registry = new Registry();
  private readonly rotations = new Counter({
    name: "raffle_worker_rotations_total",
    help: "Rounds rotated (ended and the next started) by this worker, by chain and raffle.",
    labelNames: ["chainId", "raffle"] as const,
    registers: [this.registry],
  });
  private readonly failures = new Counter({
    name: "raffle_worker_rotation_failures_total",
    help: "Rotation runs that failed (retried at the next tick, or skipped until fixed when permanent), by chain and raffle.",
    labelNames: ["chainId", "raffle"] as const,
    registers: [this.registry],
  });
  private readonly feeBumps = new Counter({
    name: "raffle_worker_fee_bumps_total",
    help: "Transactions replaced with a higher fee because they were not mined in time, by chain and raffle.",
    labelNames: ["chainId", "raffle"] as const,
    registers: [this.registry],
  });
  private readonly gasBalance = new Gauge({
    name: "raffle_worker_gas_balance_wei",
    help: "The merchant account's native balance (pays the rotations' gas), by chain, as last read.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });

  private readonly relaySent = new Counter({
    name: "raffle_worker_relay_jobs_sent_total",
    help: "Gasless jobs (purchases, claims, refunds) this relayer sent a first transaction for, by chain.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });
  private readonly relayResent = new Counter({
    name: "raffle_worker_relay_resends_total",
    help: "Relayed transactions resent under the same nonce (stuck or dropped) or after a restart, by chain.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });
  private readonly relayMined = new Counter({
    name: "raffle_worker_relay_jobs_mined_total",
    help: "Gasless jobs reported mined by this relayer, by chain.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });
  private readonly relayFailed = new Counter({
    name: "raffle_worker_relay_jobs_failed_total",
    help: "Gasless jobs reported failed by this relayer, by chain and failure code (a contract error's name in camelCase, or the relayer's own).",
    labelNames: ["chainId", "failureCode"] as const,
    registers: [this.registry],
  });

  constructor(readonly lowGasBalanceWei: bigint) {
    // prom-client's process and Node.js series (CPU, memory, heap, event-loop lag, GC), in this registry.
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "raffle_worker_gas_balance_threshold_wei",
      help: "LOW_GAS_BALANCE_ETH in wei: below it the worker logs a warning (alert on balance < threshold).",
      registers: [this.registry],
    }).set(Number(lowGasBalanceWei));
  }

  /** Per-chain gauges read from /health's report at each scrape: the node and the API up or not, raffles listed. */
  observeHealth(health: () => HealthReport): void {
    const perChain = (name: string, help: string, read: (chain: HealthReport["chains"][number]) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["chainId"] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const chain of health().chains) this.set({ chainId: String(chain.chainId) }, read(chain));
        },
      });
    perChain("raffle_worker_chain_up", "1 while the chain runs and its node answers, else 0.", (chain) =>
      chain.state === "running" && chain.reachable ? 1 : 0,
    );
    perChain("raffle_worker_api_up", "1 while the chain's last raffle list refresh from the API succeeded, else 0.", (chain) =>
      chain.lastRefresh?.ok === false ? 0 : 1,
    );
    perChain("raffle_worker_raffles", "Raffles the API lists for the merchant on this chain.", (chain) => chain.raffles);
  }

  runFinished(record: RaffleRunRecord): void {
    const labels = { chainId: String(record.chainId), raffle: record.contract };
    if (record.status === "rotated") this.rotations.inc(labels);
    else if (record.status === "failed" || record.status === "failedPermanently") this.failures.inc(labels);
  }

  feeBumped(chainId: number, raffle: string): void {
    this.feeBumps.inc({ chainId: String(chainId), raffle });
  }

  jobSent(chainId: number): void {
    this.relaySent.inc({ chainId: String(chainId) });
  }

  jobResent(chainId: number): void {
    this.relayResent.inc({ chainId: String(chainId) });
  }

  jobMined(chainId: number): void {
    this.relayMined.inc({ chainId: String(chainId) });
  }

  jobFailed(chainId: number, failureCode: string): void {
    this.relayFailed.inc({ chainId: String(chainId), failureCode });
  }

  balance(chainId: number, wei: bigint): void {
    this.gasBalance.set({ chainId: String(chainId) }, Number(wei));
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/**
 * Reads the merchant's balance on one chain (at start and at each node probe), sets the gauge and logs a warning once
 * when it falls below LOW_GAS_BALANCE_ETH (and once when it is back above), not at every probe.
 */
export class GasBalanceWatch {
  private low = false;

  constructor(
    private readonly options: {
      chainId: number;
      merchant: string;
      read: () => Promise<bigint>;
      metrics: WorkerMetrics;
      logger: WorkerLogger;
    },
  ) {}

  async check(): Promise<void> {
    const { chainId, merchant, read, metrics, logger } = this.options;
    let balance: bigint;
    try {
      balance = await read();
    } catch (error) {
      logger.debug("could not read the merchant's gas balance", { error: errorMessage(error) });
      return;
    }
    metrics.balance(chainId, balance);
    const fields = { merchant, balanceWei: balance, balance: formatEther(balance), thresholdWei: metrics.lowGasBalanceWei };
    if (balance < metrics.lowGasBalanceWei && !this.low) {
      this.low = true;
      logger.warn("merchant gas balance low: fund the merchant account before rotations fail (LOW_GAS_BALANCE_ETH)", fields);
    } else if (balance >= metrics.lowGasBalanceWei && this.low) {
      this.low = false;
      logger.info("merchant gas balance back above LOW_GAS_BALANCE_ETH", fields);
    }
  }
}
