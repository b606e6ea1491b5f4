import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Raffle v2 (issue #28): each round's rules (prize shares, minimum, wallet cap, bundles), pot, random word and refund
 * reason; a ticket's price tier and what it paid; a table of winner positions; refund claims, one per ticket; the
 * WINNERS_PENDING status. `round_winner` is a projection of the chain, so it gets the indexer's undo trigger like
 * the other projected tables. Rows indexed before keep their meaning: v1 rounds had the default rules, one winner
 * taking the pot, and tickets that each paid the round's price.
 */
export class RaffleV21764500000000 implements MigrationInterface {
  name = "RaffleV21764500000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."claim_claim_type_enum" ADD VALUE 'RAFFLE_REFUND'`);
    await queryRunner.query(`ALTER TYPE "public"."round_round_status_enum" ADD VALUE 'WINNERS_PENDING'`);

    await queryRunner.query(`ALTER TABLE "round" ADD "pot" numeric(78,0) NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "round" ADD "random_word" numeric(78,0)`);
    await queryRunner.query(`ALTER TABLE "round" ADD "refund_reason" character varying(32)`);
    await queryRunner.query(`ALTER TABLE "round" ADD "rules_version" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "round" ADD "prize_shares" jsonb NOT NULL DEFAULT '[10000]'`);
    await queryRunner.query(`ALTER TABLE "round" ADD "min_tickets" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "round" ADD "max_tickets_per_wallet" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "round" ADD "bundles" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "ticket" ADD "tier" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "ticket" ADD "paid_amount" numeric(78,0) NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE INDEX "IDX_ae5f18a4931ef10cbe11169340" ON "ticket"  ("round_id", "buyer") `);

    // One prize claim per winning ticket (several per round now) and one refund claim per ticket.
    await queryRunner.query(`DROP INDEX "public"."UQ_claim_prize_round"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_claim_raffle_ticket" ON "claim"  ("contract_id", "token_id", "claim_type") WHERE "claim_type" <> 'VOUCHER'`,
    );

    await queryRunner.query(`CREATE TYPE "public"."round_winner_claim_status_enum" AS ENUM('UNCLAIMED', 'CLAIMED', 'RELEASED')`);
    await queryRunner.query(
      `CREATE TABLE "round_winner" ("id" SERIAL NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "round_id" integer NOT NULL, "position" integer NOT NULL,
        "ticket_id" numeric(78,0) NOT NULL, "account" character varying(42) NOT NULL, "share" integer NOT NULL, "amount" numeric(78,0) NOT NULL,
        "claim_status" "public"."round_winner_claim_status_enum" NOT NULL DEFAULT 'UNCLAIMED', "indexed_block" bigint NOT NULL,
        CONSTRAINT "PK_020c66aec00970d783928af410d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_4c8ad570f10083cbd128620ddf" ON "round_winner"  ("round_id", "position") `);
    await queryRunner.query(
      `ALTER TABLE "round_winner" ADD CONSTRAINT "FK_09ecf873e42cc0e1ca8e9d9ccb4" FOREIGN KEY ("round_id") REFERENCES "round"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "indexer_undo_round_winner" AFTER INSERT OR UPDATE OR DELETE ON "round_winner" FOR EACH ROW EXECUTE FUNCTION indexer_record_undo()`,
    );

    // v1 rows: every ticket paid the round's price, the pot was count x price, and a drawn round had one winner.
    await queryRunner.query(
      `UPDATE ticket t SET paid_amount = pc.amount FROM round r
         JOIN LATERAL (SELECT amount FROM price_component p WHERE p.price_id = r.price_id ORDER BY p.id LIMIT 1) pc ON true
        WHERE r.id = t.round_id`,
    );
    await queryRunner.query(`UPDATE round r SET pot = COALESCE((SELECT sum(paid_amount) FROM ticket t WHERE t.round_id = r.id), 0)`);
    await queryRunner.query(
      `INSERT INTO round_winner (round_id, position, ticket_id, account, share, amount, claim_status, indexed_block, created_at, updated_at)
       SELECT r.id, 0, r.winning_ticket_id, COALESCE(t.account, '0x0000000000000000000000000000000000000000'), 10000, r.pot,
              CASE WHEN t.ticket_status::text = 'PRIZE_CLAIMED' THEN 'CLAIMED'::round_winner_claim_status_enum
                   WHEN r.round_status::text = 'RELEASED' THEN 'RELEASED'::round_winner_claim_status_enum
                   ELSE 'UNCLAIMED'::round_winner_claim_status_enum END,
              r.indexed_block, COALESCE(r.drawn_at, r.updated_at), COALESCE(r.drawn_at, r.updated_at)
         FROM round r LEFT JOIN ticket t ON t.contract_id = r.ticket_contract_id AND t.token_id = r.winning_ticket_id
        WHERE r.winning_ticket_id IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "round_winner"`);
    await queryRunner.query(`DROP TYPE "public"."round_winner_claim_status_enum"`);
    await queryRunner.query(`DELETE FROM "claim" WHERE "claim_type" = 'RAFFLE_REFUND'`);
    await queryRunner.query(`DROP INDEX "public"."UQ_claim_raffle_ticket"`);
    // Several prize claims of one round cannot go back under the v1 index: keep the first position's.
    await queryRunner.query(
      `DELETE FROM "claim" c WHERE c.claim_type = 'RAFFLE_PRIZE' AND EXISTS (
         SELECT 1 FROM "claim" o WHERE o.claim_type = 'RAFFLE_PRIZE' AND o.contract_id = c.contract_id AND o.round_id = c.round_id AND o.id < c.id)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_claim_prize_round" ON "claim"  ("contract_id", "round_id") WHERE "claim_type" = 'RAFFLE_PRIZE'`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ae5f18a4931ef10cbe11169340"`);
    for (const column of ["tier", "paid_amount"]) await queryRunner.query(`ALTER TABLE "ticket" DROP COLUMN "${column}"`);
    for (const column of [
      "pot",
      "random_word",
      "refund_reason",
      "rules_version",
      "prize_shares",
      "min_tickets",
      "max_tickets_per_wallet",
      "bundles",
    ]) {
      await queryRunner.query(`ALTER TABLE "round" DROP COLUMN "${column}"`);
    }
    // PostgreSQL cannot drop an enum value; rebuild both types without theirs.
    await queryRunner.query(`UPDATE "round" SET "round_status" = 'DRAWING' WHERE "round_status" = 'WINNERS_PENDING'`);
    await rebuildEnum(
      queryRunner,
      "round",
      "round_status",
      "round_round_status_enum",
      ["ACTIVE", "DRAWING", "DRAWN", "CLOSED", "REFUNDABLE", "CLAIMED", "RELEASED"],
      "ACTIVE",
    );
    await rebuildEnum(queryRunner, "claim", "claim_type", "claim_claim_type_enum", ["RAFFLE_PRIZE", "VOUCHER"], null);
  }
}

async function rebuildEnum(
  queryRunner: QueryRunner,
  table: string,
  column: string,
  type: string,
  values: string[],
  fallback: string | null,
): Promise<void> {
  await queryRunner.query(`ALTER TYPE "public"."${type}" RENAME TO "${type}_old"`);
  await queryRunner.query(`CREATE TYPE "public"."${type}" AS ENUM(${values.map((value) => `'${value}'`).join(", ")})`);
  if (fallback) await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" DROP DEFAULT`);
  await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE "public"."${type}" USING "${column}"::text::"public"."${type}"`);
  if (fallback) await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" SET DEFAULT '${fallback}'`);
  await queryRunner.query(`DROP TYPE "public"."${type}_old"`);
}
