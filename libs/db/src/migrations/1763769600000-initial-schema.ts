import type { MigrationInterface, QueryRunner } from "typeorm";

/** The first schema: every resource of spec 2, issued vouchers, API keys and the indexer's own tables. */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = "InitialSchema1763769600000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "merchant" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "wallet" character varying(42) NOT NULL, "title" character varying(255) NOT NULL DEFAULT '', CONSTRAINT "PK_9a3850e0537d869734fc9bff5d6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9de86fc9480cd3b9b4fd8e4c88" ON "merchant"  ("wallet") `);
    await queryRunner.query(
      `CREATE TABLE "api_key" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "prefix" character varying(32) NOT NULL, "secret_hash" character varying(64) NOT NULL, "label" character varying(255) NOT NULL DEFAULT '', "merchant_id" integer NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c4f6ccad30c0862eb54af9fb0a" ON "api_key"  ("prefix") `);
    await queryRunner.query(`CREATE TYPE "public"."claim_claim_type_enum" AS ENUM('RAFFLE_PRIZE', 'VOUCHER')`);
    await queryRunner.query(`CREATE TYPE "public"."claim_claim_status_enum" AS ENUM('NEW', 'REDEEMED', 'EXPIRED', 'CANCELED', 'RELEASED')`);
    await queryRunner.query(
      `CREATE TABLE "claim" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "account" character varying(42) NOT NULL, "merchant_id" integer NOT NULL, "claim_type" "public"."claim_claim_type_enum" NOT NULL, "claim_status" "public"."claim_claim_status_enum" NOT NULL DEFAULT 'NEW', "items" jsonb NOT NULL DEFAULT '[]', "end_timestamp" TIMESTAMP WITH TIME ZONE, "contract_id" integer, "round_id" integer, "token_id" numeric(78,0), "nonce" character varying(66), "signature" text, "expires_at" bigint, "parameters" jsonb NOT NULL DEFAULT '{}', "indexed_block" bigint, CONSTRAINT "PK_466b305cc2e591047fa1ce58f81" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_claim_prize_round" ON "claim"  ("contract_id", "round_id") WHERE "claim_type" = 'RAFFLE_PRIZE'`);
    await queryRunner.query(`CREATE INDEX "IDX_31c1f437b8a3664125d6a13199" ON "claim"  ("merchant_id", "account", "created_at") `);
    await queryRunner.query(`CREATE TYPE "public"."contract_contract_status_enum" AS ENUM('ACTIVE', 'INACTIVE')`);
    await queryRunner.query(`CREATE TYPE "public"."contract_contract_type_enum" AS ENUM('NATIVE', 'ERC20', 'ERC721', 'ERC998', 'ERC1155')`);
    await queryRunner.query(`CREATE TYPE "public"."contract_contract_features_enum" AS ENUM('RANDOM', 'ALLOWANCE', 'PAUSABLE')`);
    await queryRunner.query(`CREATE TYPE "public"."contract_contract_module_enum" AS ENUM('RAFFLE', 'HIERARCHY', 'SYSTEM')`);
    await queryRunner.query(`CREATE TYPE "public"."contract_contract_security_enum" AS ENUM('ACCESS_CONTROL')`);
    await queryRunner.query(
      `CREATE TABLE "contract" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "address" character varying(42) NOT NULL, "chain_id" integer NOT NULL, "title" character varying(255) NOT NULL DEFAULT '', "description" text NOT NULL DEFAULT '', "merchant_id" integer NOT NULL, "image_url" character varying(1024) NOT NULL DEFAULT '', "name" character varying(255) NOT NULL DEFAULT '', "symbol" character varying(64) NOT NULL DEFAULT '', "decimals" integer NOT NULL DEFAULT '0', "from_block" bigint NOT NULL DEFAULT '0', "royalty" integer NOT NULL DEFAULT '0', "base_token_uri" character varying(1024) NOT NULL DEFAULT '', "parameters" jsonb NOT NULL DEFAULT '{}', "is_paused" boolean NOT NULL DEFAULT false, "contract_status" "public"."contract_contract_status_enum" NOT NULL DEFAULT 'ACTIVE', "contract_type" "public"."contract_contract_type_enum", "contract_features" "public"."contract_contract_features_enum" array NOT NULL DEFAULT '{}', "contract_module" "public"."contract_contract_module_enum" NOT NULL, "contract_security" "public"."contract_contract_security_enum" NOT NULL DEFAULT 'ACCESS_CONTROL', "raffle_contract_id" integer, "indexed_block" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_17c3a89f58a2997276084e706e8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_463fbc08b97c5dbac1717bd765" ON "contract"  ("merchant_id", "chain_id", "contract_module") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_2e7d2e037942b11cd322ce659f" ON "contract"  ("chain_id", "address") `);
    await queryRunner.query(
      `CREATE TABLE "indexer_cursor" ("chain_id" integer NOT NULL, "block_number" bigint NOT NULL, "block_hash" character varying(66) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2f4669b8d51ba5692d0c42ca360" PRIMARY KEY ("chain_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "indexer_block" ("chain_id" integer NOT NULL, "number" bigint NOT NULL, "hash" character varying(66) NOT NULL, "parent_hash" character varying(66) NOT NULL, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_47c00f1632658c9b3bf68aa0289" PRIMARY KEY ("chain_id", "number"))`,
    );
    await queryRunner.query(`CREATE TYPE "public"."indexer_event_status_enum" AS ENUM('APPLIED', 'UNKNOWN', 'MALFORMED')`);
    await queryRunner.query(
      `CREATE TABLE "indexer_event" ("id" BIGSERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "chain_id" integer NOT NULL, "block_number" bigint NOT NULL, "block_hash" character varying(66) NOT NULL, "block_timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "tx_hash" character varying(66) NOT NULL, "log_index" integer NOT NULL, "address" character varying(42) NOT NULL, "name" character varying(64), "args" jsonb, "topics" text array NOT NULL, "data" text NOT NULL, "status" "public"."indexer_event_status_enum" NOT NULL, CONSTRAINT "PK_8827dc194a538f86f2549ee7749" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_cf075e0c1e56aa94e841eb4225" ON "indexer_event"  ("chain_id", "address", "name") `);
    await queryRunner.query(`CREATE INDEX "IDX_d9a602c70f9effa7fba72a6912" ON "indexer_event"  ("chain_id", "block_number") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_fc193a623a577c4b518dbe965a" ON "indexer_event"  ("chain_id", "tx_hash", "log_index") `);
    await queryRunner.query(`CREATE TYPE "public"."token_token_status_enum" AS ENUM('MINTED', 'BURNED')`);
    await queryRunner.query(
      `CREATE TABLE "token" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "image_url" character varying(1024), "metadata" jsonb NOT NULL DEFAULT '{}', "token_id" numeric(78,0) NOT NULL, "royalty" integer NOT NULL DEFAULT '0', "cid" character varying(255), "token_status" "public"."token_token_status_enum" NOT NULL DEFAULT 'MINTED', "template_id" integer NOT NULL, CONSTRAINT "PK_82fae97f905930df5d62a702fc9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c3205e87dcc99ca98f7f28b5e0" ON "token"  ("template_id", "token_id") `);
    await queryRunner.query(`CREATE TYPE "public"."template_template_status_enum" AS ENUM('ACTIVE', 'INACTIVE')`);
    await queryRunner.query(
      `CREATE TABLE "template" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "title" character varying(255) NOT NULL DEFAULT '', "description" text NOT NULL DEFAULT '', "image_url" character varying(1024) NOT NULL DEFAULT '', "price_id" integer, "cap" numeric(78,0) NOT NULL DEFAULT '0', "amount" numeric(78,0) NOT NULL DEFAULT '0', "cid" character varying(255), "template_status" "public"."template_template_status_enum" NOT NULL DEFAULT 'ACTIVE', "contract_id" integer NOT NULL, CONSTRAINT "PK_fbae2ac36bd9b5e1e793b957b7f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e4e0d396a6e2b9aa92d00bac9a" ON "template"  ("contract_id") `);
    await queryRunner.query(`CREATE TABLE "price" ("id" SERIAL NOT NULL, CONSTRAINT "PK_d163e55e8cce6908b2e0f27cea4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TYPE "public"."price_component_token_type_enum" AS ENUM('NATIVE', 'ERC20', 'ERC721', 'ERC998', 'ERC1155')`);
    await queryRunner.query(
      `CREATE TABLE "price_component" ("id" SERIAL NOT NULL, "token_type" "public"."price_component_token_type_enum" NOT NULL, "contract_id" integer NOT NULL, "template_id" integer NOT NULL, "token_id" numeric(78,0), "amount" numeric(78,0) NOT NULL, "price_id" integer NOT NULL, CONSTRAINT "PK_4d7fdce2791288f41c7144cae5f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1c28f9de162ea976c2e865fcf2" ON "price_component"  ("price_id") `);
    await queryRunner.query(
      `CREATE TYPE "public"."round_round_status_enum" AS ENUM('ACTIVE', 'DRAWING', 'DRAWN', 'CLOSED', 'REFUNDABLE', 'CLAIMED', 'RELEASED')`,
    );
    await queryRunner.query(
      `CREATE TABLE "round" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "number" integer, "round_id" numeric(78,0) NOT NULL, "contract_id" integer NOT NULL, "ticket_contract_id" integer NOT NULL, "price_id" integer NOT NULL, "max_tickets" bigint NOT NULL, "start_timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "end_timestamp" TIMESTAMP WITH TIME ZONE, "ticket_count" integer NOT NULL DEFAULT '0', "round_status" "public"."round_round_status_enum" NOT NULL DEFAULT 'ACTIVE', "first_ticket_id" numeric(78,0) NOT NULL, "winning_ticket_id" numeric(78,0), "drawn_at" TIMESTAMP WITH TIME ZONE, "vrf_request_id" numeric(78,0), "indexed_block" bigint NOT NULL, CONSTRAINT "PK_34bd959f3f4a90eb86e4ae24d2d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_111b3a8f95ba626034682c7bf4" ON "round"  ("contract_id", "round_id") `);
    await queryRunner.query(
      `CREATE TABLE "ticket_voucher" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "nonce" character varying(66) NOT NULL, "account" character varying(42) NOT NULL, "referrer" character varying(42) NOT NULL, "merchant_id" integer NOT NULL, "api_key_id" integer, "contract_id" integer NOT NULL, "round_id" integer NOT NULL, "expires_at" bigint NOT NULL, CONSTRAINT "PK_6df56a42ff2f62fda5f3021da9e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f9e62dbbad312a0b2251a05486" ON "ticket_voucher"  ("merchant_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_6ec19e345f61720cc5ca15d6f1" ON "ticket_voucher"  ("nonce") `);
    await queryRunner.query(`CREATE TYPE "public"."ticket_ticket_status_enum" AS ENUM('ACTIVE', 'REFUNDED')`);
    await queryRunner.query(
      `CREATE TABLE "ticket" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "contract_id" integer NOT NULL, "round_id" integer NOT NULL, "token_id" numeric(78,0) NOT NULL, "serial" integer NOT NULL, "account" character varying(42) NOT NULL, "buyer" character varying(42) NOT NULL, "external_id" numeric(78,0) NOT NULL, "is_prize" boolean NOT NULL DEFAULT false, "ticket_status" "public"."ticket_ticket_status_enum" NOT NULL DEFAULT 'ACTIVE', "tx_hash" character varying(66) NOT NULL, "indexed_block" bigint NOT NULL, CONSTRAINT "PK_d9a0835407701eb86f874474b7c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_eaf2f55eb4f87805f0776a4fe1" ON "ticket"  ("account") `);
    await queryRunner.query(`CREATE INDEX "IDX_cc7e465e1ed7f56a03dbd0f39f" ON "ticket"  ("round_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e20de6188e05fed33182f08de4" ON "ticket"  ("contract_id", "token_id") `);
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_4505fadbecfd29c0a6848e9b392" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "claim" ADD CONSTRAINT "FK_e666ebeb9ac3bf68a21ff9c7cb8" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contract" ADD CONSTRAINT "FK_5864725a049c3475d0a9c7f4253" FOREIGN KEY ("merchant_id") REFERENCES "merchant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "token" ADD CONSTRAINT "FK_18279c403ff40f4174dae38229b" FOREIGN KEY ("template_id") REFERENCES "template"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "template" ADD CONSTRAINT "FK_e4e0d396a6e2b9aa92d00bac9a4" FOREIGN KEY ("contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "price_component" ADD CONSTRAINT "FK_7dcc30910561ca1752baa13a01e" FOREIGN KEY ("contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "price_component" ADD CONSTRAINT "FK_ef6e09a3e0ee7b41cc354d3a05d" FOREIGN KEY ("template_id") REFERENCES "template"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "price_component" ADD CONSTRAINT "FK_1c28f9de162ea976c2e865fcf2b" FOREIGN KEY ("price_id") REFERENCES "price"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "round" ADD CONSTRAINT "FK_cc038bfef161bc8f4521da37688" FOREIGN KEY ("contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "round" ADD CONSTRAINT "FK_582d36f6de93197c4d8cbc3265f" FOREIGN KEY ("ticket_contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "round" ADD CONSTRAINT "FK_caade5cd5be2c6ef14273e5d40f" FOREIGN KEY ("price_id") REFERENCES "price"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ticket" ADD CONSTRAINT "FK_115a445072b310f3788773ce222" FOREIGN KEY ("contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ticket" ADD CONSTRAINT "FK_cc7e465e1ed7f56a03dbd0f39f5" FOREIGN KEY ("round_id") REFERENCES "round"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_claim_prize_round"`);
    await queryRunner.query(`ALTER TABLE "ticket" DROP CONSTRAINT "FK_cc7e465e1ed7f56a03dbd0f39f5"`);
    await queryRunner.query(`ALTER TABLE "ticket" DROP CONSTRAINT "FK_115a445072b310f3788773ce222"`);
    await queryRunner.query(`ALTER TABLE "round" DROP CONSTRAINT "FK_caade5cd5be2c6ef14273e5d40f"`);
    await queryRunner.query(`ALTER TABLE "round" DROP CONSTRAINT "FK_582d36f6de93197c4d8cbc3265f"`);
    await queryRunner.query(`ALTER TABLE "round" DROP CONSTRAINT "FK_cc038bfef161bc8f4521da37688"`);
    await queryRunner.query(`ALTER TABLE "price_component" DROP CONSTRAINT "FK_1c28f9de162ea976c2e865fcf2b"`);
    await queryRunner.query(`ALTER TABLE "price_component" DROP CONSTRAINT "FK_ef6e09a3e0ee7b41cc354d3a05d"`);
    await queryRunner.query(`ALTER TABLE "price_component" DROP CONSTRAINT "FK_7dcc30910561ca1752baa13a01e"`);
    await queryRunner.query(`ALTER TABLE "template" DROP CONSTRAINT "FK_e4e0d396a6e2b9aa92d00bac9a4"`);
    await queryRunner.query(`ALTER TABLE "token" DROP CONSTRAINT "FK_18279c403ff40f4174dae38229b"`);
    await queryRunner.query(`ALTER TABLE "contract" DROP CONSTRAINT "FK_5864725a049c3475d0a9c7f4253"`);
    await queryRunner.query(`ALTER TABLE "claim" DROP CONSTRAINT "FK_e666ebeb9ac3bf68a21ff9c7cb8"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_4505fadbecfd29c0a6848e9b392"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e20de6188e05fed33182f08de4"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cc7e465e1ed7f56a03dbd0f39f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eaf2f55eb4f87805f0776a4fe1"`);
    await queryRunner.query(`DROP TABLE "ticket"`);
    await queryRunner.query(`DROP TYPE "public"."ticket_ticket_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6ec19e345f61720cc5ca15d6f1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f9e62dbbad312a0b2251a05486"`);
    await queryRunner.query(`DROP TABLE "ticket_voucher"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_111b3a8f95ba626034682c7bf4"`);
    await queryRunner.query(`DROP TABLE "round"`);
    await queryRunner.query(`DROP TYPE "public"."round_round_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1c28f9de162ea976c2e865fcf2"`);
    await queryRunner.query(`DROP TABLE "price_component"`);
    await queryRunner.query(`DROP TYPE "public"."price_component_token_type_enum"`);
    await queryRunner.query(`DROP TABLE "price"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e4e0d396a6e2b9aa92d00bac9a"`);
    await queryRunner.query(`DROP TABLE "template"`);
    await queryRunner.query(`DROP TYPE "public"."template_template_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c3205e87dcc99ca98f7f28b5e0"`);
    await queryRunner.query(`DROP TABLE "token"`);
    await queryRunner.query(`DROP TYPE "public"."token_token_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fc193a623a577c4b518dbe965a"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d9a602c70f9effa7fba72a6912"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cf075e0c1e56aa94e841eb4225"`);
    await queryRunner.query(`DROP TABLE "indexer_event"`);
    await queryRunner.query(`DROP TYPE "public"."indexer_event_status_enum"`);
    await queryRunner.query(`DROP TABLE "indexer_block"`);
    await queryRunner.query(`DROP TABLE "indexer_cursor"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2e7d2e037942b11cd322ce659f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_463fbc08b97c5dbac1717bd765"`);
    await queryRunner.query(`DROP TABLE "contract"`);
    await queryRunner.query(`DROP TYPE "public"."contract_contract_security_enum"`);
    await queryRunner.query(`DROP TYPE "public"."contract_contract_module_enum"`);
    await queryRunner.query(`DROP TYPE "public"."contract_contract_features_enum"`);
    await queryRunner.query(`DROP TYPE "public"."contract_contract_type_enum"`);
    await queryRunner.query(`DROP TYPE "public"."contract_contract_status_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_31c1f437b8a3664125d6a13199"`);
    await queryRunner.query(`DROP TABLE "claim"`);
    await queryRunner.query(`DROP TYPE "public"."claim_claim_status_enum"`);
    await queryRunner.query(`DROP TYPE "public"."claim_claim_type_enum"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c4f6ccad30c0862eb54af9fb0a"`);
    await queryRunner.query(`DROP TABLE "api_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9de86fc9480cd3b9b4fd8e4c88"`);
    await queryRunner.query(`DROP TABLE "merchant"`);
  }
}
