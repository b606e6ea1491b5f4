import { Inject, Injectable } from "@nestjs/common";
import { IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule, ContractStatus } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { toContractWithMerchantDto } from "../../common/dto/contract.dto";
import { ServedChains } from "../../services/served-chains";
import { jsonBody } from "../../services/json-body";
import { TtlCache } from "../../services/ttl-cache";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { RaffleContractListDto } from "./raffle-contracts.dto";

/**
 * The caller's raffle contracts on the chains this deployment serves: module RAFFLE, no token type (tickets are
 * ERC721), status ACTIVE. Reads are cached for READ_CACHE_MS, which keeps pause flags and new raffles as fresh as the
 * indexer's own polling. Rows of other chains (a database shared with deployments of other chains) are never answered.
 */
@Injectable()
export class RaffleContractsService {
  private readonly pages: TtlCache<string, RaffleContractListDto>;
  private readonly raffles: TtlCache<string, ContractEntity | null>;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(API_CONFIG) config: ApiConfig,
    private readonly chains: ServedChains,
  ) {
    this.pages = new TtlCache(config.readCacheMs);
    this.raffles = new TtlCache(config.readCacheMs);
  }

  /**
   * One page of the caller's raffles: of `chainId` (which must be served), or of every served chain. As JSON,
   * serialised once per cached page.
   */
  async list(merchantId: number, chainId: number | undefined, skip: number, take: number): Promise<Buffer> {
    if (chainId !== undefined) this.chains.get(chainId);
    const page = await this.pages.get(`${merchantId}:${chainId ?? "*"}:${skip}:${take}`, async () => {
      const [rows, count] = await this.query(merchantId, chainId, skip, take).getManyAndCount();
      return { rows: rows.map(toContractWithMerchantDto), count };
    });
    return jsonBody(page, () => page);
  }

  /**
   * One raffle contract of the caller, whatever its status; null when it is not the caller's (or not a raffle). One
   * of a chain this deployment does not serve is `chainNotServed`: signing it under a served chain's domain would give
   * a voucher that no Exchange accepts.
   */
  async findOwnRaffle(merchantId: number, contractId: number): Promise<ContractEntity | null> {
    const raffle = await this.raffles.get(`${merchantId}:${contractId}`, () =>
      this.dataSource.getRepository(ContractEntity).findOne({
        where: { id: contractId, merchantId, contractModule: ContractModule.RAFFLE, contractType: IsNull() },
      }),
    );
    if (raffle) this.chains.get(raffle.chainId);
    return raffle;
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
    else query.andWhere("contract.chainId IN (:...chainIds)", { chainIds: this.chains.ids });
    return query;
  }
}
