import { Controller, Get, Param, Query } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from "@nestjs/swagger";
import { IsInt, Max, Min } from "class-validator";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { AUTHENTICATED_PROBLEMS, AnswersProblems, PATH_ID_PROBLEMS, QUERY_PROBLEMS } from "../../common/dto/problem.dto";
import { PaginationQuery } from "../../common/pagination.dto";
import { RoundDto } from "../../common/dto/round.dto";
import { MAX_STORED_INTEGER, idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import { ToInteger } from "../../common/validators";
import { JsonAnswer } from "../../services/json-body";
import { RoundsService } from "./rounds.service";

export class CurrentRoundQuery {
  @ApiProperty({ description: "Id of the raffle contract (from GET /raffle/contracts).", example: 3 })
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId!: number;
}

export class RoundsQuery extends PaginationQuery {
  @ApiProperty({ description: "Id of the raffle contract (from GET /raffle/contracts).", example: 3 })
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId!: number;
}

export class RoundListDto {
  @ApiProperty({ type: [RoundDto], description: "One page of rounds, newest first." }) rows!: RoundDto[];
  @ApiProperty({ example: 12, description: "Rounds of the raffle, ignoring skip and take." }) count!: number;
}

@ApiTags("rounds")
@MerchantKeyOrSession()
@Controller("rounds")
export class RoundsController {
  constructor(private readonly rounds: RoundsService) {}

  @Get()
  @ApiOperation({
    operationId: "listRounds",
    summary: "A raffle's rounds, newest first, each with its status, rules, winners and draw record.",
  })
  @ApiOkResponse({ type: RoundListDto, description: "One page of the raffle's rounds and their total." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS, "contractNotFound", "chainNotServed")
  @JsonAnswer()
  list(@CurrentCaller() caller: Caller, @Query() query: RoundsQuery): Promise<Buffer> {
    return this.rounds.list(caller.merchantId, query.contractId, query.skip, query.take);
  }

  @Get("current")
  @ApiOperation({
    operationId: "getCurrentRound",
    summary: "The current round of a raffle: ticket contract, price and tickets sold.",
    description:
      "The active round (`endTimestamp` null), or, between `endRound` and the next `startRound`, the round that just ended with its `endTimestamp` set (the sign endpoint refuses it with 409 roundEnded). 404 roundNotFound only before the raffle's first round.",
  })
  @ApiOkResponse({ type: RoundDto, description: "The current round, with its raffle and ticket contracts and its price." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS, "contractNotFound", "roundNotFound", "chainNotServed")
  @JsonAnswer()
  async current(@CurrentCaller() caller: Caller, @Query() query: CurrentRoundQuery): Promise<Buffer> {
    return this.rounds.current(caller.merchantId, query.contractId);
  }

  @Get(":id")
  @ApiOperation({
    operationId: "getRound",
    summary: "One round of the caller's raffles, with its status, rules, winners and draw record.",
  })
  @ApiParam({
    name: "id",
    description: "Round id (the Round resource's `id`); another merchant's round is a 404 roundIdNotFound.",
    type: Number,
    example: 7,
  })
  @ApiOkResponse({ type: RoundDto, description: "The round." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "roundIdNotFound", "chainNotServed")
  async get(@CurrentCaller() caller: Caller, @Param("id", idParam(() => problems.roundIdNotFound())) id: number): Promise<RoundDto> {
    return this.rounds.get(caller.merchantId, id);
  }
}
