import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";
import { IsNull, type DataSource } from "typeorm";
import { ContractEntity, ContractModule } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { ContractDto, toContractDto } from "../../common/dto/contract.dto";
import {
  AUTHENTICATED_PROBLEMS,
  AnswersProblems,
  JSON_BODY_PROBLEMS,
  PATH_ID_PROBLEMS,
  PUBLIC_ROUTE_PROBLEMS,
  QUERY_PROBLEMS,
} from "../../common/dto/problem.dto";
import { idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import { RateLimiter } from "../../services/rate-limiter";
import { ServedChains } from "../../services/served-chains";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantKeyOrSession } from "../auth/merchant-access.decorator";
import { Public } from "../auth/public.decorator";
import { TicketSignService } from "../ticket-sign/ticket-sign.service";
import {
  PlayerTicketListDto,
  PlayerVoucherBody,
  PlayerVoucherDto,
  PublicRaffleDto,
  PublicRaffleListDto,
  PublicRafflesQuery,
  PublicRoundListDto,
  PublicRoundsQuery,
  PublicSaleBody,
} from "./player.dto";
import { ClientIp, CurrentPlayer, PlayerRoute } from "./player-session.guard";
import type { PlayerSession } from "./player-session.service";
import { PlayerTicketsService } from "./player-tickets.service";
import { PublicReadBudget } from "./public-read-budget.guard";
import { PublicRafflesService } from "./public-raffles.service";

const SIGN_PROBLEMS = [
  "contractInactive",
  "contractPaused",
  "exchangePaused",
  "roundNotFound",
  "roundEnded",
  "roundFull",
  "walletLimitReached",
  "signerNotAuthorized",
  "chainUnavailable",
  "chainNotServed",
] as const;

/** A signed-in player's voucher and tickets. */
@ApiTags("player")
@Controller("player")
export class PlayerRafflesController {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly raffles: PublicRafflesService,
    private readonly tickets: PlayerTicketsService,
    private readonly signer: TicketSignService,
    private readonly rateLimiter: RateLimiter,
    private readonly chains: ServedChains,
  ) {}

  @Post("vouchers")
  @PlayerRoute()
  @HttpCode(200)
  @ApiOperation({
    operationId: "signPlayerVoucher",
    summary: "Sign a ticket purchase for the signed-in address, on a raffle on public sale.",
    description:
      "The same checks and voucher as `POST /raffle/ticket/sign`, for the session's own address only, with the Exchange and chain to send it to. " +
      "Rate-limited per client IP and per address (30 vouchers per address and RATE_LIMIT_PLAYER_PER_IP per client IP, a minute each).",
  })
  @ApiOkResponse({ type: PlayerVoucherDto, description: "The signed voucher, the exact `purchaseRaffle` arguments, the chain and the Exchange." })
  @AnswersProblems(
    ...PUBLIC_ROUTE_PROBLEMS,
    ...JSON_BODY_PROBLEMS,
    "sessionRequired",
    "publicRaffleNotFound",
    ...SIGN_PROBLEMS,
    "tooManyRequests",
    "serviceUnavailable",
  )
  async voucher(@CurrentPlayer() player: PlayerSession, @ClientIp() ip: string, @Body() body: PlayerVoucherBody): Promise<PlayerVoucherDto> {
    const raffle = await this.raffles.find(body.contractId);
    const limits = { perIp: this.config.player.requestsPerIp, perAddress: this.config.player.signPerAddress };
    const voucher = await this.signer.signForRaffle(
      raffle,
      { account: player.address, contractId: raffle.id, referrer: body.referrer, quantity: body.quantity },
      {
        apiKeyId: null,
        countSign: (account) =>
          this.rateLimiter.countPlayer(ip, account, limits).then((limit) => ({ ...limit, scope: limit.scope === "account" ? "address" : "ip" })),
      },
    );
    return { ...voucher, chainId: raffle.chainId, exchange: this.chains.get(raffle.chainId).deployment.exchange };
  }

  @Get("tickets")
  @PlayerRoute()
  @ApiOperation({
    operationId: "listPlayerTickets",
    summary: "The signed-in address's tickets of raffles on public sale, with what each allows now.",
  })
  @ApiOkResponse({ type: PlayerTicketListDto, description: "The tickets, newest first." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, "sessionRequired", "serviceUnavailable")
  async myTickets(@CurrentPlayer() player: PlayerSession): Promise<PlayerTicketListDto> {
    return { rows: await this.tickets.list(player.address) };
  }
}

