import { Body, Controller, Get, HttpCode, Inject, Post } from "@nestjs/common";
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";
import type { DataSource } from "typeorm";
import { MERCHANT_ROLE, RaffleFactory__factory } from "@raffle/chain";
import { MerchantEntity } from "@raffle/db";

import type { ApiConfig } from "../../config/api-config";
import { AnswersProblems, BODY_PARSING_PROBLEMS, JSON_BODY_PROBLEMS, PUBLIC_ROUTE_PROBLEMS } from "../../common/dto/problem.dto";
import { problems } from "../../common/problem";
import { RateLimiter } from "../../services/rate-limiter";
import { ServedChains } from "../../services/served-chains";
import { API_CONFIG, DATA_SOURCE } from "../../services/tokens";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { MerchantSessionOnly } from "../auth/merchant-access.decorator";
import { MerchantSessions, type MerchantSession } from "../auth/merchant-sessions.service";
import { Public } from "../auth/public.decorator";
import { SiweNonceDto, SiweVerifyBody } from "../player/player.dto";
import { ClientIp } from "../player/player-session.guard";
import { PlayerSessionService } from "../player/player-session.service";
import { MerchantSessionDto, MerchantSignInDto } from "./merchant.dto";
import { SIWE_SIGN_IN_PROBLEMS } from "../player/siwe-message";

function sessionDto(session: MerchantSession): MerchantSessionDto {
  return { merchantId: session.merchantId, address: session.address, chainId: session.chainId, expiresAt: session.expiresAt.toISOString() };
}

/** The console's sign-in: Sign-In with Ethereum with the wallet on the merchant record (class-level @Public()). */
@ApiTags("merchant")
@Public()
@Controller("merchant")
export class MerchantAuthController {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly siwe: PlayerSessionService,
    private readonly sessions: MerchantSessions,
    private readonly rateLimiter: RateLimiter,
    private readonly chains: ServedChains,
  ) {}

  @Post("siwe/nonce")
  @HttpCode(200)
  @ApiOperation({
    operationId: "createMerchantSiweNonce",
    summary: "A single-use nonce for the console's Sign-In with Ethereum message (valid 5 minutes).",
  })
  @ApiOkResponse({ type: SiweNonceDto, description: "The nonce and until when it can be used." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...BODY_PARSING_PROBLEMS, "tooManyRequests", "serviceUnavailable")
  async nonce(@ClientIp() ip: string): Promise<SiweNonceDto> {
    await this.countIp(ip);
    const { nonce, expiresAt } = await this.siwe.issueNonce("merchant");
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  @Post("siwe/verify")
  @HttpCode(200)
  @ApiOperation({
    operationId: "verifyMerchantSiwe",
    summary: "Sign in to the merchant console with the merchant's wallet: opens a session that acts for that merchant only.",
    description:
      "The same checks as `POST /player/siwe/verify` (the web app's origins, a served chain, a fresh nonce, `Expiration Time`), and the signing address must be the wallet of a merchant, or hold MERCHANT_ROLE on the signed chain's RaffleFactory (403 notAMerchant otherwise). " +
      "The session lasts until the message's expiration, at most 8 hours. A player's session is never a merchant's.",
  })
  @ApiOkResponse({ type: MerchantSignInDto, description: "The session's bearer token, merchant, address, chain and end." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...JSON_BODY_PROBLEMS, ...SIWE_SIGN_IN_PROBLEMS, "notAMerchant", "tooManyRequests", "serviceUnavailable")
  async verify(@ClientIp() ip: string, @Body() body: SiweVerifyBody): Promise<MerchantSignInDto> {
    await this.countIp(ip);
    const checked = await this.siwe.verifySignIn(body.message, body.signature, "merchant");
    const merchant = await this.merchantOf(checked.address, checked.chainId);
    if (!merchant) throw problems.notAMerchant(checked.address);
    const longest = Date.now() + this.config.player.merchantSessionTtlSeconds * 1000;
    const expiresAt = new Date(Math.min(checked.expiresAt.getTime(), longest));
    const { token, session } = await this.sessions.open(merchant.id, checked.address, checked.chainId, expiresAt);
    return { token, ...sessionDto(session) };
  }

  /**
   * The merchant record of a wallet. A wallet the platform admin granted MERCHANT_ROLE on the signed chain's factory, but
   * that has deployed nothing yet, gets its record now: it starts from the console, with nothing but its wallet.
   */
  private async merchantOf(wallet: string, chainId: number): Promise<MerchantEntity | null> {
    const repository = this.dataSource.getRepository(MerchantEntity);
    const known = await repository.findOneBy({ wallet });
    if (known) return known;
    const chain = this.chains.get(chainId);
    const factory = RaffleFactory__factory.connect(chain.deployment.raffleFactory, chain.provider);
    const granted = await factory.hasRole(MERCHANT_ROLE, wallet).catch(() => {
      throw problems.serviceUnavailable("chain");
    });
    if (!granted) return null;
    await repository.createQueryBuilder().insert().values({ wallet }).orIgnore().execute();
    return repository.findOneBy({ wallet });
  }

  private async countIp(ip: string): Promise<void> {
    // The console's own budget: players behind the merchant's address (a shared NAT) cannot use it up.
    const limit = await this.rateLimiter.countClient("console", ip, this.config.player.consoleSignInPerIp);
    if (!limit.allowed) throw problems.tooManyRequests(limit.retryAfterSeconds, "ip");
  }
}

/** The signed-in merchant's own console session. */
@ApiTags("merchant")
@MerchantSessionOnly()
@Controller("merchant")
export class MerchantSessionController {
  constructor(private readonly sessions: MerchantSessions) {}

  @Get("session")
  @ApiOperation({ operationId: "getMerchantSession", summary: "The console session: merchant, wallet, chain and end." })
  @ApiOkResponse({ type: MerchantSessionDto, description: "The session." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, "badRequest", "merchantSessionRequired", "serviceUnavailable")
  session(@CurrentCaller() caller: Caller): MerchantSessionDto {
    return sessionDto(caller.session!);
  }

  @Post("logout")
  @HttpCode(204)
  @ApiOperation({ operationId: "logoutMerchant", summary: "Ends the console session: its token is refused from now on." })
  @ApiNoContentResponse({ description: "The session is over." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...BODY_PARSING_PROBLEMS, "merchantSessionRequired", "serviceUnavailable")
  async logout(@CurrentCaller() caller: Caller): Promise<void> {
    await this.sessions.revoke(caller.session!.sessionId);
  }
}
