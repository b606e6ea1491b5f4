import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";

import { ContractDto, ContractWithMerchantDto, toContractWithMerchantDto } from "../../common/dto/contract.dto";
import { AUTHENTICATED_PROBLEMS, AnswersProblems, JSON_BODY_PROBLEMS, PATH_ID_PROBLEMS, QUERY_PROBLEMS } from "../../common/dto/problem.dto";
import { idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import {
  RaffleSettingsBody,
  RoundHistoryListDto,
  RoundHistoryQuery,
  SalesDto,
  SalesQuery,
  SchedulePreviewBody,
  SchedulePreviewDto,
} from "./raffle-console.dto";
import { RaffleConsoleService } from "./raffle-console.service";
import { nextRuns } from "./schedule";

const raffleId = idParam(() => problems.contractNotFound(0));

/** The raffle settings, round history and sales a merchant manages from the console (or with an API key). */
@ApiTags("raffle")
@MerchantKeyOrSession()
@Controller("raffle")
export class RaffleConsoleController {
  constructor(private readonly raffles: RaffleConsoleService) {}

  @Get("contracts/:id")
  @ApiOperation({ operationId: "getRaffleContract", summary: "One of the caller's raffle contracts, whatever its status, with its settings." })
  @ApiParam({ name: "id", description: "The raffle contract id; another merchant's is a 404 contractNotFound.", example: 3 })
  @ApiOkResponse({ type: ContractWithMerchantDto, description: "The raffle contract." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "contractNotFound")
  async one(@CurrentCaller() caller: Caller, @Param("id", raffleId) id: number): Promise<ContractWithMerchantDto> {
    return toContractWithMerchantDto(await this.raffles.raffle(caller.merchantId, id));
  }

  @Patch("contracts/:id")
  @ApiOperation({
    operationId: "updateRaffleSettings",
    summary: "Change the settings the platform holds for one of the caller's raffles: title, description, image, schedule, public sale.",
    description:
      "Only the fields given change. The schedule (cron, UTC) is `parameters.schedule`, which the merchant worker reads from `GET /raffle/contracts`; preview its next runs with `POST /raffle/schedule/preview`.",
  })
  @ApiParam({ name: "id", description: "The raffle contract id.", example: 3 })
  @ApiOkResponse({ type: ContractDto, description: "The raffle contract with its new settings." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, ...PATH_ID_PROBLEMS, "contractNotFound")
  update(@CurrentCaller() caller: Caller, @Param("id", raffleId) id: number, @Body() body: RaffleSettingsBody): Promise<ContractDto> {
    return this.raffles.updateSettings(caller.merchantId, id, body);
  }

  @Post("schedule/preview")
  @HttpCode(200)
  @ApiOperation({ operationId: "previewSchedule", summary: "Check a cron schedule and show its next five runs (UTC) before saving it." })
  @ApiOkResponse({ type: SchedulePreviewDto, description: "The next five runs." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS)
  preview(@Body() body: SchedulePreviewBody): SchedulePreviewDto {
    return { schedule: body.schedule, nextRuns: nextRuns(body.schedule, 5).map((run) => run.toISOString()) };
  }

  @Get("contracts/:id/rounds")
  @ApiOperation({
    operationId: "listRaffleRounds",
    summary:
      "The round history of one of the caller's raffles, newest first: tickets, refunds, winners, claims and when unclaimed prizes may be released.",
  })
  @ApiParam({ name: "id", description: "The raffle contract id.", example: 3 })
  @ApiOkResponse({ type: RoundHistoryListDto, description: "One page of rounds and their total count." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...QUERY_PROBLEMS, "contractNotFound")
  rounds(@CurrentCaller() caller: Caller, @Param("id", raffleId) id: number, @Query() query: RoundHistoryQuery): Promise<RoundHistoryListDto> {
    return this.raffles.rounds(caller.merchantId, id, query.skip, query.take);
  }

  @Get("sales")
  @ApiOperation({
    operationId: "getSales",
    summary: "Tickets sold and revenue per token per UTC day, per raffle and chain, computed from the index.",
    description: "Revenue is in the price token's smallest unit (integer string); each row names its token with symbol and decimals.",
  })
  @ApiOkResponse({ type: SalesDto, description: "The sales, oldest day first." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS, "chainNotServed")
  async sales(@CurrentCaller() caller: Caller, @Query() query: SalesQuery): Promise<SalesDto> {
    return { rows: await this.raffles.sales(caller.merchantId, query) };
  }
}
