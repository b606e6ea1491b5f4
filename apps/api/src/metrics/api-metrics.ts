import { formatEther } from "ethers";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { FastifyInstance } from "fastify";
import type { IndexerStatus } from "@raffle/indexer";

/** Request latency buckets, in seconds: the sign endpoint's target is a p99 of 25 ms, so most of them sit below 0.1 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const REORG_DEPTH_BUCKETS = [1, 2, 3, 5, 8, 13, 21, 34, 64, 128, 256];

/** One chain's indexer as metrics read it at each scrape (see IndexerRunner). */
export interface IndexerMetricsSource {
  chainIds(): number[];
  status(chainId: number): IndexerStatus | null;
}

/** What needs an operator's attention, read from the database at each scrape (see OperationsWatch). */
export interface OperationsMetricsSource {
  /** Webhook endpoints failing now: still retried, or disabled after failing too long; and how long the oldest still retried has failed. */
  failingWebhookEndpoints(): Promise<{ retrying: number; disabled: number; oldestRetryingSeconds: number }>;
  /** Per served chain, rounds ended and waiting for their VRF word (DRAWING), and the age of the oldest since it ended. */
  roundsAwaitingRandomness(): Promise<Array<{ chainId: number; count: number; oldestSeconds: number }>>;
  /** Seconds since the oldest webhook delivery still pending (not yet delivered, not failed) was written; 0 when none. */
  oldestPendingDeliverySeconds(): Promise<number>;
}

/** A VRF subscription's balances as last read from its coordinator, in the smallest unit (juels of LINK, wei). */
export interface VrfSubscriptionBalance {
  chainId: number;
  subscriptionId: string;
  link: bigint;
  native: bigint;
}

