import type { EntityManager } from "typeorm";

import { ContractKind } from "../decode";
import { argString, type IndexedEvent } from "../indexed-event";
import type { RegisteredContract } from "../registry";
import type { EventName } from "./contract-events";
import { onEvent, type ContractEvent, type SingleEventHandler } from "./handler";
import { merchantOf, updateReturning, type AssetArgs } from "./shared";

/** A raffle round's life up to its draw: started, its rules, ended, and the ways it becomes refundable. */

const round = <Name extends EventName<ContractKind.RAFFLE>>(
  event: Name,
  rest: Omit<SingleEventHandler<ContractEvent<ContractKind.RAFFLE, Name>>, "contract" | "event">,
): SingleEventHandler => onEvent<ContractKind.RAFFLE, Name>({ contract: ContractKind.RAFFLE, event, ...rest });

/** `parameters.roundId` of a raffle: its latest round, 0 before the first. */
async function refreshCurrentRoundId(manager: EntityManager, raffleId: number, at: Date | null): Promise<void> {
  await manager.query(
    `UPDATE contract SET parameters = jsonb_set(parameters, '{roundId}',
            to_jsonb(COALESCE((SELECT max(round_id) FROM round WHERE contract_id = $1), 0)::bigint)),
            updated_at = COALESCE($2, updated_at)
      WHERE id = $1`,
    [raffleId, at],
  );
}

async function setRefundReason(manager: EntityManager, raffle: RegisteredContract, event: IndexedEvent<"roundId">, reason: string): Promise<void> {
  await manager.query(`UPDATE round SET refund_reason = $3, updated_at = $4 WHERE contract_id = $1 AND round_id = $2`, [
    raffle.id,
    argString(event.args, "roundId"),
    reason,
    event.blockTimestamp,
  ]);
}

