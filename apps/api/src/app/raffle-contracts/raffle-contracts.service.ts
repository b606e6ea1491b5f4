import { Inject, Injectable } from "@nestjs/common";
import { IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule, ContractStatus } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { toContractWithMerchantDto } from "../../common/dto/contract.dto";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { RaffleContractListDto } from "./raffle-contracts.dto";

/**
 * The caller's raffle contracts: module RAFFLE, no token type (tickets are ERC721), status ACTIVE. Reads are cached
 * for READ_CACHE_MS, which keeps pause flags and new raffles as fresh as the indexer's own polling.
 */
@Injectable()
export class RaffleContractsService {
  private readonly pages: TtlCache<string, RaffleContractListDto>;
  private readonly raffles: TtlCache<string, ContractEntity | null>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
  ) {
    this.pages = new TtlCache(config.readCacheMs);
    this.raffles = new TtlCache(config.readCacheMs);
  }

  list(merchantId: number, chainId: number | undefined, skip: number, take: number): Promise<RaffleContractListDto> {
    return this.pages.get(`${merchantId}:${chainId ?? "*"}:${skip}:${take}`, async () => {
      const [rows, count] = await this.query(merchantId, chainId, skip, take).getManyAndCount();
      return { rows: rows.map(toContractWithMerchantDto), count };
    });
  }

  /** One raffle contract of the caller, whatever its status; null when it is not the caller's (or not a raffle). */
  findOwnRaffle(merchantId: number, contractId: number): Promise<ContractEntity | null> {
    return this.raffles.get(`${merchantId}:${contractId}`, () =>
      this.dataSource.getRepository(ContractEntity).findOne({
        where: { id: contractId, merchantId, contractModule: ContractModule.RAFFLE, contractType: IsNull() },
      }),
    );
  }

  private query(merchantId: number, chainId: number | undefined, skip: number, take: number) {
    const query = this.dataSource
      .getRepository(ContractEntity)
      .createQueryBuilder("contract")
      .innerJoinAndSelect("contract.merchant", "merchant")
      .where("contract.merchantId = :merchantId", { merchantId })
      .andWhere("contract.contractModule = :module", { module: ContractModule.RAFFLE })
      .andWhere("contract.contractType IS NULL")
      .andWhere("contract.contractStatus = :status", { status: ContractStatus.ACTIVE })
      .orderBy("contract.id", "ASC")
      .skip(skip)
      .take(take);
    if (chainId !== undefined) query.andWhere("contract.chainId = :chainId", { chainId });
    return query;
  }
}
