import { Controller, Get } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import { AUTHENTICATED_PROBLEMS, AnswersProblems } from "../../common/dto/problem.dto";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { OverviewDto } from "./merchant.dto";
import { OverviewService } from "./overview.service";

@ApiTags("merchant")
@MerchantKeyOrSession()
@Controller("merchant/overview")
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @ApiOperation({
    operationId: "getMerchantOverview",
    summary: "Per chain: the caller's raffles, rounds selling now, and what needs attention.",
    description:
      "Attention: a round waiting for its randomness over 10 minutes (DRAW_WAITING), a scheduled rotation the worker missed by over 5 minutes (ROTATION_MISSED), a paused raffle (RAFFLE_PAUSED), a raffle without a round (NO_ROUND). " +
      "The draw budget is on-chain (`RaffleFactory.drawsUsedToday` and `drawsPerDayOf`), read by the console from the chain.",
  })
  @ApiOkResponse({ type: OverviewDto, description: "One entry per served chain." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, "badRequest")
  get(@CurrentCaller() caller: Caller): Promise<OverviewDto> {
    return this.overview.overview(caller.merchantId);
  }
}
