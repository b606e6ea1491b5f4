import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Item prizes (issue #53): `round_item`, one row per item a round holds in escrow and where it is now, and the
 * RAFFLE_ITEM claim type (a winner position's item, as RAFFLE_PRIZE is its share of the pot). `round_item` is a
 * projection of the chain, so it gets the indexer's three undo triggers like the other projected tables.
 */
export class RoundItems1765900000000 implements MigrationInterface {
  name = "RoundItems1765900000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."claim_claim_type_enum" ADD VALUE 'RAFFLE_ITEM'`);
    await queryRunner.query(`CREATE TYPE "public"."round_item_status_enum" AS ENUM('ESCROWED', 'CLAIMED', 'RETURNED')`);
    await queryRunner.query(
      `CREATE TABLE "round_item" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "round_id" integer NOT NULL, "position" integer NOT NULL,
        "token_type" character varying(16) NOT NULL, "token" character varying(42) NOT NULL, "token_id" numeric(78,0) NOT NULL,
        "amount" numeric(78,0) NOT NULL, "merchant" character varying(42) NOT NULL,
        "status" "public"."round_item_status_enum" NOT NULL DEFAULT 'ESCROWED', "ticket_id" numeric(78,0), "claimed_by" character varying(42),
        "tx_hash" character varying(66) NOT NULL, "failed_to" character varying(42), "failed_reason" text, "failed_tx_hash" character varying(66),
        "indexed_block" bigint NOT NULL, CONSTRAINT "PK_d96ffa60eb34baa8928027af46b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c1534066f750e5781c950fd707" ON "round_item"  ("round_id", "position") `);
    await queryRunner.query(
      `ALTER TABLE "round_item" ADD CONSTRAINT "FK_983d917823ff6b242799406c519" FOREIGN KEY ("round_id") REFERENCES "round"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    for (const op of UNDO_OPS) {
      await queryRunner.query(
        `CREATE TRIGGER "indexer_undo_round_item_${op.suffix}" AFTER ${op.event} ON "round_item" REFERENCING ${op.referencing}
         FOR EACH STATEMENT EXECUTE FUNCTION indexer_record_undo_rows()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "round_item"`);
    await queryRunner.query(`DROP TYPE "public"."round_item_status_enum"`);
    // PostgreSQL cannot drop an enum value: rebuild the type without it (its partial index goes and comes back).
    await queryRunner.query(`DELETE FROM "claim" WHERE "claim_type" = 'RAFFLE_ITEM'`);
    await queryRunner.query(`DROP INDEX "public"."UQ_claim_raffle_ticket"`);
    await queryRunner.query(`ALTER TYPE "public"."claim_claim_type_enum" RENAME TO "claim_claim_type_enum_old"`);
    await queryRunner.query(`CREATE TYPE "public"."claim_claim_type_enum" AS ENUM('RAFFLE_PRIZE', 'VOUCHER', 'RAFFLE_REFUND')`);
    await queryRunner.query(
      `ALTER TABLE "claim" ALTER COLUMN "claim_type" TYPE "public"."claim_claim_type_enum" USING "claim_type"::text::"public"."claim_claim_type_enum"`,
    );
    await queryRunner.query(`DROP TYPE "public"."claim_claim_type_enum_old"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_claim_raffle_ticket" ON "claim"  ("contract_id", "token_id", "claim_type") WHERE "claim_type" <> 'VOUCHER'`,
    );
  }
}

/** The statement triggers of the undo log (BulkUndoLog1764800000000, UndoInsertsPerStatement1764900000000). */
const UNDO_OPS = [
  { event: "INSERT", suffix: "insert", referencing: "NEW TABLE AS changed_rows" },
  { event: "UPDATE", suffix: "update", referencing: "OLD TABLE AS old_rows NEW TABLE AS changed_rows" },
  { event: "DELETE", suffix: "delete", referencing: "OLD TABLE AS old_rows" },
] as const;
