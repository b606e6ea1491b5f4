import { Controller, Get, Query } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from "@nestjs/swagger";
import { IsInt, Max, Min } from "class-validator";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { AUTHENTICATED_PROBLEMS, AnswersProblems, QUERY_PROBLEMS } from "../../common/dto/problem.dto";
import { RoundDto } from "../../common/dto/round.dto";
import { MAX_STORED_INTEGER } from "../../common/ids";
import { ToInteger } from "../../common/validators";
import { RoundsService } from "./rounds.service";

export class CurrentRoundQuery {
  @ApiProperty({ description: "Id of the raffle contract (from GET /raffle/contracts).", example: 3 })
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId!: number;
}

@ApiTags("rounds")
@MerchantKeyOrSession()
@Controller("rounds")
export class RoundsController {
  constructor(private readonly rounds: RoundsService) {}

  @Get("current")
  @ApiOperation({
    operationId: "getCurrentRound",
    summary: "The current round of a raffle: ticket contract, price and tickets sold.",
    description:
      "The active round (`endTimestamp` null), or, between `endRound` and the next `startRound`, the round that just ended with its `endTimestamp` set (the sign endpoint refuses it with 409 roundEnded). 404 roundNotFound only before the raffle's first round.",
  })
  @ApiOkResponse({ type: RoundDto, description: "The current round, with its raffle and ticket contracts and its price." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS, "contractNotFound", "roundNotFound", "chainNotServed")
  async current(@CurrentCaller() caller: Caller, @Query() query: CurrentRoundQuery): Promise<RoundDto> {
    return this.rounds.current(caller.merchantId, query.contractId);
  }
}
