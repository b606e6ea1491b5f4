import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Each Sign-In with Ethereum nonce is for one route, the player's or the merchant console's (SignInPurpose): a nonce
 * the player route issued can never open a console session. Nonces issued before live a few minutes and were all
 * the player route's or the console's alike; they count as the player's.
 */
export class SiweNoncePurpose1765500000000 implements MigrationInterface {
  name = "SiweNoncePurpose1765500000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "siwe_nonce" ADD "purpose" character varying(16) NOT NULL DEFAULT 'player'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "siwe_nonce" DROP COLUMN "purpose"`);
  }
}
