import type { DataSource } from "typeorm";

/**
 * Owns the expiry of claim vouchers: NEW vouchers past their end become EXPIRED.
 *
 * This is the one write of the indexer that is not scoped to its chain, on purpose: a voucher expires by wall time,
 * not by any chain's events, and a voucher row carries no chain id (its Exchange address may be the same on every
 * chain, CREATE2). Every chain's indexer runs it after its steps (after a batch, at most once a second: IndexerStep),
 * so with several chains in one process (or several replicas) these updates run concurrently on the same rows. SKIP
 * LOCKED lets each take only rows no other one is expiring right now: none of them waits for another, and two of them
 * can never deadlock.
 */
export async function expireVouchers(dataSource: DataSource): Promise<void> {
  await dataSource.query(
    `UPDATE claim SET claim_status = 'EXPIRED', updated_at = now()
      WHERE id IN (SELECT id FROM claim WHERE claim_type = 'VOUCHER' AND claim_status = 'NEW' AND end_timestamp < now()
                   FOR UPDATE SKIP LOCKED)`,
  );
}
