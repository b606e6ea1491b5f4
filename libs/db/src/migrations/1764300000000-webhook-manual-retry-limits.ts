import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Limits on manual webhook retries (issue 27): when each delivery was last retried by hand, and each endpoint's count
 * of manual retries in its current one-minute window. Nothing else reads them.
 */
export class WebhookManualRetryLimits1764300000000 implements MigrationInterface {
  name = "WebhookManualRetryLimits1764300000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "manual_retry_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "manual_retry_window_start" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "manual_retries" integer NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "manual_retries"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "manual_retry_window_start"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "manual_retry_at"`);
  }
}
