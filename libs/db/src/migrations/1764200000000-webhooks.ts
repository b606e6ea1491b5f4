import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Webhooks: merchants' endpoints, the transactional outbox of messages that the indexer writes in its batch
 * transaction, and one delivery row per (endpoint, message). None of these tables gets the indexer's undo trigger
 * (see IndexerUndoLog1764000000000): a reorg never deletes a message, it adds a retraction (`removed = true`) with the
 * same `event_id`, and a delivery's progress must survive any rollback of the projection.
 */
export class Webhooks1764200000000 implements MigrationInterface {
  name = "Webhooks1764200000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoint" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "merchant_id" integer NOT NULL, "url" character varying(2048) NOT NULL,
        "events" text array NOT NULL, "description" character varying(500) NOT NULL DEFAULT '', "secret" text NOT NULL, "previous_secret" text,
        "previous_secret_until" TIMESTAMP WITH TIME ZONE, "failing_since" TIMESTAMP WITH TIME ZONE, "disabled_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_6c98112122b2b8a4f3984d2efa8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_54fa331fcf8b997c5ffccffc70" ON "webhook_endpoint" ("merchant_id")`);
    await queryRunner.query(
      `CREATE TABLE "webhook_message" ("id" character varying(64) NOT NULL, "seq" BIGSERIAL NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "merchant_id" integer NOT NULL, "type" character varying(32) NOT NULL,
        "removed" boolean NOT NULL, "event_id" character varying(160) NOT NULL, "chain_id" integer NOT NULL, "block_number" bigint NOT NULL,
        "body" text NOT NULL, CONSTRAINT "PK_07903a2e1c41801efd06f7110b8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_bea677f5ff47f7908d4b411e12" ON "webhook_message" ("event_id", "seq")`);
    await queryRunner.query(`CREATE INDEX "IDX_2667bfd26f66cb19e3d2805e41" ON "webhook_message" ("chain_id", "block_number")`);
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery" ("id" BIGSERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "endpoint_id" integer NOT NULL, "message_id" character varying(64) NOT NULL, "seq" bigint NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'PENDING', "attempts" integer NOT NULL DEFAULT '0', "last_status_code" integer,
        "last_error" character varying(300), "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "delivered_at" TIMESTAMP WITH TIME ZONE, "failed_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "UQ_af650c4ee00a0b77309cf4e9ddb" UNIQUE ("endpoint_id", "message_id"), CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_68fd3a7ad4e5504350f64a3472" ON "webhook_delivery" ("status", "next_attempt_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_afacc9d4bc6988b39a4b06fbea" ON "webhook_delivery" ("endpoint_id", "status", "seq")`);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "FK_54fa331fcf8b997c5ffccffc708" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_f53f5aec02217a54927b13e39d9" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_a9e38e6f50dfd328baca6679b36" FOREIGN KEY ("message_id") REFERENCES "webhook_message"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    await queryRunner.query(`DROP TABLE "webhook_message"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoint"`);
  }
}
