import { Controller, Get, Query } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { AUTHENTICATED_PROBLEMS, AnswersProblems, QUERY_PROBLEMS } from "../../common/dto/problem.dto";
import { JsonAnswer } from "../../services/json-body";
import { RaffleContractListDto, RaffleContractsQuery } from "./raffle-contracts.dto";
import { RaffleContractsService } from "./raffle-contracts.service";

@ApiTags("raffle")
@MerchantKeyOrSession()
@Controller("raffle/contracts")
export class RaffleContractsController {
  constructor(private readonly contracts: RaffleContractsService) {}

  @Get()
  @ApiOperation({
    operationId: "listRaffleContracts",
    summary: "The caller's active raffle contracts on every chain this API serves, or on one chain.",
  })
  @ApiOkResponse({ type: RaffleContractListDto, description: "One page of raffle contracts and their total count." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS, "chainNotServed")
  @JsonAnswer()
  list(@CurrentCaller() caller: Caller, @Query() query: RaffleContractsQuery): Promise<Buffer> {
    return this.contracts.list(caller.merchantId, query.chainId, query.skip, query.take);
  }
}
