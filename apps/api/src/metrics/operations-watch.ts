import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from "@nestjs/common";
import { Contract } from "ethers";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { jsonLog } from "../logging/logger";
import { IndexerRunner } from "../services/indexer-runner.service";
import { ServedChains } from "../services/served-chains";
import { API_CONFIG, DATA_SOURCE } from "../services/tokens";
import { ApiMetrics, type OperationsMetricsSource } from "./api-metrics";

/** The one view of Chainlink's VRF v2.5 coordinator (and its mock) that the balance gauge needs. */
const COORDINATOR_ABI = [
  "function getSubscription(uint256 subId) view returns (uint96 balance, uint96 nativeBalance, uint64 reqCount, address subOwner, address[] consumers)",
];

/** One scrape reads each gauge of a query: both webhook gauges share one read made within this time. */
const SCRAPE_READ_MS = 1_000;

/**
 * Feeds the operator's gauges of what needs attention (apps/api/src/metrics/api-metrics.ts, observeOperations): failing
 * webhook endpoints and rounds waiting on randomness from the database at each scrape, and each served chain's VRF
 * subscription balance, read from its coordinator every CHAIN_CHECK_INTERVAL_SECONDS by the process that leads the
 * chain's indexer only (one reader per chain however many replicas; never on a request's path).
 */
@Injectable()
export class OperationsWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private failing: { at: number; read: ReturnType<OperationsMetricsSource["failingWebhookEndpoints"]> } | null = null;
  private reading: Promise<void> | null = null;
  /** Chains whose balance could not be read at the last check (logged once until it is read again). */
  private readonly unreadable = new Set<number>();

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
    private readonly indexers: IndexerRunner,
    private readonly metrics: ApiMetrics,
  ) {
    if (!metrics.enabled) return;
    metrics.observeOperations({
      failingWebhookEndpoints: () => this.failingWebhookEndpoints(),
      roundsAwaitingRandomness: () => this.roundsAwaitingRandomness(),
      oldestPendingDeliverySeconds: () => this.oldestPendingDeliverySeconds(),
    });
  }

  onApplicationBootstrap(): void {
    if (!this.metrics.enabled || this.chains.ids.length === 0) return;
    this.timer = setInterval(() => void this.readVrfBalances(), this.config.chainCheckIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
  }

  /** Reads the balance of every chain this process leads; a chain it no longer leads drops out of the gauge. */
  readVrfBalances(): Promise<void> {
    this.reading ??= (async () => {
      for (const chain of this.chains.all()) {
        const { chainId, vrfCoordinator, vrfSubscriptionId } = chain.deployment;
        if (!this.indexers.status(chainId)?.leader) {
          this.metrics.vrfSubscriptionBalance(chainId, null);
          continue;
        }
        try {
          const coordinator = new Contract(vrfCoordinator, COORDINATOR_ABI, chain.provider);
          const [link, native] = (await coordinator.getSubscription(vrfSubscriptionId)) as [bigint, bigint];
          this.metrics.vrfSubscriptionBalance(chainId, { chainId, subscriptionId: vrfSubscriptionId, link, native });
          this.unreadable.delete(chainId);
        } catch (error) {
          // The node's failures count in raffle_rpc_errors_total already; a stale balance would hide a drained one.
          this.metrics.vrfSubscriptionBalance(chainId, null);
          // Once per outage, not at every check.
          if (this.unreadable.has(chainId)) continue;
          this.unreadable.add(chainId);
          jsonLog("warn", "could not read the VRF subscription's balance", {
            component: "metrics",
            chainId,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    })().finally(() => (this.reading = null));
    return this.reading;
  }

  /** The outbox's oldest pending delivery, by the (status, next_attempt_at) index's PENDING rows. */
  private async oldestPendingDeliverySeconds(): Promise<number> {
    const [row]: Array<{ oldest: number }> = await this.dataSource.query(
      `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest FROM webhook_delivery WHERE status = 'PENDING'`,
    );
    return Math.max(0, Math.floor(row.oldest));
  }

  private failingWebhookEndpoints(): ReturnType<OperationsMetricsSource["failingWebhookEndpoints"]> {
    const now = Date.now();
    if (this.failing && now - this.failing.at < SCRAPE_READ_MS) return this.failing.read;
    const read = this.dataSource
      .query(
        `SELECT count(*) FILTER (WHERE disabled_at IS NULL)::int AS retrying,
                count(*) FILTER (WHERE disabled_at IS NOT NULL)::int AS disabled,
                COALESCE(EXTRACT(EPOCH FROM now() - min(failing_since) FILTER (WHERE disabled_at IS NULL)), 0)::float8 AS oldest
           FROM webhook_endpoint WHERE failing_since IS NOT NULL`,
      )
      .then(([row]: Array<{ retrying: number; disabled: number; oldest: number }>) => ({
        retrying: row.retrying,
        disabled: row.disabled,
        oldestRetryingSeconds: Math.max(0, Math.floor(row.oldest)),
      }));
    this.failing = { at: now, read };
    return read;
  }

  /** Every served chain, with 0 when none of its rounds waits: an alert sees the chain either way. */
  private async roundsAwaitingRandomness(): ReturnType<OperationsMetricsSource["roundsAwaitingRandomness"]> {
    const rows: Array<{ chain_id: number; count: number; oldest: number }> = await this.dataSource.query(
      `SELECT c.chain_id, count(*)::int AS count, EXTRACT(EPOCH FROM now() - min(r.end_timestamp))::float8 AS oldest
         FROM round r JOIN contract c ON c.id = r.contract_id
        WHERE r.round_status = 'DRAWING' AND c.chain_id = ANY($1)
        GROUP BY c.chain_id`,
      [this.chains.ids],
    );
    return this.chains.ids.map((chainId) => {
      const row = rows.find((candidate) => Number(candidate.chain_id) === chainId);
      return { chainId, count: row?.count ?? 0, oldestSeconds: row ? Math.max(0, Math.floor(row.oldest ?? 0)) : 0 };
    });
  }
}
