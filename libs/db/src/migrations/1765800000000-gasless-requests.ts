import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Gasless purchases, claims and refunds (issue #52): the API's mailbox of signed requests that the merchant's relayer
 * leases and submits, each merchant's relaying settings, and when each relayer last asked for jobs.
 */
export class GaslessRequests1765800000000 implements MigrationInterface {
  name = "GaslessRequests1765800000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gasless_request" ("id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "kind" character varying(16) NOT NULL, "state" character varying(16) NOT NULL, "chain_id" integer NOT NULL, "contract_id" integer NOT NULL, "merchant_id" integer NOT NULL, "account" character varying(42) NOT NULL, "voucher_nonce" character varying(66), "intent_digest" character varying(66), "quantity" integer, "target" character varying(42) NOT NULL, "calldata" text NOT NULL, "not_after" bigint NOT NULL, "lease_holder" character varying(64), "lease_expires_at" TIMESTAMP WITH TIME ZONE, "attempts" jsonb NOT NULL DEFAULT '[]', "tx_hash" character varying(66), "gas_cost_wei" numeric(78,0), "mined_at" TIMESTAMP WITH TIME ZONE, "ticket_ids" jsonb NOT NULL DEFAULT '[]', "failure_code" character varying(64), CONSTRAINT "PK_fb7a47970f5ea9a3964e3ac4f22" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f210b8ca2cb569f4e135176965" ON "gasless_request" ("account", "created_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_aa627f438b305d3da24c639ae6" ON "gasless_request" ("merchant_id", "chain_id", "state", "created_at")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9b0338cf5a25a3f67330e1dcfe" ON "gasless_request" ("intent_digest")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_29ea765174b31a23f1a0526354" ON "gasless_request" ("voucher_nonce")`);
    await queryRunner.query(
      `CREATE TABLE "gasless_settings" ("merchant_id" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "enabled" boolean NOT NULL DEFAULT false, "daily_gas_budget_wei" numeric(78,0) NOT NULL DEFAULT '0', "per_player_daily_limit" integer NOT NULL DEFAULT '20', CONSTRAINT "PK_c73d3c8f89daedf24fa137803f4" PRIMARY KEY ("merchant_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "gasless_relayer" ("merchant_id" integer NOT NULL, "chain_id" integer NOT NULL, "relayer_id" character varying(64) NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7f197e0b0cafaada3a91d78a4e0" PRIMARY KEY ("merchant_id", "chain_id", "relayer_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "gasless_relayer"`);
    await queryRunner.query(`DROP TABLE "gasless_settings"`);
    await queryRunner.query(`DROP TABLE "gasless_request"`);
  }
}
