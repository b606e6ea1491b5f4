import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Public sale (issue #29): a merchant's flag that lets wallet users see and buy a raffle, off for every existing row;
 * the single-use Sign-In with Ethereum nonces; and the players' sessions (token hashes only). None of these is a
 * projection of the chain, so none gets the indexer's undo trigger, and `public_sale` is never written by the indexer.
 */
export class PublicSale1764400000000 implements MigrationInterface {
  name = "PublicSale1764400000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "contract" ADD "public_sale" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE TABLE "siwe_nonce" ("nonce" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7a8929735ae7e6ee41db80ed851" PRIMARY KEY ("nonce"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_c683b2058b01719daa48773942" ON "siwe_nonce" ("expires_at")`);
    await queryRunner.query(
      `CREATE TABLE "player_session" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "token_hash" character varying(64) NOT NULL, "address" character varying(42) NOT NULL, "chain_id" integer NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_983078078a04ace9b95b2a2b228" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_df316c21d83077e9d16fcd6ac9" ON "player_session" ("token_hash")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "player_session"`);
    await queryRunner.query(`DROP TABLE "siwe_nonce"`);
    await queryRunner.query(`ALTER TABLE "contract" DROP COLUMN "public_sale"`);
  }
}
