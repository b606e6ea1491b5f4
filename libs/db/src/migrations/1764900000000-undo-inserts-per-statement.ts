import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * One undo entry per INSERT statement instead of one per inserted row. An insert's inverse is the deletion of the
 * rows it created, so the entry only needs their ids: `row_ids` holds them all, and the indexer deletes them with one
 * `DELETE ... WHERE id = ANY(row_ids)` (undo-log.ts). A block's 150 purchases wrote 150 entries (each a heap row and
 * two index entries), now one (docs/performance.md, "Indexer backfill"). The entry keeps its place in the
 * log (the statement's), so undoing newest first still deletes the rows after undoing any later update or deletion of
 * them. Updates and deletions keep one entry per row: each carries that row's own old values; an update's are now
 * found with the new row made JSON once, not once per column.
 */
const ROW_FUNCTION = (insertBranch: string, updateBranch: string) => `
  CREATE OR REPLACE FUNCTION indexer_record_undo_rows() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    block text := current_setting('indexer.block', true);
  BEGIN
    IF block IS NULL OR block = '' THEN RETURN NULL; END IF;
    IF TG_OP = 'INSERT' THEN
      ${insertBranch}
    ELSIF TG_OP = 'UPDATE' THEN
      ${updateBranch}
    ELSE
      INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
      SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'D', o.id, to_jsonb(o) FROM old_rows o;
    END IF;
    RETURN NULL;
  END $$`;

/** The statement's inserted ids in one entry; a statement that inserted nothing (ON CONFLICT DO NOTHING) writes none. */
const INSERT_PER_STATEMENT = `INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_ids)
      SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'I', array_agg(n.id) FROM changed_rows n
      HAVING count(*) > 0;`;

/**
 * The old values of the changed columns, as before, but the new row made JSON once per row (OFFSET 0 keeps the planner
 * from copying the expression into each use): it was made once per column compared, 26 times per round updated.
 */
const UPDATE_NEW_ROW_ONCE = `INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
      SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'U', o.id, d.changed
        FROM old_rows o JOIN changed_rows n ON n.id = o.id
       CROSS JOIN LATERAL (SELECT to_jsonb(o) AS old, to_jsonb(n) AS new OFFSET 0) j
       CROSS JOIN LATERAL (
         SELECT jsonb_object_agg(e.key, e.value) AS changed FROM jsonb_each(j.old) e WHERE e.value IS DISTINCT FROM (j.new -> e.key)) d
       WHERE d.changed IS NOT NULL;`;

/** As BulkUndoLog1764800000000 wrote it. */
const INSERT_PER_ROW = `INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id)
      SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'I', n.id FROM changed_rows n;`;

/** As BulkUndoLog1764800000000 wrote it. */
const UPDATE_PER_COLUMN = `INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
      SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'U', o.id, d.changed
        FROM old_rows o JOIN changed_rows n ON n.id = o.id
       CROSS JOIN LATERAL (
         SELECT jsonb_object_agg(e.key, e.value) AS changed
           FROM jsonb_each(to_jsonb(o)) e WHERE e.value IS DISTINCT FROM (to_jsonb(n) -> e.key)) d
       WHERE d.changed IS NOT NULL;`;

export class UndoInsertsPerStatement1764900000000 implements MigrationInterface {
  name = "UndoInsertsPerStatement1764900000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    // An entry has either row_id (one row: every U and D, and the I entries written before this migration) or row_ids.
    await queryRunner.query(`ALTER TABLE "indexer_undo" ALTER COLUMN "row_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "indexer_undo" ADD "row_ids" integer array`);
    await queryRunner.query(`ALTER TABLE "indexer_undo" ADD CONSTRAINT "CHK_indexer_undo_rows" CHECK ((row_id IS NULL) <> (row_ids IS NULL))`);
    await queryRunner.query(ROW_FUNCTION(INSERT_PER_STATEMENT, UPDATE_NEW_ROW_ONCE));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Entries of many rows cannot become per-row entries in their place in the log (ids only grow), and undoing them
    // out of order could leave rows a reorg should remove: the window must be empty of them first.
    const [{ count }] = await queryRunner.query(`SELECT count(*)::int AS count FROM indexer_undo WHERE row_ids IS NOT NULL`);
    if (count > 0) {
      throw new Error(`indexer_undo holds ${count} entries of many rows: let the indexer prune them (or reset it) before reverting`);
    }
    await queryRunner.query(ROW_FUNCTION(INSERT_PER_ROW, UPDATE_PER_COLUMN));
    await queryRunner.query(`ALTER TABLE "indexer_undo" DROP CONSTRAINT "CHK_indexer_undo_rows"`);
    await queryRunner.query(`ALTER TABLE "indexer_undo" DROP COLUMN "row_ids"`);
    await queryRunner.query(`ALTER TABLE "indexer_undo" ALTER COLUMN "row_id" SET NOT NULL`);
  }
}
