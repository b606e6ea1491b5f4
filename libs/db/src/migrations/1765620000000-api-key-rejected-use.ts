import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `last_rejected_at`: when a revoked key last presented its right secret, so the console can say a revoked key is
 * still being used. A rolled key keeps working until its `revoked_at`, which may now lie in the future.
 */
export class ApiKeyRejectedUse1765620000000 implements MigrationInterface {
  name = "ApiKeyRejectedUse1765620000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" ADD "last_rejected_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "last_rejected_at"`);
  }
}
