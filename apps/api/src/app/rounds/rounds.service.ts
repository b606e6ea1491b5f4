import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";
import { RoundEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { RoundDto, toRoundDto } from "../../common/dto/round.dto";
import { problems } from "../../common/problem";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";

/** A raffle's latest round, as stored and as served. */
export interface LatestRound {
  entity: RoundEntity;
  dto: RoundDto;
}

@Injectable()
export class RoundsService {
  /** Latest round per raffle for READ_CACHE_MS: hot reads and signatures cost no query, ticketCount stays fresh. */
  private readonly latestRounds: TtlCache<number, LatestRound | null>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly contracts: RaffleContractsService,
  ) {
    this.latestRounds = new TtlCache(config.readCacheMs);
  }

  /** The active round of one of the caller's raffles, with everything a purchase needs. */
  async current(merchantId: number, contractId: number): Promise<RoundDto> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const latest = await this.latest(contractId);
    if (!latest || latest.entity.endTimestamp !== null) throw problems.roundNotFound(contractId);
    return latest.dto;
  }

  /** The latest round of a raffle, active or not, with contracts, price, templates and tokens. */
  latest(contractId: number): Promise<LatestRound | null> {
    return this.latestRounds.get(contractId, async () => {
      const entity = await this.dataSource.getRepository(RoundEntity).findOne({
        where: { contractId },
        relations: {
          contract: true,
          ticketContract: true,
          price: { components: { contract: true, template: { tokens: true } } },
        },
        order: { roundId: "DESC" },
      });
      return entity ? { entity, dto: toRoundDto(entity) } : null;
    });
  }
}
