import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Who last used a key: the User-Agent and source IP of the call that last wrote `last_used_at` (to the minute, in the
 * same write), so the console's Revoke can say which client a revocation would cut off.
 */
export class ApiKeyLastCaller1765700000000 implements MigrationInterface {
  name = "ApiKeyLastCaller1765700000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" ADD "last_used_user_agent" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "last_used_ip" character varying(45)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "last_used_ip"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "last_used_user_agent"`);
  }
}
