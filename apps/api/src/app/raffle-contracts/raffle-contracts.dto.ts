import { ApiProperty } from "@nestjs/swagger";

import { OptionalChainId } from "../../common/ids";
import { PaginationQuery } from "../../common/pagination.dto";
import { ContractWithMerchantDto } from "../../common/dto/contract.dto";

export class RaffleContractsQuery extends PaginationQuery {
  @OptionalChainId("Only contracts on this chain (one this API serves). Without it, the contracts of every chain it serves.", { fromQuery: true })
  chainId?: number;
}

/** Spec 2.2. */
export class RaffleContractListDto {
  @ApiProperty({ type: [ContractWithMerchantDto], description: "One page of raffle contracts, by id." })
  rows!: ContractWithMerchantDto[];

  @ApiProperty({ example: 2, description: "Total matching contracts, ignoring skip and take." })
  count!: number;
}
