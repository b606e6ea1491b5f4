import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";

import { ServedChains } from "../../services/served-chains";
import { DATA_SOURCE } from "../../services/tokens";
import { isCronSchedule, nextRuns } from "../raffle-console/schedule";
import { AttentionKind, type AttentionDto, type OverviewDto } from "./merchant.dto";

/** A VRF answer usually comes within a few blocks; a round drawing longer than this needs a look. */
export const DRAW_EXPECTED_MS = 10 * 60_000;
/** The worker's slack after a scheduled run before a rotation counts as missed. */
export const ROTATION_GRACE_MS = 5 * 60_000;

interface RaffleRow {
  id: number;
  chain_id: number;
  title: string;
  is_paused: boolean;
  schedule: string | null;
  round_id: string | null;
  round_status: string | null;
  start_timestamp: Date | null;
  end_timestamp: Date | null;
}

/** The console's Overview: per chain, the merchant's active rounds and what needs its attention. */
@Injectable()
export class OverviewService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly chains: ServedChains,
  ) {}

  async overview(merchantId: number, now = new Date()): Promise<OverviewDto> {
    const rows: RaffleRow[] = await this.dataSource.query(
      `SELECT c.id, c.chain_id, c.title, c.is_paused, c.parameters ->> 'schedule' AS schedule,
              r.round_id::text AS round_id, r.round_status::text AS round_status, r.start_timestamp, r.end_timestamp
         FROM contract c
         LEFT JOIN LATERAL (SELECT * FROM round WHERE contract_id = c.id ORDER BY round_id DESC LIMIT 1) r ON true
        WHERE c.merchant_id = $1 AND c.contract_module = 'RAFFLE' AND c.contract_type IS NULL AND c.contract_status = 'ACTIVE'
          AND c.chain_id = ANY($2::int[])
        ORDER BY c.id`,
      [merchantId, this.chains.ids],
    );
    return {
      chains: this.chains.ids.map((chainId) => {
        const raffles = rows.filter((row) => row.chain_id === chainId);
        return {
          chainId,
          raffles: raffles.length,
          activeRounds: raffles.filter((row) => row.round_status === "ACTIVE" && !row.is_paused).length,
          attention: raffles.flatMap((row) => attentionOf(row, now)),
        };
      }),
    };
  }
}

/** What needs attention about one raffle and its latest round. */
export function attentionOf(row: RaffleRow, now: Date): AttentionDto[] {
  const item = (kind: AttentionKind, since: Date | null): AttentionDto => ({
    kind,
    contractId: row.id,
    title: row.title,
    roundId: row.round_id,
    since: since ? new Date(since).toISOString() : null,
  });
  const items: AttentionDto[] = [];
  if (row.is_paused) items.push(item(AttentionKind.RAFFLE_PAUSED, null));
  if (row.round_id === null) return [...items, item(AttentionKind.NO_ROUND, null)];
  if (row.round_status === "DRAWING" && row.end_timestamp && now.getTime() - new Date(row.end_timestamp).getTime() > DRAW_EXPECTED_MS) {
    items.push(item(AttentionKind.DRAW_WAITING, row.end_timestamp));
  }
  // The worker ends and restarts a round at each scheduled run: a run past its grace since the round started was missed.
  if (!row.is_paused && row.schedule && isCronSchedule(row.schedule) && row.start_timestamp) {
    const [due] = nextRuns(row.schedule, 1, new Date(row.start_timestamp));
    if (due.getTime() < now.getTime() - ROTATION_GRACE_MS) items.push(item(AttentionKind.ROTATION_MISSED, due));
  }
  return items;
}
