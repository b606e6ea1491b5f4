import { Body, Controller, Get, HttpCode, Param, Post, Put, type PipeTransform } from "@nestjs/common";
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";

import { AUTHENTICATED_PROBLEMS, AnswersProblems, JSON_BODY_PROBLEMS, PATH_ID_PROBLEMS, PUBLIC_ROUTE_PROBLEMS } from "../../common/dto/problem.dto";
import { problems, type ProblemCode } from "../../common/problem";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { CurrentPlayer, PlayerRoute } from "../player/player-session.guard";
import type { PlayerSession } from "../player/player-session.service";
import {
  GaslessPurchaseBody,
  GaslessRequestDto,
  GaslessRequestListDto,
  GaslessSettingsBody,
  GaslessSettingsDto,
  GaslessTicketsBody,
  MerchantGaslessPurchaseBody,
  RelayClaimBody,
  RelayJobListDto,
  RelayOutcomeBody,
  RelaySentBody,
} from "./gasless.dto";
import { GaslessRequestsService } from "./gasless-requests.service";
import { GaslessSettingsService } from "./gasless-settings.service";
import { RelayJobsService } from "./relay-jobs.service";

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A gasless request's id in the path: anything but a UUID is the same 404 as an unknown one. */
const requestIdParam: PipeTransform<string, string> = {
  transform: (value) => {
    if (typeof value !== "string" || !UUID_TEXT.test(value.toLowerCase())) throw problems.gaslessRequestNotFound();
    return value.toLowerCase();
  },
};

/** What a submitted purchase can be refused for (besides the body's own shape). */
const PURCHASE_PROBLEMS: ProblemCode[] = [
  "voucherUnknown",
  "voucherExpired",
  "buyerSignatureInvalid",
  "authorizationMismatch",
  "insufficientBalance",
  "gaslessUnavailable",
  "gaslessBudgetExhausted",
  "gaslessPlayerLimitReached",
  "roundClosed",
  "gaslessDuplicate",
  "chainNotServed",
];
const TICKETS_PROBLEMS: ProblemCode[] = [
  "publicRaffleNotFound",
  "voucherExpired",
  "buyerSignatureInvalid",
  "notTicketHolder",
  "gaslessUnavailable",
  "gaslessBudgetExhausted",
  "gaslessPlayerLimitReached",
  "gaslessDuplicate",
];
const PLAYER_PROBLEMS: ProblemCode[] = [...PUBLIC_ROUTE_PROBLEMS, "sessionRequired", "serviceUnavailable"];

@ApiTags("player")
@Controller("player/gasless")
export class PlayerGaslessController {
  constructor(private readonly requests: GaslessRequestsService) {}

  @Post("purchases")
  @PlayerRoute()
  @HttpCode(202)
  @ApiOperation({
    operationId: "submitGaslessPurchase",
    summary: "Buy without gas: queue the session's signed purchase for the merchant's relayer.",
    description:
      "`voucher` is `POST /player/vouchers`'s answer, whole. ERC-3009 tokens: `authorization` (one signature, nonce = the voucher's digest). " +
      "EIP-2612 tokens: `intent` and, unless the Exchange is already approved, `permit`. Every check is made now; the answer is the request, `queued`.",
  })
  @ApiAcceptedResponse({ type: GaslessRequestDto, description: "The queued request; follow it with `GET /player/gasless/:id`." })
  @AnswersProblems(...PLAYER_PROBLEMS, ...JSON_BODY_PROBLEMS, ...PURCHASE_PROBLEMS)
  purchase(@CurrentPlayer() player: PlayerSession, @Body() body: GaslessPurchaseBody): Promise<GaslessRequestDto> {
    return this.requests.submitPurchase({ player: player.address }, body);
  }

  @Post("claims")
  @PlayerRoute()
  @HttpCode(202)
  @ApiOperation({
    operationId: "submitGaslessClaim",
    summary: "Claim prizes without gas: the holder's ClaimIntent signature, relayed by the merchant.",
  })
  @ApiAcceptedResponse({ type: GaslessRequestDto, description: "The queued request." })
  @AnswersProblems(...PLAYER_PROBLEMS, ...JSON_BODY_PROBLEMS, ...TICKETS_PROBLEMS)
  claim(@CurrentPlayer() player: PlayerSession, @Body() body: GaslessTicketsBody): Promise<GaslessRequestDto> {
    return this.requests.submitTickets("claim", player.address, body);
  }

  @Post("refunds")
  @PlayerRoute()
  @HttpCode(202)
  @ApiOperation({
    operationId: "submitGaslessRefund",
    summary: "Refund tickets without gas: the holder's RefundIntent signature, relayed by the merchant.",
  })
  @ApiAcceptedResponse({ type: GaslessRequestDto, description: "The queued request." })
  @AnswersProblems(...PLAYER_PROBLEMS, ...JSON_BODY_PROBLEMS, ...TICKETS_PROBLEMS)
  refund(@CurrentPlayer() player: PlayerSession, @Body() body: GaslessTicketsBody): Promise<GaslessRequestDto> {
    return this.requests.submitTickets("refund", player.address, body);
  }

  @Get()
  @PlayerRoute()
  @ApiOperation({ operationId: "listPlayerGasless", summary: "The session's latest 50 gasless requests, newest first." })
  @ApiOkResponse({ type: GaslessRequestListDto })
  @AnswersProblems(...PLAYER_PROBLEMS)
  async list(@CurrentPlayer() player: PlayerSession): Promise<GaslessRequestListDto> {
    return { rows: await this.requests.latestOfAccount(player.address) };
  }

