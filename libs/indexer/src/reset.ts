import { PlatformError } from "@raffle/config";
import type { DataSource, EntityManager } from "typeorm";

import { LOCK_NAMESPACE } from "./leadership";

/**
 * A failure no retry can fix: the chain's index no longer matches the chain (a reorg below the undo window, or a node
 * that restarted from genesis under it). Only a reset of the chain's index ends it; /ready names the command.
 */
export class IndexResetRequired extends PlatformError {
  constructor(message: string) {
    // Not retryable: an operator must reset the chain's index first.
    super("indexResetRequired", message, false);
  }
}

/** The operator's command that resets a chain's index (apps/api/src/cli/indexer.ts; compiled: dist/apps/api/src/cli/indexer.js). */
export function resetCommand(chainId: number): string {
  return `npm run indexer -- reset --chain ${chainId}`;
}

/** Deletes what was indexed from one chain, in the caller's transaction. */
async function deleteIndexedRows(manager: EntityManager, chainId: number): Promise<void> {
  // Claims name their raffle without a foreign key (vouchers have none): prizes, items and refunds go explicitly;
  // winners and items go with their rounds, and rounds and tickets with their raffles (ON DELETE CASCADE).
  await manager.query(
    `DELETE FROM claim WHERE claim_type IN ('RAFFLE_PRIZE', 'RAFFLE_ITEM', 'RAFFLE_REFUND') AND contract_id IN (SELECT id FROM contract WHERE chain_id = $1)`,
    [chainId],
  );
  await manager.query(`DELETE FROM contract WHERE chain_id = $1 AND contract_module = 'RAFFLE'`, [chainId]);
  await manager.query(`DELETE FROM price WHERE id NOT IN (SELECT price_id FROM round)`);
  await manager.query(`DELETE FROM indexer_event WHERE chain_id = $1`, [chainId]);
  await manager.query(`DELETE FROM indexer_block WHERE chain_id = $1`, [chainId]);
  await manager.query(`DELETE FROM indexer_cursor WHERE chain_id = $1`, [chainId]);
  await manager.query(`DELETE FROM indexer_undo WHERE chain_id = $1`, [chainId]);
}

/**
 * Forgets everything indexed from one chain (raw events, block hashes, cursor, rounds, winners, items, tickets, prize, item and refund claims and the
 * raffle contracts registered from events), keeping merchants, API keys and issued vouchers. For a local chain
 * that restarted from genesis: the next indexer run rebuilds the projection from the new chain. No indexer of the
 * chain may run meanwhile: use resetChainIndex when one may.
 */
export async function resetIndexedChain(dataSource: DataSource, chainId: number): Promise<void> {
  await dataSource.transaction((manager) => deleteIndexedRows(manager, chainId));
}

export interface ResetOutcome {
  /** Sessions of running indexers that held the chain's leadership and were ended. */
  leadersEnded: number;
}

/**
 * resetIndexedChain while the API's indexers may run (`indexer reset --chain <id>`). It first takes the chain's
 * indexing leadership, ending the session of the process that holds it: that leader is fenced (see leadership.ts), so
 * none of its batches can commit after the reset; it steps down, takes the lock again once this is done, reloads its
 * registry and indexes the chain from the platform's deploy block. Nothing needs a restart.
 */
export async function resetChainIndex(dataSource: DataSource, chainId: number, { timeoutMs = 15_000 } = {}): Promise<ResetOutcome> {
  const runner = dataSource.createQueryRunner();
  let leadersEnded = 0;
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ locked }] = await runner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_NAMESPACE, chainId]);
      if (locked) break;
      if (Date.now() > deadline) throw new Error(`the indexing leadership of chain ${chainId} could not be taken within ${timeoutMs} ms`);
      const ended: Array<{ ended: boolean }> = await runner.query(
        // Advisory locks belong to a database: a leader of the same chain id in another database of the server (another
        // environment, another test suite) is not this index's leader and must be left alone.
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2`,
        [LOCK_NAMESPACE, chainId],
      );
      leadersEnded += ended.filter((row) => row.ended).length;
      // Retry soon: the ended leader tries to lead again on a new connection, and the reset must win that race.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await runner.manager.transaction((manager) => deleteIndexedRows(manager, chainId));
    await runner.query(`SELECT pg_advisory_unlock($1, $2)`, [LOCK_NAMESPACE, chainId]);
    return { leadersEnded };
  } finally {
    await runner.release();
  }
}
