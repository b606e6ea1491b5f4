import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every table the indexer projects events into. A trigger on each writes the inverse of every row change made while
 * the indexer applies a block (the transaction-local setting `indexer.block` is set), so a reorg is rolled back by
 * undoing those changes in reverse: a table or a handler added later is covered without a second list to keep.
 */
const PROJECTED_TABLES = ["contract", "template", "token", "price", "price_component", "round", "ticket", "claim"];

export class IndexerUndoLog1764000000000 implements MigrationInterface {
  name = "IndexerUndoLog1764000000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "indexer_undo" ("id" BIGSERIAL NOT NULL, "chain_id" integer NOT NULL, "block_number" bigint NOT NULL,
        "table_name" character varying(32) NOT NULL, "op" character(1) NOT NULL, "row_id" integer NOT NULL, "old_values" jsonb,
        CONSTRAINT "PK_indexer_undo" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_indexer_undo_chain_block" ON "indexer_undo" ("chain_id", "block_number")`);
    // The lowest block the index can be rolled back to: blocks applied without the undo log (far below the head) or
    // whose undo entries were pruned lie at or below it.
    await queryRunner.query(`ALTER TABLE "indexer_cursor" ADD "undo_from" bigint NOT NULL DEFAULT -1`);
    // U keeps the old values of the changed columns only, so an undo never overwrites a column changed since by
    // someone else (a merchant's title, a voucher cancellation); D keeps the whole row.
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
    for (const table of PROJECTED_TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER "indexer_undo_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION indexer_record_undo()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of PROJECTED_TABLES) await queryRunner.query(`DROP TRIGGER "indexer_undo_${table}" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION indexer_record_undo()`);
    await queryRunner.query(`ALTER TABLE "indexer_cursor" DROP COLUMN "undo_from"`);
    await queryRunner.query(`DROP TABLE "indexer_undo"`);
  }
}
