import { TicketStatus } from "@raffle/db";

import { ContractKind } from "../decode";
import { argString } from "../indexed-event";
import { onEvent, type SingleEventHandler } from "./handler";
import { markRoundClaimedIfSettled, pauseChanged, updateReturning } from "./shared";

/** After the draw: prizes claimed or released, tickets refunded; and the raffle's pause. */
export const RAFFLE_SETTLEMENT_HANDLERS: SingleEventHandler[] = [
  onEvent({
    /** One winner position's prize was paid: the round is CLAIMED once no position nor item is left unclaimed. */
    contract: ContractKind.RAFFLE,
    event: "PrizeClaimed",
    writes: ["round_winner", "ticket", "claim", "round"],
    webhook: "prize.claimed",
    async project(_deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const ticketId = argString(args, "ticketId");
      const [winner] = await updateReturning<{ round_id: number; share: number }>(
        manager,
        `UPDATE round_winner w SET claim_status = 'CLAIMED', updated_at = $4
           FROM round r WHERE r.id = w.round_id AND r.contract_id = $1 AND r.round_id = $2 AND w.ticket_id = $3
         RETURNING w.round_id, w.share`,
        [raffle.id, argString(args, "roundId"), ticketId, at],
      );
      if (!winner) return;
      await manager.query(
        `UPDATE ticket t SET ticket_status = $3, updated_at = $4 FROM round r WHERE r.id = $1 AND t.contract_id = r.ticket_contract_id AND t.token_id = $2`,
        [winner.round_id, ticketId, TicketStatus.PRIZE_CLAIMED, at],
      );
      await manager.query(
        `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $4, updated_at = $5
          WHERE contract_id = $1 AND round_id = $2 AND token_id = $3 AND claim_type = 'RAFFLE_PRIZE'`,
        [raffle.id, winner.round_id, ticketId, event.txHash, at],
      );
      await markRoundClaimedIfSettled(manager, winner.round_id, at);
      // A position past the round's shares carries only an item: its PrizeClaimed (prize 0) pays no money, and
      // merchants hear of its claim through item.claimed instead.
      if (winner.share === 0) return { subject: null };
    },
  }),
  onEvent({
    /** Every prize of the round still unclaimed went to the merchant's beneficiary; nobody redeemed those claims. */
    contract: ContractKind.RAFFLE,
    event: "PrizeReleased",
    writes: ["round", "round_winner", "ticket", "claim"],
    webhook: "prize.released",
    async project(_deps, manager, event, raffle) {
      const { blockTimestamp: at } = event;
      const [round] = await updateReturning<{ id: number; ticket_contract_id: number }>(
        manager,
        `UPDATE round SET round_status = 'RELEASED', updated_at = $3 WHERE contract_id = $1 AND round_id = $2 RETURNING id, ticket_contract_id`,
        [raffle.id, argString(event.args, "roundId"), at],
      );
      if (!round) return;
      const released = await updateReturning<{ ticket_id: string }>(
        manager,
        `UPDATE round_winner SET claim_status = 'RELEASED', updated_at = $2 WHERE round_id = $1 AND claim_status = 'UNCLAIMED' RETURNING ticket_id`,
        [round.id, at],
      );
      const ticketIds = released.map((row) => String(row.ticket_id));
      await manager.query(`UPDATE ticket SET ticket_status = $3, updated_at = $4 WHERE contract_id = $1 AND token_id = ANY($2::numeric[])`, [
        round.ticket_contract_id,
        ticketIds,
        TicketStatus.PRIZE_RELEASED,
        at,
      ]);
      await manager.query(
        `UPDATE claim SET claim_status = 'RELEASED', updated_at = $3
          WHERE contract_id = $1 AND round_id = $2 AND claim_type = 'RAFFLE_PRIZE' AND claim_status = 'NEW'`,
        [raffle.id, round.id, at],
      );
    },
  }),
  onEvent({
    contract: ContractKind.RAFFLE,
    event: "TicketRefunded",
    writes: ["ticket", "claim"],
    webhook: "ticket.refunded",
    async project(_deps, manager, event, raffle) {
      const [ticket] = await updateReturning<{ round_id: number; token_id: string }>(
        manager,
        `UPDATE ticket t SET ticket_status = $4, updated_at = $5
           FROM round r WHERE r.id = t.round_id AND r.contract_id = $1 AND r.round_id = $2 AND t.token_id = $3
         RETURNING t.round_id, t.token_id`,
        [raffle.id, argString(event.args, "roundId"), argString(event.args, "ticketId"), TicketStatus.REFUNDED, event.blockTimestamp],
      );
      if (!ticket) return;
      await manager.query(
        `UPDATE claim SET claim_status = 'REDEEMED', redeemed_tx_hash = $3, updated_at = $4
          WHERE contract_id = $1 AND token_id = $2 AND claim_type = 'RAFFLE_REFUND'`,
        [raffle.id, ticket.token_id, event.txHash, event.blockTimestamp],
      );
    },
  }),
  onEvent({
    contract: ContractKind.RAFFLE,
    event: "Paused",
    writes: ["contract"],
    webhook: "raffle.paused",
    project: (_deps, manager, event, raffle) => pauseChanged(manager, raffle, event),
  }),
  onEvent({
    contract: ContractKind.RAFFLE,
    event: "Unpaused",
    writes: ["contract"],
    webhook: "raffle.unpaused",
    project: (_deps, manager, event, raffle) => pauseChanged(manager, raffle, event),
  }),
];