  @Get(":id")
  @PlayerRoute()
  @ApiOperation({ operationId: "getPlayerGasless", summary: "One of the session's gasless requests: its state, transaction and tickets." })
  @ApiParam({ name: "id", description: "The request id (UUID)." })
  @ApiOkResponse({ type: GaslessRequestDto })
  @AnswersProblems(...PLAYER_PROBLEMS, ...PATH_ID_PROBLEMS, "gaslessRequestNotFound")
  one(@CurrentPlayer() player: PlayerSession, @Param("id", requestIdParam) id: string): Promise<GaslessRequestDto> {
    return this.requests.forAccount(id, player.address);
  }
}

/** A game backend's gasless purchases: its API key, the spec's voucher. */
@ApiTags("gasless")
@Controller("gasless")
export class MerchantGaslessController {
  constructor(private readonly requests: GaslessRequestsService) {}

  @Post("purchases")
  @HttpCode(202)
  @ApiOperation({
    operationId: "submitMerchantGaslessPurchase",
    summary: "Queue a player's signed purchase (the voucher of `POST /ticket/sign`) for the merchant's relayer.",
  })
  @ApiAcceptedResponse({ type: GaslessRequestDto, description: "The queued request; follow it with `GET /gasless/:id` or the `gasless.*` webhooks." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, ...PURCHASE_PROBLEMS)
  purchase(@CurrentCaller() caller: Caller, @Body() body: MerchantGaslessPurchaseBody): Promise<GaslessRequestDto> {
    const { contractId, chainId, ...purchase } = body;
    return this.requests.submitPurchase({ merchantId: caller.merchantId, contractId, chainId }, purchase as GaslessPurchaseBody);
  }

  @Get(":id")
  @ApiOperation({ operationId: "getMerchantGasless", summary: "One gasless request of the merchant's raffles." })
  @ApiParam({ name: "id", description: "The request id (UUID)." })
  @ApiOkResponse({ type: GaslessRequestDto })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "gaslessRequestNotFound")
  one(@CurrentCaller() caller: Caller, @Param("id", requestIdParam) id: string): Promise<GaslessRequestDto> {
    return this.requests.forMerchant(id, caller.merchantId);
  }
}

/** The merchant worker's relayer: leases jobs of its key's merchant, reports what it sent and what came of it. */
@ApiTags("relayer")
@Controller("relayer")
export class RelayerController {
  constructor(private readonly jobs: RelayJobsService) {}

  @Post("claim")
  @HttpCode(200)
  @ApiOperation({
    operationId: "claimRelayJobs",
    summary: "Lease jobs: those this relayerId holds (renewed) and queued ones, up to `limit`.",
    description:
      "Leases last 120 s and every call of the holder renews them; an expired lease's job goes to another relayer with its attempts. " +
      "Queued jobs past `notAfter` fail as `voucherExpired` here.",
  })
  @ApiOkResponse({ type: RelayJobListDto })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, "chainNotServed")
  async claim(@CurrentCaller() caller: Caller, @Body() body: RelayClaimBody): Promise<RelayJobListDto> {
    return { jobs: await this.jobs.claim(caller.merchantId, body) };
  }

  @Post("jobs/:id/sent")
  @HttpCode(204)
  @ApiOperation({
    operationId: "reportRelayJobSent",
    summary: "Record a transaction sent for a job (a resend adds one); the first moves it to sent.",
  })
  @ApiParam({ name: "id", description: "The job id (UUID)." })
  @ApiNoContentResponse({ description: "Recorded." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, ...PATH_ID_PROBLEMS, "gaslessRequestNotFound", "relayJobNotHeld")
  async sent(@CurrentCaller() caller: Caller, @Param("id", requestIdParam) id: string, @Body() body: RelaySentBody): Promise<void> {
    await this.jobs.sent(caller.merchantId, id, body);
  }

  @Post("jobs/:id/outcome")
  @HttpCode(204)
  @ApiOperation({
    operationId: "reportRelayJobOutcome",
    summary: "Report a job mined (verified from its receipt, costed against the daily budget) or failed (with a camelCase code).",
  })
  @ApiParam({ name: "id", description: "The job id (UUID)." })
  @ApiNoContentResponse({ description: "Recorded." })
  @AnswersProblems(
    ...AUTHENTICATED_PROBLEMS,
    ...JSON_BODY_PROBLEMS,
    ...PATH_ID_PROBLEMS,
    "gaslessRequestNotFound",
    "relayJobNotHeld",
    "outcomeUnverified",
    "chainNotServed",
  )
  async outcome(@CurrentCaller() caller: Caller, @Param("id", requestIdParam) id: string, @Body() body: RelayOutcomeBody): Promise<void> {
    await this.jobs.outcome(caller.merchantId, id, body);
  }
}

@ApiTags("merchant")
@MerchantKeyOrSession()
@Controller("merchant/gasless")
export class GaslessSettingsController {
  constructor(private readonly settings: GaslessSettingsService) {}

  @Get()
  @ApiOperation({
    operationId: "getGaslessSettings",
    summary: "The merchant's gasless relaying: switch, daily gas budget, per-player limit, today's spending.",
  })
  @ApiOkResponse({ type: GaslessSettingsDto })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, "badRequest")
  get(@CurrentCaller() caller: Caller): Promise<GaslessSettingsDto> {
    return this.settings.describe(caller.merchantId);
  }

  @Put()
  @ApiOperation({ operationId: "setGaslessSettings", summary: "Turn gasless relaying on or off, and set its daily gas budget and per-player limit." })
  @ApiOkResponse({ type: GaslessSettingsDto })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS)
  put(@CurrentCaller() caller: Caller, @Body() body: GaslessSettingsBody): Promise<GaslessSettingsDto> {
    return this.settings.update(caller.merchantId, body);
  }
}
