import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";

import { ServedChains } from "../../services/served-chains";
import { DATA_SOURCE } from "../../services/tokens";
import { PlayerTicketState, type PlayerTicketDto } from "./player.dto";

const MAX_LISTED = 200;

interface TicketRow {
  token_id: string;
  serial: number;
  ticket_status: string;
  tx_hash: string;
  round_id: string;
  round_status: string;
  is_prize: boolean;
  contract_id: number;
  title: string;
  raffle: string;
  chain_id: number;
  price: string | null;
  paid_amount: string | null;
  price_type: string | null;
  symbol: string | null;
  decimals: number | null;
  prize: string | null;
  gross_share: string | null;
  commission: string | null;
  round_ticket_count: number;
  round_min_tickets: string;
  refund_reason: string | null;
}

/**
 * What a ticket allows now, from its own status and its round's (as the indexer projected them). A round may have
 * several winners: a winning ticket whose prize is still open is WON whatever its round's status says of the others.
 */
export function ticketState(row: Pick<TicketRow, "ticket_status" | "round_status" | "is_prize">): PlayerTicketState {
  if (row.ticket_status === "REFUNDED") return PlayerTicketState.REFUNDED;
  if (row.ticket_status === "PRIZE_CLAIMED") return PlayerTicketState.CLAIMED;
  if (row.ticket_status === "PRIZE_RELEASED") return PlayerTicketState.RELEASED;
  if (row.round_status === "REFUNDABLE") return PlayerTicketState.REFUNDABLE;
  if (row.round_status === "ACTIVE" || row.round_status === "DRAWING" || row.round_status === "WINNERS_PENDING") return PlayerTicketState.ACTIVE;
  if (row.is_prize && row.round_status !== "RELEASED") return PlayerTicketState.WON;
  return PlayerTicketState.LOST;
}

/** The signed-in address's tickets of raffles on public sale, with what each allows (My tickets). */
@Injectable()
export class PlayerTicketsService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
  ) {}

  async list(address: string): Promise<PlayerTicketDto[]> {
    const rows: TicketRow[] = await this.dataSource.query(
      `SELECT t.token_id, t.serial, t.ticket_status, t.tx_hash, t.is_prize, t.paid_amount, r.round_id, r.round_status,
              r.ticket_count AS round_ticket_count, r.min_tickets::text AS round_min_tickets, r.refund_reason,
              c.id AS contract_id, c.title, c.address AS raffle, c.chain_id, c.parameters ->> 'commission' AS commission,
              pc.amount AS price, pc.token_type AS price_type, pt.symbol, pt.decimals,
              (SELECT cl.items -> 0 ->> 'amount' FROM claim cl
                WHERE cl.claim_type = 'RAFFLE_PRIZE' AND cl.contract_id = c.id AND cl.round_id = r.id AND cl.token_id = t.token_id) AS prize,
              (SELECT w.amount::text FROM round_winner w WHERE w.round_id = r.id AND w.ticket_id = t.token_id) AS gross_share
         FROM ticket t
         JOIN round r ON r.id = t.round_id
         JOIN contract c ON c.id = r.contract_id
         LEFT JOIN LATERAL (SELECT * FROM price_component p WHERE p.price_id = r.price_id ORDER BY p.id LIMIT 1) pc ON true
         LEFT JOIN contract pt ON pt.id = pc.contract_id
        WHERE t.account = $1 AND c.public_sale AND c.chain_id = ANY($2)
        ORDER BY t.id DESC
        LIMIT ${MAX_LISTED}`,
      [address, this.chains.ids],
    );
    return rows.map((row) => {
      const state = ticketState(row);
      const won = state === PlayerTicketState.WON || state === PlayerTicketState.CLAIMED;
      return {
        tokenId: row.token_id,
        serial: row.serial,
        state,
        contractId: row.contract_id,
        title: row.title,
        raffle: row.raffle,
        chainId: row.chain_id,
        roundId: row.round_id,
        price: row.paid_amount ?? row.price ?? "0",
        priceType: row.price_type ?? "NATIVE",
        symbol: row.symbol ?? "",
        decimals: row.decimals ?? 18,
        prize: won ? row.prize : null,
        txHash: row.tx_hash,
        grossShare: won ? row.gross_share : null,
        commission: row.commission !== null && /^\d+$/.test(row.commission) ? row.commission : null,
        roundTicketCount: row.round_ticket_count,
        roundMinTickets: Number(row.round_min_tickets),
        refundReason: row.refund_reason,
      };
    });
  }
}
