import { Inject, Injectable, type OnApplicationShutdown } from "@nestjs/common";
import { DatabaseError, type Pool, type PoolClient } from "pg";
import type { DataSource } from "typeorm";
import { isPostgresServer } from "@raffle/db";
import type { PostgresDriver } from "typeorm/driver/postgres/PostgresDriver";

import { API_CONFIG, DATA_SOURCE } from "./tokens";

export interface IssuedVoucher {
  nonce: string;
  account: string;
  referrer: string;
  merchantId: number;
  /** Null for a voucher a signed-in player asked for (public sale). */
  apiKeyId: number | null;
  contractId: number;
  roundId: number;
  expiresAt: number;
}

const MAX_ROWS_PER_FLUSH = 500;

const INSERT_VOUCHERS: { text: string; name?: string } = {
  text: `INSERT INTO ticket_voucher (nonce, account, referrer, merchant_id, api_key_id, contract_id, round_id, expires_at)
         SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::int[], $5::int[], $6::int[], $7::int[], $8::bigint[])`,
};
const NAMED_INSERT_VOUCHERS = { ...INSERT_VOUCHERS, name: "insert-ticket-vouchers" };

/**
 * Least milliseconds between the starts of two INSERTs of one process: none. A spacing makes more rows share each
 * commit, but in the sign bench 2 ms gained nothing at 16 connections (the wait cost what the fewer commits saved),
 * and the sign target is met without it.
 */
export const VOUCHER_FLUSH_MS = 0;

/**
 * Records issued vouchers with group commit: the rows recorded in one turn of the event loop go together in one
 * multi-row INSERT, and those that arrive while it is in flight together in the next, and with a flush spacing the INSERTs of a busy log are spaced out so that more rows share each
 * (fewer commits for PostgreSQL, at the price of a few milliseconds per request). `record` resolves only once its
 * row is committed, so a voucher is never handed out unrecorded.
 */
@Injectable()
export class VoucherLog implements OnApplicationShutdown {
  private queue: Array<{ row: IssuedVoucher; resolve: () => void; reject: (error: unknown) => void }> = [];
  private flushing: Promise<void> | null = null;
  private lastFlushStartedAt = 0;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: { voucherFlushMs?: number },
  ) {
    this.flushMs = config.voucherFlushMs ?? VOUCHER_FLUSH_MS;
  }

  /** Least time between the starts of two INSERTs: VOUCHER_FLUSH_MS; a test may give another (`voucherFlushMs`). */
  private readonly flushMs: number;

  record(row: IssuedVoucher): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      // An idle log writes once the current burst of promise continuations is done (process.nextTick runs after
      // them): one Redis reply answers the rate limits of several requests at once, and their rows then share one
      // INSERT instead of the first going alone and the rest in a second.
      this.flushing ??= new Promise<void>((ready) => process.nextTick(ready)).then(() => this.flushLoop());
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flushing;
  }

  /** node-postgres' pool under TypeORM: it skips the query runner's bookkeeping on this hot path. */
  private pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /**
   * On a PostgreSQL server the INSERT is a named statement, parsed and planned once per connection instead of once per
   * flush (about a third of PostgreSQL's work per flush). Not on the embedded PGlite, however it is reached (in
   * process or through its socket server by URL): it serves every connection from one session, where a name one
   * connection prepared clashes with the next one's.
   */
  private async insertStatement(): Promise<{ text: string; name?: string }> {
    return (await isPostgresServer(this.dataSource.manager)) ? NAMED_INSERT_VOUCHERS : INSERT_VOUCHERS;
  }

  /**
   * Writes the queue out, one INSERT at a time, on one connection taken from the pool for the whole loop: under load
   * the loop runs INSERT after INSERT, and taking a connection and handing it back for each (the pool's idle timer,
   * listeners and promises) cost 120-150 µs of client CPU per INSERT on the bench machine. The connection goes back
   * when the queue is empty, before a voucherFlushMs wait, and at once, to be closed, after any failure but
   * PostgreSQL's own refusal of a statement (a duplicate nonce), which leaves the connection usable.
   */
  private async flushLoop(): Promise<void> {
    let client: PoolClient | null = null;
    try {
      while (this.queue.length > 0) {
        const wait = this.lastFlushStartedAt + this.flushMs - Date.now();
        if (wait > 0 && this.queue.length < MAX_ROWS_PER_FLUSH) {
          client?.release();
          client = null;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
        this.lastFlushStartedAt = Date.now();
        const batch = this.queue.splice(0, MAX_ROWS_PER_FLUSH);
        const rows = batch.map((entry) => entry.row);
        try {
          const statement = await this.insertStatement();
          client ??= await this.pool().connect();
          await client.query({
            ...statement,
            values: [
              rows.map((row) => row.nonce),
              rows.map((row) => row.account),
              rows.map((row) => row.referrer),
              rows.map((row) => row.merchantId),
              rows.map((row) => row.apiKeyId),
              rows.map((row) => row.contractId),
              rows.map((row) => row.roundId),
              rows.map((row) => row.expiresAt),
            ],
          });
          for (const entry of batch) entry.resolve();
        } catch (error) {
          if (client && !(error instanceof DatabaseError)) {
            client.release(error instanceof Error ? error : true);
            client = null;
          }
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      client?.release();
      this.flushing = null;
    }
  }
}
