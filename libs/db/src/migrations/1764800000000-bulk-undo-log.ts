import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The indexer's undo log, recorded per statement instead of per row. The row triggers of IndexerUndoLog1764000000000
 * ran a PL/pgSQL function and a one-row INSERT into `indexer_undo` for every ticket of a purchase run inside the reorg
 * window, about half of a backfill's database time. Statement triggers with transition tables write the same entries
 * (same table, op, row id and old values) in one INSERT ... SELECT per statement. PostgreSQL allows a transition table
 * on single-event triggers only, so each table now has three: `indexer_undo_<table>_insert`, `_update`, `_delete`.
 * Which tables get them is read from the row triggers being replaced, so the list stays the one the earlier
 * migrations wrote (test/undo-coverage.spec.ts in the indexer checks it against the handlers).
 */
const OPS = [
  { event: "INSERT", suffix: "insert", referencing: "NEW TABLE AS changed_rows" },
  { event: "UPDATE", suffix: "update", referencing: "OLD TABLE AS old_rows NEW TABLE AS changed_rows" },
  { event: "DELETE", suffix: "delete", referencing: "OLD TABLE AS old_rows" },
] as const;

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

async function tablesWithTriggerOf(queryRunner: QueryRunner, functionName: string): Promise<string[]> {
  const rows: Array<{ table: string }> = await queryRunner.query(
    `SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE NOT t.tgisinternal AND p.proname = $1 ORDER BY c.relname`,
    [functionName],
  );
  const tables = rows.map((row) => row.table);
  for (const table of tables) if (!IDENTIFIER.test(table)) throw new Error(`unexpected table name ${table}`);
  return tables;
}

export class BulkUndoLog1764800000000 implements MigrationInterface {
  name = "BulkUndoLog1764800000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    const tables = await tablesWithTriggerOf(queryRunner, "indexer_record_undo");
    // One function for the three events: each trigger names its transition tables alike, and the branch taken by
    // TG_OP only reads the ones its trigger has. U keeps the old values of the changed columns only, so an undo never
    // overwrites a column changed since by someone else (a merchant's title, a voucher cancellation); D keeps the
    // whole row; I only the id.
    await queryRunner.query(`
      CREATE FUNCTION indexer_record_undo_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        block text := current_setting('indexer.block', true);
      BEGIN
        IF block IS NULL OR block = '' THEN RETURN NULL; END IF;
        IF TG_OP = 'INSERT' THEN
          INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id)
          SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'I', n.id FROM changed_rows n;
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
          SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'U', o.id, d.changed
            FROM old_rows o JOIN changed_rows n ON n.id = o.id
           CROSS JOIN LATERAL (
             SELECT jsonb_object_agg(e.key, e.value) AS changed
               FROM jsonb_each(to_jsonb(o)) e WHERE e.value IS DISTINCT FROM (to_jsonb(n) -> e.key)) d
           WHERE d.changed IS NOT NULL;
        ELSE
          INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
          SELECT current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'D', o.id, to_jsonb(o) FROM old_rows o;
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of tables) {
      await queryRunner.query(`DROP TRIGGER "indexer_undo_${table}" ON "${table}"`);
      for (const op of OPS) {
        await queryRunner.query(
          `CREATE TRIGGER "indexer_undo_${table}_${op.suffix}" AFTER ${op.event} ON "${table}" REFERENCING ${op.referencing}
           FOR EACH STATEMENT EXECUTE FUNCTION indexer_record_undo_rows()`,
        );
      }
    }
    await queryRunner.query(`DROP FUNCTION indexer_record_undo()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const tables = await tablesWithTriggerOf(queryRunner, "indexer_record_undo_rows");
    // The row function as IndexerUndoLog1764000000000 created it.
    await queryRunner.query(`
      CREATE FUNCTION indexer_record_undo() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        block text := current_setting('indexer.block', true);
        changed jsonb;
      BEGIN
        IF block IS NULL OR block = '' THEN RETURN NULL; END IF;
        IF TG_OP = 'INSERT' THEN
          INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id)
          VALUES (current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'I', NEW.id);
        ELSIF TG_OP = 'UPDATE' THEN
          SELECT jsonb_object_agg(o.key, o.value) INTO changed
            FROM jsonb_each(to_jsonb(OLD)) o WHERE o.value IS DISTINCT FROM (to_jsonb(NEW) -> o.key);
          IF changed IS NOT NULL THEN
            INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
            VALUES (current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'U', NEW.id, changed);
          END IF;
        ELSE
          INSERT INTO indexer_undo (chain_id, block_number, table_name, op, row_id, old_values)
          VALUES (current_setting('indexer.chain')::integer, block::bigint, TG_TABLE_NAME, 'D', OLD.id, to_jsonb(OLD));
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of tables) {
      for (const op of OPS) await queryRunner.query(`DROP TRIGGER "indexer_undo_${table}_${op.suffix}" ON "${table}"`);
      await queryRunner.query(
        `CREATE TRIGGER "indexer_undo_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION indexer_record_undo()`,
      );
    }
    await queryRunner.query(`DROP FUNCTION indexer_record_undo_rows()`);
  }
}
