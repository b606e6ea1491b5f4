import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Raffle prizes claimed before the indexer recorded the claiming transaction: fill `redeemed_tx_hash` from the
 * stored PrizeClaimed events. Data only; new claims get it from the indexer.
 */
export class PrizeRedemptionTx1763900000000 implements MigrationInterface {
  name = "PrizeRedemptionTx1763900000000";

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE claim cl SET redeemed_tx_hash = e.tx_hash
         FROM round r, contract c, indexer_event e
        WHERE cl.claim_type = 'RAFFLE_PRIZE' AND cl.claim_status = 'REDEEMED' AND cl.redeemed_tx_hash IS NULL
          AND r.id = cl.round_id AND c.id = cl.contract_id
          AND e.chain_id = c.chain_id AND e.address = c.address AND e.name = 'PrizeClaimed' AND e.status = 'APPLIED'
          AND (e.args->>'roundId')::numeric = r.round_id`,
    );
  }

  public async down(): Promise<void> {
    // Nothing to undo: the column stays, and the filled hashes are true.
  }
}
