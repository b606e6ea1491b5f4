import type { MigrationInterface, QueryRunner } from "typeorm";

/** A winning ticket whose pot was claimed or released says so, as its on-chain `prizeStatus` does. */
export class TicketPrizeSettled1763950000000 implements MigrationInterface {
  name = "TicketPrizeSettled1763950000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."ticket_ticket_status_enum" ADD VALUE IF NOT EXISTS 'PRIZE_CLAIMED'`);
    await queryRunner.query(`ALTER TYPE "public"."ticket_ticket_status_enum" ADD VALUE IF NOT EXISTS 'PRIZE_RELEASED'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // PostgreSQL cannot drop an enum value; rebuild the type without the two.
    await queryRunner.query(`UPDATE "ticket" SET "ticket_status" = 'ACTIVE' WHERE "ticket_status" IN ('PRIZE_CLAIMED', 'PRIZE_RELEASED')`);
    await queryRunner.query(`ALTER TYPE "public"."ticket_ticket_status_enum" RENAME TO "ticket_ticket_status_enum_old"`);
    await queryRunner.query(`CREATE TYPE "public"."ticket_ticket_status_enum" AS ENUM('ACTIVE', 'REFUNDED')`);
    await queryRunner.query(`ALTER TABLE "ticket" ALTER COLUMN "ticket_status" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "ticket" ALTER COLUMN "ticket_status" TYPE "public"."ticket_ticket_status_enum" USING "ticket_status"::text::"public"."ticket_ticket_status_enum"`,
    );
    await queryRunner.query(`ALTER TABLE "ticket" ALTER COLUMN "ticket_status" SET DEFAULT 'ACTIVE'`);
    await queryRunner.query(`DROP TYPE "public"."ticket_ticket_status_enum_old"`);
  }
}
