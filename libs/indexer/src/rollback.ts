import { ZeroAddress } from "ethers";
import type { EntityManager } from "typeorm";

import type { EventArgs } from "./decode";
import type { IndexedEvent } from "./indexed-event";
import type { Projector } from "./projector";

/** Raffle events that change a round after it started; replayed, in order, to rebuild a round. */
const ROUND_MUTATIONS = ["RoundEnded", "WinnerDrawn", "PrizeClaimed", "PrizeReleased", "RoundRefundable", "TicketRefunded"];

interface StoredEvent {
  block_number: string;
  block_timestamp: Date;
  tx_hash: string;
  log_index: number;
  address: string;
  name: string;
  args: EventArgs;
}

function toIndexedEvent(chainId: number, row: StoredEvent): IndexedEvent {
  return {
    chainId,
    blockNumber: Number(row.block_number),
    blockTimestamp: row.block_timestamp,
    txHash: row.tx_hash,
    logIndex: row.log_index,
    address: row.address,
    name: row.name,
    args: row.args,
  };
}

/**
 * Rolls the projections of `chainId` back to block `ancestor`, inside the caller's transaction:
 * 1. rows first created after the ancestor go (contracts, rounds, tickets, prize claims, raw events, blocks);
 * 2. every surviving round touched by a removed event is reset to how it started and its remaining events are
 *    applied again, with the same handlers as the forward path;
 * 3. pause flags and `parameters.roundId` are recomputed from what remains.
 * Surviving rows keep their ids, so round ids handed out as `externalId` stay valid.
 */
export async function rollbackTo(manager: EntityManager, chainId: number, ancestor: number, projector: Projector): Promise<void> {
  const removed: StoredEvent[] = await manager.query(
    `SELECT e.block_number, e.block_timestamp, e.tx_hash, e.log_index, e.address, e.name, e.args
       FROM indexer_event e WHERE e.chain_id = $1 AND e.block_number > $2 AND e.status = 'APPLIED'`,
    [chainId, ancestor],
  );

  // Rounds touched by removed events: raffle events name their round; ticket transfers name a token.
  const touchedRounds: Array<{ id: number; contract_id: number }> = await manager.query(
    `SELECT DISTINCT r.id, r.contract_id
       FROM indexer_event e
       JOIN contract c ON c.chain_id = e.chain_id AND c.address = e.address
       LEFT JOIN ticket t ON c.contract_type = 'ERC721' AND t.contract_id = c.id AND t.token_id = (e.args->>'tokenId')::numeric
       JOIN round r ON (r.contract_id = c.id AND r.round_id = (e.args->>'roundId')::numeric) OR r.id = t.round_id
      WHERE e.chain_id = $1 AND e.block_number > $2 AND e.status = 'APPLIED' AND r.indexed_block <= $2`,
    [chainId, ancestor],
  );
  // Claim vouchers redeemed in removed blocks are open again (or canceled or expired, as they were).
  const redeemedNonces = removed.filter((event) => event.name === "Claimed").map((event) => event.args.nonce as string);
  if (redeemedNonces.length > 0) {
    await manager.query(
      `UPDATE claim SET redeemed_tx_hash = NULL,
              claim_status = CASE WHEN canceled_at IS NOT NULL THEN 'CANCELED'::claim_claim_status_enum
                                  WHEN end_timestamp < now() THEN 'EXPIRED'::claim_claim_status_enum
                                  ELSE 'NEW'::claim_claim_status_enum END
        WHERE claim_type = 'VOUCHER' AND nonce = ANY($1)`,
      [redeemedNonces],
    );
  }
  const pausedContracts = new Set(
    removed.filter((event) => event.name === "Paused" || event.name === "Unpaused").map((event) => event.address),
  );

  await manager.query(`DELETE FROM claim WHERE indexed_block > $1 AND contract_id IN (SELECT id FROM contract WHERE chain_id = $2)`, [ancestor, chainId]);
  await manager.query(`DELETE FROM contract WHERE chain_id = $1 AND contract_module = 'RAFFLE' AND indexed_block > $2`, [chainId, ancestor]);
  await manager.query(
    `DELETE FROM claim WHERE claim_type = 'RAFFLE_PRIZE' AND contract_id IS NOT NULL AND contract_id NOT IN (SELECT id FROM contract)`,
  );
  await manager.query(
    `DELETE FROM round WHERE indexed_block > $2 AND contract_id IN (SELECT id FROM contract WHERE chain_id = $1)`,
    [chainId, ancestor],
  );
  await manager.query(
    `DELETE FROM ticket WHERE indexed_block > $2 AND contract_id IN (SELECT id FROM contract WHERE chain_id = $1)`,
    [chainId, ancestor],
  );
  await manager.query(`DELETE FROM price WHERE id NOT IN (SELECT price_id FROM round)`);
  await manager.query(`DELETE FROM indexer_event WHERE chain_id = $1 AND block_number > $2`, [chainId, ancestor]);
  await manager.query(`DELETE FROM indexer_block WHERE chain_id = $1 AND number > $2`, [chainId, ancestor]);

  for (const round of touchedRounds) await rebuildRound(manager, chainId, round.id, projector);

  for (const address of pausedContracts) {
    await manager.query(
      `UPDATE contract SET is_paused = COALESCE((
           SELECT e.name = 'Paused' FROM indexer_event e
            WHERE e.chain_id = $1 AND e.address = $2 AND e.name IN ('Paused', 'Unpaused') AND e.status = 'APPLIED'
            ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1), false)
        WHERE chain_id = $1 AND address = $2`,
      [chainId, address],
    );
  }
  const raffles = new Set(touchedRounds.map((round) => round.contract_id));
  const startedRaffles: Array<{ id: number }> = await manager.query(
    `SELECT DISTINCT c.id FROM contract c WHERE c.chain_id = $1 AND c.address = ANY($2) AND c.contract_module = 'RAFFLE' AND c.contract_type IS NULL`,
    [chainId, [...new Set(removed.map((event) => event.address))]],
  );
  for (const { id } of startedRaffles) raffles.add(id);
  for (const raffleId of raffles) await projector.refreshCurrentRoundId(manager, raffleId, null);

  // A contract's updated_at is the time of the last event that changed its row; recompute it for the touched ones.
  await manager.query(
    `UPDATE contract c SET updated_at = GREATEST(c.created_at, COALESCE((
         SELECT max(e.block_timestamp) FROM indexer_event e
          WHERE e.chain_id = c.chain_id AND e.address = c.address AND e.status = 'APPLIED'
            AND e.name IN ('Paused', 'Unpaused', 'RoundStarted')), c.created_at))
      WHERE c.chain_id = $1 AND (c.id = ANY($2) OR c.address = ANY($3))`,
    [chainId, [...raffles], [...pausedContracts]],
  );
}

