import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The merchant console (issue #30): merchants' Sign-In with Ethereum sessions (token hashes only), when each API key
 * was last used, and how long each webhook delivery's last attempt took. None of these is a projection of the chain,
 * so none gets the indexer's undo trigger.
 */
export class MerchantConsole1764600000000 implements MigrationInterface {
  name = "MerchantConsole1764600000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "merchant_session" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "token_hash" character varying(64) NOT NULL, "merchant_id" integer NOT NULL, "address" character varying(42) NOT NULL,
        "chain_id" integer NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_c94107d36a6a5c09f66d3031ef2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_48d6a0c9f94615b7e0c6699eec" ON "merchant_session" ("token_hash")`);
    await queryRunner.query(
      `ALTER TABLE "merchant_session" ADD CONSTRAINT "FK_e5a64e3e276fdae37fe91d721a7" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "api_key" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "last_latency_ms" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "last_latency_ms"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`DROP TABLE "merchant_session"`);
  }
}
