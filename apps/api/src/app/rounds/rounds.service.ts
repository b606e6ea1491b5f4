import { Inject, Injectable } from "@nestjs/common";
import type { DataSource } from "typeorm";
import { buildPurchaseArgs, type PurchaseArgs } from "@raffle/chain";
import { RoundEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { RoundDto, toRoundDto } from "../../common/dto/round.dto";
import { problems } from "../../common/problem";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";

/** A raffle's latest round, as stored, as served, and as the purchase arguments every voucher of it shares. */
export interface LatestRound {
  entity: RoundEntity;
  dto: RoundDto;
  /** spec 4.5 arguments built once per load; a voucher only fills in its nonce, expiry and referrer. */
  purchase: PurchaseArgs;
}

const NO_NONCE = `0x${"00".repeat(32)}`;

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
      if (!entity) return null;
      const dto = toRoundDto(entity);
      return { entity, dto, purchase: buildPurchaseArgs(dto, { nonce: NO_NONCE, expiresAt: 0, signature: "0x" }) };
    });
  }
}
