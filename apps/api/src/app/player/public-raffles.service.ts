import { Inject, Injectable } from "@nestjs/common";
import { CronTime } from "cron";
import { In, IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule, ContractStatus } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { toContractDto, type ContractDto } from "../../common/dto/contract.dto";
import { problems } from "../../common/problem";
import { ServedChains } from "../../services/served-chains";
import { TtlCache } from "../../services/ttl-cache";
import { ReadReplica } from "../../services/read-replica";
import { API_CONFIG } from "../../services/tokens";
import { GaslessSettingsService } from "../gasless/gasless-settings.service";
import { RoundsService } from "../rounds/rounds.service";
import type { PublicRaffleDto, PublicRoundListDto } from "./player.dto";

/** The most raffles one list answers: a player page, not an export. */
const MAX_LISTED = 100;

/** The next time a cron schedule fires (UTC), or null when it does not read as one. */
export function nextDrawAt(schedule: string | undefined, now = new Date()): string | null {
  if (!schedule) return null;
  try {
    const next = new CronTime(schedule, "UTC").sendAt();
    return next.toJSDate() > now ? next.toUTC().toISO() : null;
  } catch {
    return null;
  }
}

/**
 * Raffles merchants put on public sale, of every merchant, on the chains this API serves, ACTIVE only: what wallet
 * users may see and buy without a game backend. A raffle off public sale is not found here, whatever it is elsewhere.
 */
@Injectable()
export class PublicRafflesService {
  private readonly lists: TtlCache<string, ContractEntity[]>;

  /** Public reads of the index: the read replica while it is usable, else the primary (ReadReplica). */
  private readonly dataSource: DataSource;

  constructor(
    replica: ReadReplica,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly chains: ServedChains,
    private readonly rounds: RoundsService,
    private readonly gasless: GaslessSettingsService,
  ) {
    this.dataSource = replica.reads;
    this.lists = new TtlCache(config.readCacheMs);
  }

  async list(chainId: number | undefined): Promise<PublicRaffleDto[]> {
    if (chainId !== undefined) this.chains.get(chainId);
    const raffles = await this.lists.get(String(chainId ?? "*"), () =>
      this.dataSource.getRepository(ContractEntity).find({
        where: { ...this.publicRaffle(), chainId: chainId ?? In(this.chains.ids) },
        order: { id: "ASC" },
        take: MAX_LISTED,
      }),
    );
    return Promise.all(raffles.map((raffle) => this.describe(raffle)));
  }

  async one(contractId: number): Promise<PublicRaffleDto> {
    return this.describe(await this.find(contractId));
  }

  /**
   * A public-sale raffle's rounds, newest first, each with its winners, its first ticket id and the transaction that
   * recorded its draw: what anyone needs to check the draw (SDK `verifyDraw`).
   */
  async history(contractId: number, skip: number, take: number): Promise<PublicRoundListDto> {
    const raffle = await this.find(contractId);
    const { rows, count } = await this.rounds.page(contractId, skip, take);
    const drawTx = await this.drawTransactions(
      raffle,
      rows.map((row) => row.entity.roundId),
    );
    return {
      rows: rows.map(({ entity, dto }) => ({ ...dto, firstTicketId: entity.firstTicketId, drawTxHash: drawTx.get(entity.roundId) ?? null })),
      count,
    };
  }

  /**
   * By on-chain round id, the transaction of the raffle's latest `WinnersDrawn` for it, else of its `RandomnessReceived`
   * (word recorded, winners pending): from the indexer's raw log, which keeps every applied event with its transaction.
   */
  private async drawTransactions(raffle: ContractEntity, roundIds: string[]): Promise<Map<string, string>> {
    if (roundIds.length === 0) return new Map();
    const rows: Array<{ round_id: string; tx_hash: string }> = await this.dataSource.query(
      `SELECT DISTINCT ON (args ->> 'roundId') args ->> 'roundId' AS round_id, tx_hash
         FROM indexer_event
        WHERE chain_id = $1 AND address = $2 AND name IN ('WinnersDrawn', 'RandomnessReceived') AND status = 'APPLIED'
          AND args ->> 'roundId' = ANY($3::text[])
        ORDER BY args ->> 'roundId', (name = 'WinnersDrawn') DESC, block_number DESC, log_index DESC`,
      [raffle.chainId, raffle.address, roundIds],
    );
    return new Map(rows.map((row) => [row.round_id, row.tx_hash]));
  }

  /** A raffle on public sale on a served chain, or `publicRaffleNotFound`. */
  async find(contractId: number): Promise<ContractEntity> {
    const raffle = await this.dataSource.getRepository(ContractEntity).findOneBy({ ...this.publicRaffle(), id: contractId });
    if (!raffle || !this.chains.ids.includes(raffle.chainId)) throw problems.publicRaffleNotFound(contractId);
    return raffle;
  }

  private publicRaffle() {
    return { publicSale: true, contractModule: ContractModule.RAFFLE, contractType: IsNull(), contractStatus: ContractStatus.ACTIVE };
  }

  private async describe(raffle: ContractEntity): Promise<PublicRaffleDto> {
    const latest = await this.rounds.latest(raffle.id);
    const round = latest?.dto ?? null;
    const contract: ContractDto = toContractDto(raffle);
    return {
      raffle: contract,
      round,
      // What the tickets paid, as indexed (bundles make it less than count x price).
      pot: round ? round.pot : null,
      nextDrawAt: nextDrawAt(raffle.parameters.schedule),
      gasless: await this.gasless.availability(raffle, latest ? latest.purchase.price : null),
    };
  }
}
