import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsInt, IsOptional, Max, Min } from "class-validator";

import { PaginationQuery } from "../../common/pagination.dto";
import { ToInteger } from "../../common/validators";
import { ContractWithMerchantDto } from "../../common/dto/contract.dto";

export class RaffleContractsQuery extends PaginationQuery {
  @ApiPropertyOptional({ description: "Only contracts on this chain.", example: 31337 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(2 ** 53 - 1)
  chainId?: number;
}

/** Spec 2.2. */
export class RaffleContractListDto {
  @ApiProperty({ type: [ContractWithMerchantDto] })
  rows!: ContractWithMerchantDto[];

  @ApiProperty({ description: "Total matching contracts, ignoring skip and take." })
  count!: number;
}
