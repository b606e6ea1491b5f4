import { Controller, Get, Query } from "@nestjs/common";
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { ApiProblemResponses, COMMON_PROBLEMS } from "../../common/dto/problem.dto";
import { RaffleContractListDto, RaffleContractsQuery } from "./raffle-contracts.dto";
import { RaffleContractsService } from "./raffle-contracts.service";

@ApiTags("raffle")
@ApiBearerAuth()
@ApiProblemResponses(COMMON_PROBLEMS)
@Controller("raffle/contracts")
export class RaffleContractsController {
  constructor(private readonly contracts: RaffleContractsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's active raffle contracts, optionally on one chain." })
  @ApiOkResponse({ type: RaffleContractListDto })
  list(@CurrentCaller() caller: Caller, @Query() query: RaffleContractsQuery): Promise<RaffleContractListDto> {
    return this.contracts.list(caller.merchantId, query.chainId, query.skip, query.take);
  }
}
