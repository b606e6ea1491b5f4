import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from "@nestjs/common";
import { createDataSource } from "@raffle/db";
import { databaseUrlForLogs } from "@raffle/config";
import type { DataSource } from "typeorm";

import type { ApiConfig } from "../config/api-config";
import { jsonLog } from "../logging/logger";
import { ApiMetrics } from "../metrics/api-metrics";
import { API_CONFIG, DATA_SOURCE } from "./tokens";

/**
 * How far behind the primary the replica may be and still serve reads: about what the index already trails the chain
 * by (a 1 s poll plus a step), so a read from it is at most a few seconds old in all. Past it, reads go to the primary.
 */
export const REPLICA_MAX_LAG_SECONDS = 2;
/** How often the replica's lag is measured: a dead or lagging replica is dropped within about this (plus the bound). */
export const REPLICA_CHECK_INTERVAL_MS = 250;
/** A check that takes longer counts as failed: a replica that slow is no help. */
const CHECK_TIMEOUT_MS = 1_000;
/** Primary WAL positions remembered, one per check: enough to date a lag well past the bound. */
const SAMPLES_KEPT = Math.ceil((REPLICA_MAX_LAG_SECONDS * 4 * 1000) / REPLICA_CHECK_INTERVAL_MS);

/** A WAL position as a number of bytes, from PostgreSQL's pg_lsn. */
const LSN_BYTES = (column: string) => `pg_wal_lsn_diff(${column}, '0/0')::text`;

/**
 * Reads of the index (rounds, claims, the public raffle lists) from a PostgreSQL streaming replica
 * (DATABASE_REPLICA_URL), everything else from the primary. `reads` is the data source those reads use: the replica
 * while it is usable, else the primary, decided at each query.
 *
 * Lag is measured against the primary, not the replica's clock: each check notes the primary's WAL position
 * (pg_current_wal_lsn) and its time, then asks the replica what it has replayed (pg_last_wal_replay_lsn). The replica
 * is as old as the first noted position it has not replayed yet (0 when it has replayed the latest). Past
 * REPLICA_MAX_LAG_SECONDS, or on a failed check (a dead replica, a broken connection), reads go to the primary at
 * once; they come back only once the replica has replayed everything the primary had at a check, so a reader of this
 * process never sees the index go backwards when the replica is taken back.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  readonly reads: DataSource;
  private replica: DataSource | null = null;
  private usable = false;
  private lagSeconds: number | null = null;
  private measuredAt: number | null = null;
  private samples: Array<{ at: number; lsn: bigint }> = [];
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  private opening: Promise<void> | null = null;

  constructor(
    @Inject(DATA_SOURCE) private readonly primary: DataSource,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    metrics: ApiMetrics,
  ) {
    this.reads = config.databaseReplicaUrl ? this.routed() : primary;
    metrics.observeReadReplica({
      configured: Boolean(config.databaseReplicaUrl),
      state: () => ({ usable: this.usable, lagSeconds: this.lagSeconds }),
    });
  }

  /** Whether reads go to the replica now, and its lag (null before a check succeeded; growing while checks fail). */
  state(): { usable: boolean; lagSeconds: number | null } {
    return { usable: this.usable, lagSeconds: this.lagSeconds };
  }

  onModuleInit(): void {
    const url = this.config.databaseReplicaUrl;
    if (!url) return;
    // Opened lazily by the checks: a replica that is down at start delays nothing; reads use the primary until it is up.
    this.replica = createDataSource(url, { poolSize: 20 });
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_INTERVAL_MS);
    this.timer.unref();
    void this.check();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.usable = false;
    if (this.replica?.isInitialized) await this.replica.destroy().catch(() => undefined);
  }

  /** A data source that answers each property from the replica while it is usable, else from the primary. */
  private routed(): DataSource {
    return new Proxy(this.primary, {
      get: (primary, property) => {
        const target = this.usable && this.replica?.isInitialized ? this.replica : primary;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  private async check(): Promise<void> {
    if (this.checking || !this.replica) return;
    this.checking = true;
    try {
      const lag = await withTimeout(this.measureLag(this.replica), CHECK_TIMEOUT_MS);
      this.lagSeconds = lag;
      this.measuredAt = Date.now();
      if (this.usable && lag > REPLICA_MAX_LAG_SECONDS)
        this.drop(`the replica is ${lag.toFixed(1)} s behind the primary (bound ${REPLICA_MAX_LAG_SECONDS} s)`);
      else if (!this.usable && lag === 0) this.takeBack();
    } catch (error) {
      // A replica that does not answer grows older by the time it has not: its lag alert fires for a dead one too.
      if (this.lagSeconds !== null && this.measuredAt !== null) {
        this.lagSeconds += (Date.now() - this.measuredAt) / 1000;
        this.measuredAt = Date.now();
      }
      if (this.usable) this.drop(`the replica does not answer: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.checking = false;
    }
  }

  /** Seconds since the primary first held WAL the replica has not replayed yet (0 when it has replayed the latest). */
  private async measureLag(replica: DataSource): Promise<number> {
    const [{ lsn }] = await this.primary.query(`SELECT ${LSN_BYTES("pg_current_wal_lsn()")} AS lsn`);
    const at = Date.now();
    this.samples.push({ at, lsn: BigInt(lsn) });
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
    if (!replica.isInitialized) {
      // One opening at a time: one that outlives a check's timeout is awaited by the next check, not started again.
      this.opening ??= replica
        .initialize()
        .then(() => this.watchConnections(replica))
        .finally(() => (this.opening = null));
      await this.opening;
    }
    const [{ replayed, standby }] = await replica.query(
      `SELECT ${LSN_BYTES("pg_last_wal_replay_lsn()")} AS replayed, pg_is_in_recovery() AS standby`,
    );
    if (!standby || replayed === null) throw new Error("DATABASE_REPLICA_URL is not a streaming replica (pg_is_in_recovery() is false)");
    const position = BigInt(replayed);
    const firstAhead = this.samples.find((sample) => sample.lsn > position);
    if (!firstAhead) return 0;
    // Every remembered position is ahead: the replica is at least as old as the oldest of them.
    return (Date.now() - firstAhead.at) / 1000;
  }

  /** A connection the replica ends (a crash, a restart) drops it at once, before the next check notices. */
  private watchConnections(replica: DataSource): void {
    const pool = (replica.driver as unknown as { master?: { on(event: "error", listener: (error: Error) => void): void } }).master;
    pool?.on("error", (error) => {
      if (this.usable) this.drop(`a replica connection failed: ${error.message}`);
    });
  }

  private drop(reason: string): void {
    this.usable = false;
    jsonLog("warn", "reads moved to the primary", { replica: databaseUrlForLogs(this.config.databaseReplicaUrl!), reason });
  }

  private takeBack(): void {
    this.usable = true;
    jsonLog("info", "reads use the replica", { replica: databaseUrlForLogs(this.config.databaseReplicaUrl!) });
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}
