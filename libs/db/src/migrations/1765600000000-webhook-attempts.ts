import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every attempt of a delivery is kept (when, the answer's status and the start of its body, or the network error, and
 * how long it took), so a merchant can see why an endpoint fails. Deliveries made before keep only their last answer.
 */
export class WebhookAttempts1765600000000 implements MigrationInterface {
  name = "WebhookAttempts1765600000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_attempt" ("id" BIGSERIAL NOT NULL, "delivery_id" bigint NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status_code" integer, "response_excerpt" text, "error" character varying(300), "duration_ms" integer NOT NULL, "manual" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_e4ff77b66cdd20591ba6189a1f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_ad328b621ba7d360f8f2a8e92a" ON "webhook_attempt" ("delivery_id", "id")`);
    await queryRunner.query(
      `ALTER TABLE "webhook_attempt" ADD CONSTRAINT "FK_d7ed48c4841159bfd6bdee166ea" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_attempt"`);
  }
}
