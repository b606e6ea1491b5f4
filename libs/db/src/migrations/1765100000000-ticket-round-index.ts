import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The ticket index on (round_id) alone duplicates the leading column of (round_id, buyer), which answers every lookup
 * by round as well; it cost an index entry per ticket written (docs/performance.md, "Indexer backfill").
 */
export class TicketRoundIndex1765100000000 implements MigrationInterface {
  name = "TicketRoundIndex1765100000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_cc7e465e1ed7f56a03dbd0f39f"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_cc7e465e1ed7f56a03dbd0f39f" ON "ticket" ("round_id") `);
  }
}
