import type { MigrationInterface, QueryRunner } from "typeorm";

/** Claim vouchers: cancellation time, the redeeming transaction, and one claim per nonce. */
export class ClaimVouchers1763800000000 implements MigrationInterface {
  name = "ClaimVouchers1763800000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "claim" ADD "canceled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "claim" ADD "redeemed_tx_hash" character varying(66)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_claim_nonce" ON "claim"  ("nonce") WHERE "nonce" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_claim_nonce"`);
    await queryRunner.query(`ALTER TABLE "claim" DROP COLUMN "redeemed_tx_hash"`);
    await queryRunner.query(`ALTER TABLE "claim" DROP COLUMN "canceled_at"`);
  }
}