/** Resets a round, its tickets and its prize claim to how the round started, then re-applies its later events. */
async function rebuildRound(manager: EntityManager, chainId: number, roundRowId: number, projector: Projector): Promise<void> {
  const [round] = await manager.query(
    `SELECT r.round_id, r.first_ticket_id, r.start_timestamp, raffle.address AS raffle, ticket.address AS ticket
       FROM round r JOIN contract raffle ON raffle.id = r.contract_id JOIN contract ticket ON ticket.id = r.ticket_contract_id
      WHERE r.id = $1`,
    [roundRowId],
  );
  await manager.query(
    `UPDATE round SET end_timestamp = NULL, round_status = 'ACTIVE', winning_ticket_id = NULL, drawn_at = NULL,
            vrf_request_id = NULL, ticket_count = (SELECT count(*) FROM ticket WHERE round_id = $1)
      WHERE id = $1`,
    [roundRowId],
  );
  await manager.query(
    `UPDATE ticket SET account = buyer, is_prize = false, ticket_status = 'ACTIVE', updated_at = created_at WHERE round_id = $1`,
    [roundRowId],
  );

  const events: StoredEvent[] = await manager.query(
    `SELECT block_number, block_timestamp, tx_hash, log_index, address, name, args FROM indexer_event
      WHERE chain_id = $1 AND status = 'APPLIED' AND (
            (address = $2 AND name = ANY($3) AND (args->>'roundId')::numeric = $4)
         OR (address = $5 AND name = 'Transfer' AND args->>'from' <> $6 AND args->>'to' <> $6
             AND (args->>'tokenId')::numeric IN (SELECT token_id FROM ticket WHERE round_id = $7)))
      ORDER BY block_number, log_index`,
    [chainId, round.raffle, ROUND_MUTATIONS, round.round_id, round.ticket, ZeroAddress, roundRowId],
  );
  // Without its WinnerDrawn event left, the round has no prize claim: the claim was removed with the event's block.
  let lastChange: Date = round.start_timestamp;
  for (const event of events) {
    await projector.apply(manager, toIndexedEvent(chainId, event));
    lastChange = event.block_timestamp;
  }
  await manager.query(
    `UPDATE round SET updated_at = GREATEST($2::timestamptz, COALESCE((SELECT max(created_at) FROM ticket WHERE round_id = $1), $2::timestamptz)) WHERE id = $1`,
    [roundRowId, lastChange],
  );
}