/**
 * What anyone may read: raffles on public sale (class-level @Public(), so the document says `security: []`), within a
 * per-IP budget (PublicReadBudget).
 */
@ApiTags("player")
@Public()
@UseGuards(PublicReadBudget)
@Controller("player")
export class PublicRafflesController {
  constructor(private readonly raffles: PublicRafflesService) {}

  @Get("raffles")
  @ApiOperation({ operationId: "listPublicRaffles", summary: "Raffles on public sale, with their current round, pot and next draw." })
  @ApiOkResponse({ type: PublicRaffleListDto, description: "The raffles, by id." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...QUERY_PROBLEMS, "chainNotServed", "tooManyRequests", "serviceUnavailable")
  async list(@Query() query: PublicRafflesQuery): Promise<PublicRaffleListDto> {
    return { rows: await this.raffles.list(query.chainId) };
  }

  @Get("raffles/:id")
  @ApiOperation({ operationId: "getPublicRaffle", summary: "One raffle on public sale, with its current round, pot and next draw." })
  @ApiParam({ name: "id", description: "The raffle contract id.", example: 3 })
  @ApiOkResponse({ type: PublicRaffleDto, description: "The raffle." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...PATH_ID_PROBLEMS, "publicRaffleNotFound", "tooManyRequests", "serviceUnavailable")
  one(@Param("id", idParam(() => problems.publicRaffleNotFound(0))) id: number): Promise<PublicRaffleDto> {
    return this.raffles.one(id);
  }

  @Get("raffles/:id/rounds")
  @ApiOperation({
    operationId: "listPublicRaffleRounds",
    summary: "A raffle's round history: its rounds, newest first, each with its winners and its draw record.",
    description:
      "Only raffles on public sale. Each round is the Round resource (status, times, price, sold / max, pot, prize shares, winners with their claim status, " +
      "VRF request id and random word) with `firstTicketId` and `drawTxHash`, the transaction that recorded the draw: with them anyone can check the winners " +
      'against the chain (SDK `verifyDraw`; README, "How winners are drawn").',
  })
  @ApiParam({ name: "id", description: "The raffle contract id.", example: 3 })
  @ApiOkResponse({ type: PublicRoundListDto, description: "One page of the raffle's rounds and their total." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...PATH_ID_PROBLEMS, ...QUERY_PROBLEMS, "publicRaffleNotFound", "tooManyRequests", "serviceUnavailable")
  rounds(@Param("id", idParam(() => problems.publicRaffleNotFound(0))) id: number, @Query() query: PublicRoundsQuery): Promise<PublicRoundListDto> {
    return this.raffles.history(id, query.skip, query.take);
  }
}

/** The merchant's switch: puts one of its raffles on public sale, or takes it off. */
@ApiTags("raffle")
@MerchantKeyOrSession()
@Controller("raffle/contracts")
export class PublicSaleController {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Put(":id/public-sale")
  @ApiOperation({
    operationId: "setPublicSale",
    summary: "Put one of the caller's raffles on public sale (wallet users may see and buy it with Sign-In with Ethereum), or take it off.",
  })
  @ApiParam({ name: "id", description: "The raffle contract id.", example: 3 })
  @ApiOkResponse({ type: ContractDto, description: "The raffle contract, with its new `publicSale`." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, ...PATH_ID_PROBLEMS, "contractNotFound")
  async setPublicSale(
    @CurrentCaller() caller: Caller,
    @Param("id", idParam(() => problems.contractNotFound(0))) id: number,
    @Body() body: PublicSaleBody,
  ): Promise<ContractDto> {
    const repository = this.dataSource.getRepository(ContractEntity);
    const where = { id, merchantId: caller.merchantId, contractModule: ContractModule.RAFFLE, contractType: IsNull() };
    const result = await repository.update(where, { publicSale: body.publicSale });
    if (!result.affected) throw problems.contractNotFound(id);
    return toContractDto(await repository.findOneByOrFail({ id }));
  }
}