export const RAFFLE_ROUND_HANDLERS: SingleEventHandler[] = [
  round("RoundStarted", {
    // The price token's contract, template and token rows are created on its first use.
    writes: ["price", "price_component", "contract", "template", "token", "round"],
    webhook: "round.started",
    async project(deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const roundId = argString(args, "roundId");
      const ticket = args.ticket as unknown as AssetArgs;
      const price = args.price as unknown as AssetArgs;
      const ticketContract = deps.registry.get(ticket.token);
      if (!ticketContract) throw new Error(`round ${roundId} of ${raffle.address} names unknown ticket ${ticket.token}`);

      const priceId = await deps.priceTokens.insertPrice(manager, price, at);
      const roundNumber = Number(roundId);
      await manager.query(
        `INSERT INTO round (number, round_id, contract_id, ticket_contract_id, price_id, max_tickets, start_timestamp,
                            ticket_count, round_status, first_ticket_id, indexed_block, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 'ACTIVE', $8, $9, $7, $7)`,
        [
          Number.isSafeInteger(roundNumber) && roundNumber <= 2_147_483_647 ? roundNumber : null,
          roundId,
          raffle.id,
          ticketContract.id,
          priceId,
          argString(args, "maxTicket"),
          at,
          argString(args, "firstTicketId"),
          event.blockNumber,
        ],
      );
      await refreshCurrentRoundId(manager, raffle.id, at);
    },
  }),

  /** The rules the round plays by, fixed when it started (emitted right after RoundStarted). */
  round("RoundRulesApplied", {
    writes: ["round"],
    async project(_deps, manager, event, raffle) {
      const rules = event.args.rules as {
        prizeShares: string[];
        minTickets: string;
        maxTicketsPerWallet: string;
        bundles: Array<{ quantity: string; price: string }>;
      };
      await manager.query(
        `UPDATE round SET rules_version = $3, prize_shares = $4, min_tickets = $5, max_tickets_per_wallet = $6, bundles = $7
          WHERE contract_id = $1 AND round_id = $2`,
        [
          raffle.id,
          argString(event.args, "roundId"),
          argString(event.args, "version"),
          JSON.stringify(rules.prizeShares.map(Number)),
          rules.minTickets,
          rules.maxTicketsPerWallet,
          JSON.stringify(rules.bundles.map((bundle) => ({ quantity: Number(bundle.quantity), price: bundle.price }))),
        ],
      );
    },
  }),

  round("RoundEnded", {
    writes: ["round"],
    webhook: "round.ended",
    async project(_deps, manager, event, raffle) {
      const { args, blockTimestamp: at } = event;
      const ticketCount = argString(args, "ticketCount");
      const requestId = argString(args, "vrfRequestId");
      // DRAWING until the events that follow in the same transaction say otherwise (refundable, or drawn outright).
      await manager.query(
        `UPDATE round SET end_timestamp = $3, ticket_count = $4::integer, vrf_request_id = $5, updated_at = $3,
                round_status = CASE WHEN $4::integer = 0 THEN 'CLOSED'::round_round_status_enum ELSE 'DRAWING'::round_round_status_enum END
          WHERE contract_id = $1 AND round_id = $2`,
        [raffle.id, argString(args, "roundId"), at, ticketCount, requestId === "0" ? null : requestId],
      );
    },
  }),

  round("MinimumNotReached", {
    writes: ["round"],
    project: (_deps, manager, event, raffle) => setRefundReason(manager, raffle, event, "MINIMUM_NOT_REACHED"),
  }),

  round("DrawRefused", {
    writes: ["round"],
    project: (_deps, manager, event, raffle) => setRefundReason(manager, raffle, event, "DRAW_REFUSED"),
  }),

  /** Every ticket of the round may be refunded: a RAFFLE_REFUND claim per ticket not refunded yet, for its holder. */
  round("RoundRefundable", {
    writes: ["round", "claim"],
    webhook: "round.refundable",
    async project(_deps, manager, event, raffle) {
      const { blockTimestamp: at } = event;
      const [refundable] = await updateReturning<{ id: number; refund_reason: string; ticket_count: number }>(
        manager,
        `UPDATE round SET round_status = 'REFUNDABLE', refund_reason = COALESCE(refund_reason, 'RANDOMNESS_TIMEOUT'), updated_at = $3
          WHERE contract_id = $1 AND round_id = $2 RETURNING id, refund_reason, ticket_count`,
        [raffle.id, argString(event.args, "roundId"), at],
      );
      if (!refundable) return;
      const merchantId = await merchantOf(manager, raffle.id);
      await manager.query(
        `INSERT INTO claim (account, merchant_id, claim_type, claim_status, items, contract_id, round_id, token_id, parameters,
                            indexed_block, created_at, updated_at)
         SELECT t.account, $2, 'RAFFLE_REFUND', 'NEW',
                jsonb_build_array(jsonb_build_object('tokenType', pc.token_type, 'token', pt.address, 'tokenId', pc.token_id::text,
                                                     'amount', t.paid_amount::text)),
                r.contract_id, r.id, t.token_id,
                jsonb_build_object('raffle', $3::text, 'roundId', r.round_id::text, 'ticketId', t.token_id::text),
                $4, $5, $5
           FROM round r JOIN ticket t ON t.round_id = r.id
           JOIN LATERAL (SELECT * FROM price_component p WHERE p.price_id = r.price_id ORDER BY p.id LIMIT 1) pc ON true
           JOIN contract pt ON pt.id = pc.contract_id
          WHERE r.id = $1 AND t.ticket_status = 'ACTIVE'
          ORDER BY t.token_id
         ON CONFLICT (contract_id, token_id, claim_type) WHERE claim_type <> 'VOUCHER' DO NOTHING`,
        [refundable.id, merchantId, raffle.address, event.blockNumber, at],
      );
      return {
        subject: {
          merchantId: raffle.merchantId,
          contractId: raffle.id,
          data: { reason: refundable.refund_reason, ticketCount: refundable.ticket_count },
        },
      };
    },
  }),

  round("RandomnessReceived", {
    writes: ["round"],
    async project(_deps, manager, event, raffle) {
      await manager.query(
        `UPDATE round SET round_status = 'WINNERS_PENDING', random_word = $3, updated_at = $4 WHERE contract_id = $1 AND round_id = $2`,
        [raffle.id, argString(event.args, "roundId"), argString(event.args, "randomWord"), event.blockTimestamp],
      );
    },
  }),
];
