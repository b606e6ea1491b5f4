import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A raw event row keeps either its decoded args or the log's topics and data, not both, where the args give back the
 * log exactly (the fixed layouts of purchases and mints: `argsImplyLog` in the indexer's decode.ts). Those are nearly
 * every row, and their topics and data were half of each row's bytes: sent by the indexer, parsed, written to the WAL
 * and stored (docs/performance.md, "Indexer backfill"). Rows the indexer could not read keep their topics and data.
 */
export class RawEventsArgsOnly1765000000000 implements MigrationInterface {
  name = "RawEventsArgsOnly1765000000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "indexer_event" ALTER COLUMN "topics" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "indexer_event" ALTER COLUMN "data" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "indexer_event" ADD CONSTRAINT "CHK_indexer_event_args_or_raw" CHECK ("args" IS NOT NULL OR ("topics" IS NOT NULL AND "data" IS NOT NULL))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Rows kept as args only have no raw form to restore here: re-index the chain (reset) before reverting.
    const [{ count }] = await queryRunner.query(`SELECT count(*)::int AS count FROM indexer_event WHERE topics IS NULL OR data IS NULL`);
    if (count > 0) throw new Error(`indexer_event holds ${count} rows kept as args only: reset the chain's index before reverting`);
    await queryRunner.query(`ALTER TABLE "indexer_event" DROP CONSTRAINT "CHK_indexer_event_args_or_raw"`);
    await queryRunner.query(`ALTER TABLE "indexer_event" ALTER COLUMN "data" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "indexer_event" ALTER COLUMN "topics" SET NOT NULL`);
  }
}
