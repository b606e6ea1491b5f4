import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A ticket's two foreign keys, to its ticket contract and to its round, become one on both columns: the round and that
 * round's ticket contract. It holds more (a ticket's contract is its round's, which the indexer always wrote) and costs
 * one lookup per ticket written instead of two: 20,000 tickets in 240-250 ms against 340-600 ms (docs/performance.md,
 * "Indexer backfill"). Deleting a contract still deletes its tickets, through its rounds.
 */
export class TicketRoundContractKey1765200000000 implements MigrationInterface {
  name = "TicketRoundContractKey1765200000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "round" ADD CONSTRAINT "UQ_round_id_ticket_contract" UNIQUE ("id", "ticket_contract_id")`);
    await queryRunner.query(`ALTER TABLE "ticket" DROP CONSTRAINT "FK_115a445072b310f3788773ce222"`);
    await queryRunner.query(`ALTER TABLE "ticket" DROP CONSTRAINT "FK_cc7e465e1ed7f56a03dbd0f39f5"`);
    await queryRunner.query(
      `ALTER TABLE "ticket" ADD CONSTRAINT "FK_ticket_round_contract" FOREIGN KEY ("round_id", "contract_id") REFERENCES "round"("id", "ticket_contract_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "ticket" DROP CONSTRAINT "FK_ticket_round_contract"`);
    await queryRunner.query(
      `ALTER TABLE "ticket" ADD CONSTRAINT "FK_cc7e465e1ed7f56a03dbd0f39f5" FOREIGN KEY ("round_id") REFERENCES "round"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "ticket" ADD CONSTRAINT "FK_115a445072b310f3788773ce222" FOREIGN KEY ("contract_id") REFERENCES "contract"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "round" DROP CONSTRAINT "UQ_round_id_ticket_contract"`);
  }
}
