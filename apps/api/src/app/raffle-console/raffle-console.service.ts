import { Inject, Injectable } from "@nestjs/common";
import { IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule, type RoundStatus } from "@raffle/db";

import { toContractDto, type ContractDto } from "../../common/dto/contract.dto";
import { problems } from "../../common/problem";
import { ServedChains } from "../../services/served-chains";
import { DATA_SOURCE } from "../../services/tokens";
import type { RaffleSettingsBody, RoundHistoryDto, RoundHistoryListDto, SalesQuery, SalesRowDto } from "./raffle-console.dto";

const iso = (value: Date | string | null): string | null => (value ? new Date(value).toISOString() : null);

interface RoundRow {
  round_id: string;
  round_status: RoundStatus;
  start_timestamp: Date;
  end_timestamp: Date | null;
  ticket_count: number;
  max_tickets: string;
  refunded: number;
  token_type: string;
  token: string;
  symbol: string;
  decimals: number;
  amount: string;
  prize_shares: number[];
  min_tickets: string;
  max_tickets_per_wallet: string;
  bundles: Array<{ quantity: number; price: string }>;
  winners: Array<{ ticketId: string; account: string; claimStatus: string; prize: string; grossShare: string; releasableAt: string | null }>;
}

/**
 * What the console reads and changes of a merchant's raffles beyond the spec's routes: the platform-held settings,
 * the round history and the sales figures. Every query is scoped to the calling merchant; another merchant's raffle is
 * the same 404 as an unknown one.
 */
