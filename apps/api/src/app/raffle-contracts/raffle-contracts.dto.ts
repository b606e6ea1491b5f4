import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsInt, IsOptional, Max, Min } from "class-validator";

import { PaginationQuery } from "../../common/pagination.dto";
import { ToInteger } from "../../common/validators";
import { ContractWithMerchantDto } from "../../common/dto/contract.dto";

export class RaffleContractsQuery extends PaginationQuery {
  // Chain ids are stored as PostgreSQL integer: a larger value must be a 400, not a database error.
  @ApiPropertyOptional({
    description: "Only contracts on this chain (one this API serves). Without it, the contracts of every chain it serves.",
    example: 31337,
    minimum: 1,
    maximum: 2_147_483_647,
  })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  chainId?: number;
}

/** Spec 2.2. */
export class RaffleContractListDto {
  @ApiProperty({ type: [ContractWithMerchantDto], description: "One page of raffle contracts, by id." })
  rows!: ContractWithMerchantDto[];

  @ApiProperty({ example: 2, description: "Total matching contracts, ignoring skip and take." })
  count!: number;
}
