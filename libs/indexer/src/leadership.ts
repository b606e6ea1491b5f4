import { PlatformError } from "@raffle/config";
import type { DataSource, EntityManager, QueryRunner } from "typeorm";

import { runNamed } from "./prepared";

/** The first key of every chain's indexing lock (the second is the chain id). */
export const LOCK_NAMESPACE = 0x72616666; // "raff"

/** Thrown inside a batch's transaction when its session no longer holds the lock: the batch must not commit. */
export class LeadershipLostError extends PlatformError {
  constructor(message: string) {
    // Retryable: another process leads the chain now; this one may lead again later.
    super("leadershipLost", message, true);
  }
}

/** Asked at the start of every transaction of the leader: a named statement (prepared.ts). */
const STILL_HELD = {
  name: "indexer-lock-held",
  text: `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
                       AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2) AS held`,
};

/**
 * The indexing leadership of one chain: a session-level PostgreSQL advisory lock, held by one dedicated connection.
 *
 * Fencing: every write of the leader runs on that same connection, and each of its transactions first checks, in
 * pg_locks, that this session still holds the lock. A session keeps its lock until it ends, and its end aborts the
 * open transaction, so a batch commits only while its writer provably leads. A process whose lock connection was
 * terminated (pg_terminate_backend, a network cut) fails its next query and steps down; meanwhile another process may
 * take the lock, and nothing the former leader still has in flight can commit.
 */
export class Leadership {
  private runner: QueryRunner | null = null;
  private held = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly chainId: number,
  ) {}

  get isHeld(): boolean {
    return this.held && this.runner !== null && !this.runner.isReleased;
  }

  /** The lock session's manager: the leader's reads and writes go through it (see fencing above). */
  get manager(): EntityManager {
    if (!this.isHeld) throw new LeadershipLostError(`not the indexing leader of chain ${this.chainId}`);
    return this.runner!.manager;
  }

  /** Takes the lock if it is free; answers whether this process leads now. */
  async tryAcquire(): Promise<boolean> {
    if (this.isHeld) return true;
    await this.dropConnection();
    this.runner = this.dataSource.createQueryRunner();
    try {
      const [{ locked }] = await this.runner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_NAMESPACE, this.chainId]);
      this.held = Boolean(locked);
    } catch (error) {
      await this.dropConnection();
      throw error;
    }
    if (!this.held) await this.dropConnection();
    return this.held;
  }

  /** Runs `work` in one transaction on the lock session, after proving inside it that the session holds the lock. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.manager.transaction(async (manager) => {
      await this.assertHeld(manager);
      return work(manager);
    });
  }

  /** After a failed step: does the session still answer and hold the lock? If not, steps down. */
  async confirm(): Promise<boolean> {
    if (!this.isHeld) {
      await this.stepDown();
      return false;
    }
    try {
      await this.assertHeld(this.runner!.manager);
      return true;
    } catch {
      await this.stepDown();
      return false;
    }
  }

  /** Gives the lock up (when the session still lives) and the connection back. */
  async release(): Promise<void> {
    if (this.isHeld) {
      await this.runner!.query(`SELECT pg_advisory_unlock($1, $2)`, [LOCK_NAMESPACE, this.chainId]).catch(() => undefined);
    }
    await this.stepDown();
  }

  private async assertHeld(manager: EntityManager): Promise<void> {
    const [{ held }] = await runNamed<{ held: boolean }>(manager, STILL_HELD, [LOCK_NAMESPACE, this.chainId]);
    if (!held) throw new LeadershipLostError(`the indexing lock of chain ${this.chainId} is no longer held by this process`);
  }

  /** Stops leading. The connection is closed, not pooled: after a failure it may be broken. */
  private async stepDown(): Promise<void> {
    this.held = false;
    await this.dropConnection(true);
  }

  private async dropConnection(close = false): Promise<void> {
    const runner = this.runner as (QueryRunner & { releasePostgresConnection?: (error?: Error) => Promise<void> }) | null;
    this.runner = null;
    if (!runner || runner.isReleased) return;
    // TypeORM's PostgreSQL runner closes the connection when released with an error (pg-pool then discards it).
    if (close && runner.releasePostgresConnection)
      await runner.releasePostgresConnection(new Error("indexing leadership ended")).catch(() => undefined);
    else await runner.release().catch(() => undefined);
  }
}