@Injectable()
export class RaffleConsoleService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
  ) {}

  /** One of the merchant's raffles, whatever its status, on a chain this API serves. */
  async raffle(merchantId: number, id: number): Promise<ContractEntity> {
    const raffle = await this.dataSource
      .getRepository(ContractEntity)
      .findOne({ where: { id, merchantId, contractModule: ContractModule.RAFFLE, contractType: IsNull() }, relations: { merchant: true } });
    if (!raffle || !this.chains.ids.includes(raffle.chainId)) throw problems.contractNotFound(id);
    return raffle;
  }

  /**
   * Changes the settings given, in one statement; the schedule goes into `parameters` (where the merchant worker reads
   * it from `GET /raffle/contracts`) with jsonb_set, so the indexer's `roundId` beside it is never overwritten.
   */
  async updateSettings(merchantId: number, id: number, body: RaffleSettingsBody): Promise<ContractDto> {
    await this.raffle(merchantId, id);
    const sets: string[] = [];
    const values: unknown[] = [id, merchantId];
    const set = (sql: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      sets.push(sql(`$${values.length}`));
    };
    if (body.title !== undefined) set((p) => `title = ${p}`, body.title);
    if (body.description !== undefined) set((p) => `description = ${p}`, body.description);
    if (body.imageUrl !== undefined) set((p) => `image_url = ${p}`, body.imageUrl);
    if (body.publicSale !== undefined) set((p) => `public_sale = ${p}`, body.publicSale);
    if (body.schedule !== undefined) set((p) => `parameters = jsonb_set(parameters, '{schedule}', to_jsonb(${p}::text))`, body.schedule);
    if (sets.length > 0) {
      await this.dataSource.query(`UPDATE contract SET ${sets.join(", ")}, updated_at = now() WHERE id = $1 AND merchant_id = $2`, values);
    }
    return toContractDto(await this.raffle(merchantId, id));
  }

  /** The raffle's rounds, newest first, with price, refunds and each winner's gross share, prize (after commission) and its state. */
  async rounds(merchantId: number, id: number, skip: number, take: number): Promise<RoundHistoryListDto> {
    await this.raffle(merchantId, id);
    const rows: RoundRow[] = await this.dataSource.query(
      `SELECT r.round_id, r.round_status, r.start_timestamp, r.end_timestamp, r.ticket_count, r.max_tickets::text AS max_tickets,
              r.prize_shares, r.min_tickets::text AS min_tickets, r.max_tickets_per_wallet::text AS max_tickets_per_wallet, r.bundles,
              (SELECT count(*)::int FROM ticket t WHERE t.round_id = r.id AND t.ticket_status = 'REFUNDED') AS refunded,
              pc.token_type::text AS token_type, tc.address AS token, tc.symbol, tc.decimals, pc.amount::text AS amount,
              COALESCE((SELECT json_agg(json_build_object(
                        'ticketId', w.ticket_id::text, 'account', w.account, 'claimStatus', w.claim_status::text,
                        'prize', COALESCE(cl.items -> 0 ->> 'amount', w.amount::text), 'grossShare', w.amount::text, 'releasableAt', cl.end_timestamp) ORDER BY w.position)
                   FROM round_winner w
                   LEFT JOIN claim cl ON cl.contract_id = r.contract_id AND cl.token_id = w.ticket_id AND cl.claim_type = 'RAFFLE_PRIZE'
                  WHERE w.round_id = r.id), '[]') AS winners
         FROM round r
         JOIN LATERAL (SELECT * FROM price_component WHERE price_id = r.price_id ORDER BY id LIMIT 1) pc ON true
         JOIN contract tc ON tc.id = pc.contract_id
        WHERE r.contract_id = $1
        ORDER BY r.round_id DESC OFFSET $2 LIMIT $3`,
      [id, skip, take],
    );
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM round WHERE contract_id = $1`, [id]);
    return { rows: rows.map(toRoundHistory), count };
  }

  /**
   * Tickets sold and revenue per UTC day, chain, raffle and price token, from the indexed tickets: a ticket's revenue
   * is what it paid (`paid_amount`: the round's price, or its bundle's price per ticket). Amounts are summed as
   * `numeric`, never as JS numbers.
   */
  async sales(merchantId: number, query: SalesQuery): Promise<SalesRowDto[]> {
    if (query.chainId !== undefined) this.chains.get(query.chainId);
    const days = query.days ?? 30;
    const rows: Array<{
      day: string;
      chain_id: number;
      contract_id: number;
      token_type: string;
      token: string;
      symbol: string;
      decimals: number;
      tickets: number;
      revenue: string;
    }> = await this.dataSource.query(
      `SELECT to_char(date_trunc('day', t.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, raffle.chain_id, raffle.id AS contract_id,
              pc.token_type::text AS token_type, tc.address AS token, tc.symbol, tc.decimals,
              count(*)::int AS tickets, sum(t.paid_amount)::text AS revenue
         FROM ticket t
         JOIN round r ON r.id = t.round_id
         JOIN contract raffle ON raffle.id = r.contract_id
         JOIN LATERAL (SELECT * FROM price_component WHERE price_id = r.price_id ORDER BY id LIMIT 1) pc ON true
         JOIN contract tc ON tc.id = pc.contract_id
        WHERE raffle.merchant_id = $1 AND raffle.chain_id = ANY($2::int[])
          AND ($3::int IS NULL OR raffle.id = $3) AND ($4::int IS NULL OR raffle.chain_id = $4)
          AND t.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - ($5::int - 1) * interval '1 day'
        GROUP BY 1, 2, 3, 4, 5, 6, 7
        ORDER BY 1, 2, 3, 5`,
      [merchantId, this.chains.ids, query.contractId ?? null, query.chainId ?? null, days],
    );
    return rows.map((row) => ({
      day: row.day,
      chainId: row.chain_id,
      contractId: row.contract_id,
      token: { tokenType: row.token_type, token: row.token, symbol: row.symbol, decimals: row.decimals },
      tickets: row.tickets,
      revenue: row.revenue,
    }));
  }
}

function toRoundHistory(row: RoundRow): RoundHistoryDto {
  return {
    roundId: row.round_id,
    status: row.round_status,
    startTimestamp: iso(row.start_timestamp)!,
    endTimestamp: iso(row.end_timestamp),
    ticketCount: row.ticket_count,
    maxTickets: Number(row.max_tickets),
    refundedTickets: row.refunded,
    price: { tokenType: row.token_type, token: row.token, symbol: row.symbol, decimals: row.decimals, amount: row.amount },
    rules: {
      prizeShares: row.prize_shares,
      minTickets: Number(row.min_tickets),
      maxTicketsPerWallet: Number(row.max_tickets_per_wallet),
      bundles: row.bundles.map((bundle) => ({ quantity: bundle.quantity, price: String(bundle.price) })),
    },
    winners: row.winners.map((winner) => ({ ...winner, releasableAt: iso(winner.releasableAt) })),
  };
}
