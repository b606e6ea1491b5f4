import { Inject, Injectable } from "@nestjs/common";
import { IsNull, type DataSource } from "typeorm";
import { RoundEntity } from "@raffle/db";

import { problems } from "../../common/problem";
import { DATA_SOURCE } from "../../services/tokens";
import { RaffleContractsService } from "../raffle-contracts/raffle-contracts.service";

@Injectable()
export class RoundsService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly contracts: RaffleContractsService,
  ) {}

  /** The active round of one of the caller's raffles, with everything a purchase needs. */
  async current(merchantId: number, contractId: number): Promise<RoundEntity> {
    const raffle = await this.contracts.findOwnRaffle(merchantId, contractId);
    if (!raffle) throw problems.contractNotFound(contractId);
    const round = await this.latest(contractId, true);
    if (!round) throw problems.roundNotFound(contractId);
    return round;
  }

  /** The latest round of a raffle (active only, when asked), with contracts, price, templates and tokens. */
  latest(contractId: number, activeOnly: boolean): Promise<RoundEntity | null> {
    return this.dataSource.getRepository(RoundEntity).findOne({
      where: activeOnly ? { contractId, endTimestamp: IsNull() } : { contractId },
      relations: {
        contract: true,
        ticketContract: true,
        price: { components: { contract: true, template: { tokens: true } } },
      },
      order: { roundId: "DESC" },
    });
  }
}
