import { Inject, Injectable } from "@nestjs/common";
import { IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule, ContractStatus } from "@raffle/db";

import { DATA_SOURCE } from "../../services/tokens";

/** The caller's raffle contracts: module RAFFLE, no token type (tickets are ERC721), status ACTIVE. */
@Injectable()
export class RaffleContractsService {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(merchantId: number, chainId: number | undefined, skip: number, take: number): Promise<[ContractEntity[], number]> {
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
    return query.getManyAndCount();
  }

  /** One raffle contract of the caller, whatever its status; null when it is not the caller's (or not a raffle). */
  findOwnRaffle(merchantId: number, contractId: number): Promise<ContractEntity | null> {
    return this.dataSource.getRepository(ContractEntity).findOne({
      where: { id: contractId, merchantId, contractModule: ContractModule.RAFFLE, contractType: IsNull() },
    });
  }
}
