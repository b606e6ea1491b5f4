import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Two fewer index entries per raw event row, of the four each row wrote (docs/performance.md, "Indexer backfill"):
 * - the surrogate `id` goes: nothing read it, and the row's natural key, (chain_id, tx_hash, log_index), already unique,
 *   becomes the primary key (its unique index is kept and renamed, not rebuilt);
 * - the index on (chain_id, address, name) holds only the draw events, the only rows its one reader (the player API's
 *   draw lookups) asks for, instead of every purchase and mint.
 */
export class RawEventsNaturalKey1765300000000 implements MigrationInterface {
  name = "RawEventsNaturalKey1765300000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_cf075e0c1e56aa94e841eb4225"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_indexer_event_draws" ON "indexer_event" ("chain_id", "address", "name") WHERE "name" IN ('WinnersDrawn', 'RandomnessReceived')`,
    );
    await queryRunner.query(`ALTER TABLE "indexer_event" DROP CONSTRAINT "PK_8827dc194a538f86f2549ee7749"`);
    await queryRunner.query(`ALTER TABLE "indexer_event" DROP COLUMN "id"`);
    await queryRunner.query(
      `ALTER TABLE "indexer_event" ADD CONSTRAINT "PK_fc193a623a577c4b518dbe965a9" PRIMARY KEY USING INDEX "IDX_fc193a623a577c4b518dbe965a"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "indexer_event" DROP CONSTRAINT "PK_fc193a623a577c4b518dbe965a9"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_fc193a623a577c4b518dbe965a" ON "indexer_event" ("chain_id", "tx_hash", "log_index")`);
    // Existing rows get new ids, in no particular order: nothing read them.
    await queryRunner.query(`ALTER TABLE "indexer_event" ADD "id" BIGSERIAL NOT NULL`);
    await queryRunner.query(`ALTER TABLE "indexer_event" ADD CONSTRAINT "PK_8827dc194a538f86f2549ee7749" PRIMARY KEY ("id")`);
    await queryRunner.query(`DROP INDEX "public"."IDX_indexer_event_draws"`);
    await queryRunner.query(`CREATE INDEX "IDX_cf075e0c1e56aa94e841eb4225" ON "indexer_event" ("chain_id", "address", "name")`);
  }
}