/**
 * The API's Prometheus metrics, in a registry of its own (one per app, so several apps in one process, as in the tests,
 * never share counters). Labels are few and bounded: the route template (never the raw URL), the status code and the
 * chain id; nothing per account, key or raffle. The request hook caches one child per (route, status), so a request costs
 * one array lookup and one histogram observation. With METRICS_ENABLED=false nothing is recorded.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requestDuration = new Histogram({
    name: "raffle_api_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route template (method and path) and status code.",
    labelNames: ["route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly vouchersSigned = new Counter({
    name: "raffle_api_vouchers_signed_total",
    help: "Purchase vouchers signed, by chain.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: "raffle_api_rate_limited_total",
    help: "Requests answered 429 tooManyRequests, by route template.",
    labelNames: ["route"] as const,
    registers: [this.registry],
  });
  private readonly unavailable = new Counter({
    name: "raffle_api_unavailable_total",
    help: "Requests answered 503 (a chain, the database or Redis unavailable; /ready not ready), by route template.",
    labelNames: ["route"] as const,
    registers: [this.registry],
  });
  private readonly rpcErrors = new Counter({
    name: "raffle_rpc_errors_total",
    help: "JSON-RPC calls to a chain's node that failed (no answer, timeout, or an error answer), by chain: API and indexer alike.",
    labelNames: ["chainId"] as const,
    registers: [this.registry],
  });
  private readonly databaseErrors = new Counter({
    name: "raffle_api_database_errors_total",
    help: "Requests that failed on a database error (unreachable or a failed query).",
    registers: [this.registry],
  });
  private readonly reorgDepth = new Histogram({
    name: "raffle_indexer_reorg_depth_blocks",
    help: "Depth of each reorg the indexer rolled back (blocks between its cursor and the common ancestor), by chain.",
    labelNames: ["chainId"] as const,
    buckets: REORG_DEPTH_BUCKETS,
    registers: [this.registry],
  });
  private readonly revokedKeyCalls = new Counter({
    name: "raffle_api_revoked_key_calls_total",
    help: "Calls made with a merchant's revoked API key (the right secret, refused 401), by merchant id: a client still using a key it lost.",
    labelNames: ["merchantId"] as const,
    registers: [this.registry],
  });
  /** The VRF subscriptions' balances by chain, set by OperationsWatch on the process that leads the chain's indexer. */
  private readonly vrfBalances = new Map<number, VrfSubscriptionBalance>();
  /** Children of the request histogram by `route` then status, made once each. */
  private readonly signedChildren = new Map<number, { inc(): void }>();
  private readonly requestChildren = new Map<string, Map<number, { observe(value: number): void }>>();

  constructor(readonly enabled: boolean) {
    // prom-client's process and Node.js series (CPU, memory, heap, event-loop lag, GC, handles), in this registry.
    if (enabled) collectDefaultMetrics({ register: this.registry });
  }

  /** Per-chain indexer gauges and counters, read from the indexers' status at each scrape (nothing on the hot path). */
  observeIndexers(source: IndexerMetricsSource): void {
    const registers = [this.registry];
    const labelNames = ["chainId"] as const;
    const each = (read: (status: IndexerStatus) => number | null) => (set: (chainId: string, value: number) => void) => {
      for (const chainId of source.chainIds()) {
        const status = source.status(chainId);
        const value = status ? read(status) : null;
        if (value !== null) set(String(chainId), value);
      }
    };
    const gauge = (name: string, help: string, read: (status: IndexerStatus) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          each(read)((chainId, value) => this.set({ chainId }, value));
        },
      });
    const counter = (name: string, help: string, read: (status: IndexerStatus) => number) =>
      new Counter({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          each(read)((chainId, value) => this.inc({ chainId }, value));
        },
      });
    gauge("raffle_indexer_head_block", "The chain's head block as the indexer last read it.", (status) => status.head);
    gauge("raffle_indexer_indexed_block", "The indexer's cursor: the last block indexed.", (status) => status.cursor);
    gauge("raffle_indexer_lag_blocks", "Blocks between the confirmed head and the cursor.", (status) => status.lag);
    gauge(
      "raffle_indexer_lag_seconds",
      "Age of the last indexed block while the index is behind the confirmed head (0 when caught up).",
      (status) => status.lagSeconds,
    );
    gauge("raffle_indexer_leader", "1 while this process holds the chain's indexing leadership, else 0.", (status) => (status.leader ? 1 : 0));
    gauge("raffle_indexer_last_batch_timestamp_seconds", "Unix time of the last batch applied by this process.", (status) =>
      status.lastBatchAt ? Date.parse(status.lastBatchAt) / 1000 : null,
    );
    gauge("raffle_indexer_failing", "1 while the indexer's steps fail (see /status for the error), else 0.", (status) => (status.lastError ? 1 : 0));
    counter("raffle_indexer_events_total", "Events indexed by this process (rate() gives events per second).", (status) => status.eventsIndexed);
    counter("raffle_indexer_reorgs_total", "Reorgs rolled back by this process.", (status) => status.reorgs);
    counter(
      "raffle_indexer_step_failures_total",
      "Indexer steps that failed (node or database errors); each is retried.",
      (status) => status.failedSteps,
    );
  }

  /**
   * The read replica (DATABASE_REPLICA_URL), as its checks last saw it: whether the index reads go to it, and how far
   * it is behind the primary. Without a replica, both are 0.
   */
  observeReadReplica(source: { configured: boolean; state(): { usable: boolean; lagSeconds: number | null } }): void {
    const registers = [this.registry];
    new Gauge({
      name: "raffle_db_reads_on_replica",
      help: "1 while the index reads (rounds, claims, public raffle lists) go to the read replica, 0 while they go to the primary (none configured, or it lags or is down).",
      registers,
      collect() {
        this.set(source.state().usable ? 1 : 0);
      },
    });
    new Gauge({
      name: "raffle_db_replica_lag_seconds",
      help: "How far the read replica's replay is behind the primary, in seconds (0 without a replica); while it does not answer, it grows with the time since it last did.",
      registers,
      collect() {
        this.reset();
        const { lagSeconds } = source.state();
        if (source.configured && lagSeconds !== null) this.set(lagSeconds);
      },
    });
  }

  /**
   * Gauges of what needs attention: failing webhook endpoints and rounds waiting on randomness (read from the database
   * at each scrape: two small aggregate queries; a failed read leaves them out of that scrape rather than failing it),
   * and each chain's VRF subscription balance as last read (see vrfSubscriptionBalance).
   */
  observeOperations(source: OperationsMetricsSource): void {
    const registers = [this.registry];
    new Gauge({
      name: "raffle_webhook_endpoints_failing",
      help: "Webhook endpoints whose deliveries fail: state retrying (failing since their last success) or disabled (failed too long; the merchant re-enables them).",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        this.reset();
        const failing = await source.failingWebhookEndpoints().catch(() => null);
        if (!failing) return;
        this.set({ state: "retrying" }, failing.retrying);
        this.set({ state: "disabled" }, failing.disabled);
      },
    });
    new Gauge({
      name: "raffle_webhook_endpoint_failing_seconds",
      help: "How long the longest-failing webhook endpoint that is still retried has failed (0 when none fails).",
      registers,
      async collect() {
        this.reset();
        const failing = await source.failingWebhookEndpoints().catch(() => null);
        if (failing) this.set(failing.oldestRetryingSeconds);
      },
    });
    new Gauge({
      name: "raffle_webhook_outbox_oldest_seconds",
      help: "Age of the oldest webhook delivery still pending in the outbox (0 when none): grows when delivery workers are missing or too few, or a receiver keeps failing.",
      registers,
      async collect() {
        this.reset();
        const oldest = await source.oldestPendingDeliverySeconds().catch(() => null);
        if (oldest !== null) this.set(oldest);
      },
    });
    const drawing = (name: string, help: string, read: (row: { count: number; oldestSeconds: number }) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["chainId"] as const,
        registers,
        async collect() {
          this.reset();
          for (const row of (await source.roundsAwaitingRandomness().catch(() => null)) ?? []) this.set({ chainId: String(row.chainId) }, read(row));
        },
      });
    drawing("raffle_rounds_awaiting_randomness", "Rounds ended and waiting for their VRF word (DRAWING), by chain.", (row) => row.count);
    drawing(
      "raffle_rounds_awaiting_randomness_oldest_seconds",
      "Seconds since the oldest round still waiting for its VRF word ended, by chain (0 when none waits).",
      (row) => row.oldestSeconds,
    );
    const balances = this.vrfBalances;
    new Gauge({
      name: "raffle_vrf_subscription_balance",
      help: "The VRF subscription's balance on its coordinator, by chain, subscription and currency (LINK or native), in whole tokens; read by the chain's indexing leader every CHAIN_CHECK_INTERVAL_SECONDS.",
      labelNames: ["chainId", "subscriptionId", "currency"] as const,
      registers,
      collect() {
        this.reset();
        for (const balance of balances.values()) {
          const labels = { chainId: String(balance.chainId), subscriptionId: balance.subscriptionId };
          this.set({ ...labels, currency: "LINK" }, Number(formatEther(balance.link)));
          this.set({ ...labels, currency: "native" }, Number(formatEther(balance.native)));
        }
      },
    });
  }

  /** A chain's VRF subscription balance as just read, or null when this process no longer reads it (not the leader). */
  vrfSubscriptionBalance(chainId: number, balance: VrfSubscriptionBalance | null): void {
    if (!this.enabled) return;
    if (balance) this.vrfBalances.set(chainId, balance);
    else this.vrfBalances.delete(chainId);
  }

  /** A call with a revoked key of `merchantId`, the secret right: its client still has the key. */
  revokedKeyUsed(merchantId: number): void {
    if (this.enabled) this.revokedKeyCalls.inc({ merchantId: String(merchantId) });
  }

  /** Times every request by its route template and status; counts 429 and 503 answers. */
  instrument(fastify: FastifyInstance): void {
    if (!this.enabled) return;
    fastify.addHook("onResponse", (request, reply, done) => {
      const template = request.routeOptions.url;
      const route = template === undefined ? "unmatched" : `${request.method} ${template}`;
      const status = reply.statusCode;
      this.requestChild(route, status).observe(reply.elapsedTime / 1000);
      if (status === 429) this.rateLimited.inc({ route });
      else if (status === 503) this.unavailable.inc({ route });
      done();
    });
  }

  voucherSigned(chainId: number): void {
    if (!this.enabled) return;
    let child = this.signedChildren.get(chainId);
    if (!child) this.signedChildren.set(chainId, (child = this.vouchersSigned.labels(String(chainId))));
    child.inc();
  }

  rpcError(chainId: number): void {
    if (this.enabled) this.rpcErrors.inc({ chainId: String(chainId) });
  }

  databaseError(): void {
    if (this.enabled) this.databaseErrors.inc();
  }

  reorg(chainId: number, depth: number): void {
    if (this.enabled) this.reorgDepth.observe({ chainId: String(chainId) }, depth);
  }

  /** The Prometheus text exposition of every metric. */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private requestChild(route: string, status: number): { observe(value: number): void } {
    let byStatus = this.requestChildren.get(route);
    if (!byStatus) this.requestChildren.set(route, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.requestDuration.labels(route, String(status))));
    return child;
  }
}
