import type { EntityManager } from "typeorm";

import { runNamed } from "./prepared";

/**
 * The indexer's undo log (table `indexer_undo`, migration IndexerUndoLog1764000000000, filled by the statement
 * triggers of BulkUndoLog1764800000000). While the indexer applies a block it names that block in a transaction-local
 * setting; every row the projection inserts, updates or deletes then leaves its inverse, tagged with the block, written
 * once per statement for all its rows (a block's purchases are one statement). An insert's inverse is one entry with
 * the ids of all the rows it created (UndoInsertsPerStatement1764900000000); an update's or a deletion's, one per row.
 * A reorg is rolled back by undoing the entries of the removed blocks in reverse order, whatever handler wrote them.
 * Which tables carry a trigger is checked against the tables the event table's handlers write (`writes` in
 * event-handlers.ts; test/undo-coverage.spec.ts). Blocks further below the head than the reorg window are applied
 * without it (backfill stays fast) and cannot be rolled back, as with Ponder's finalized checkpoints.
 */

interface UndoEntry {
  id: string;
  table_name: string;
  op: "I" | "U" | "D";
  /** The row of a U or D entry (and of I entries written before UndoInsertsPerStatement1764900000000). */
  row_id: number | null;
  /** Every row one INSERT statement created (an I entry). */
  row_ids: number[] | null;
  old_values: Record<string, unknown> | null;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`undo log: unexpected identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

// Named statements (prepared.ts): the first runs once per block applied within the window, the others once per batch.
const RECORD_UNDO_FOR = {
  name: "indexer-undo-record",
  text: `SELECT set_config('indexer.chain', $1, true), set_config('indexer.block', $2, true)`,
};
const STOP_RECORDING_UNDO = { name: "indexer-undo-stop", text: `SELECT set_config('indexer.block', '', true)` };
const PRUNE_UNDO_LOG = { name: "indexer-undo-prune", text: `DELETE FROM indexer_undo WHERE chain_id = $1 AND block_number <= $2` };

/** From here to the end of the transaction, row changes are recorded under `block` of `chainId`. */
export async function recordUndoFor(manager: EntityManager, chainId: number, block: number): Promise<void> {
  await runNamed(manager, RECORD_UNDO_FOR, [String(chainId), String(block)]);
}

/** Stops recording for the rest of the transaction (the undo itself, or work that no reorg can remove). */
export async function stopRecordingUndo(manager: EntityManager): Promise<void> {
  await runNamed(manager, STOP_RECORDING_UNDO, []);
}

/** Undoes, newest first, every projected row change of `chainId` recorded for blocks above `ancestor`. */
export async function undoAfter(manager: EntityManager, chainId: number, ancestor: number): Promise<number> {
  await stopRecordingUndo(manager);
  const entries: UndoEntry[] = await manager.query(
    `SELECT id, table_name, op, row_id, row_ids, old_values FROM indexer_undo WHERE chain_id = $1 AND block_number > $2 ORDER BY id DESC`,
    [chainId, ancestor],
  );
  for (const entry of entries) {
    const table = identifier(entry.table_name);
    if (entry.op === "I") {
      await manager.query(`DELETE FROM ${table} WHERE id = ANY($1::int[])`, [entry.row_ids ?? [entry.row_id]]);
    } else if (entry.op === "U") {
      const columns = Object.keys(entry.old_values ?? {}).map(identifier);
      const assignments = columns.map((column) => `${column} = old.${column}`).join(", ");
      await manager.query(`UPDATE ${table} t SET ${assignments} FROM jsonb_populate_record(NULL::${table}, $2::jsonb) old WHERE t.id = $1`, [
        entry.row_id,
        JSON.stringify(entry.old_values),
      ]);
    } else {
      await manager.query(`INSERT INTO ${table} SELECT * FROM jsonb_populate_record(NULL::${table}, $1::jsonb)`, [JSON.stringify(entry.old_values)]);
    }
  }
  await manager.query(`DELETE FROM indexer_undo WHERE chain_id = $1 AND block_number > $2`, [chainId, ancestor]);
  return entries.length;
}

/** Forgets the entries of blocks at or below `block`: they are final, no reorg reaches them. */
export async function pruneUndoLog(manager: EntityManager, chainId: number, block: number): Promise<void> {
  await runNamed(manager, PRUNE_UNDO_LOG, [chainId, block]);
}
