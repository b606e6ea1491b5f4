import { Body, Controller, Get, HttpCode, Inject, Post } from "@nestjs/common";
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import type { ApiConfig } from "../../config/api-config";
import { AnswersProblems, BODY_PARSING_PROBLEMS, JSON_BODY_PROBLEMS, PUBLIC_ROUTE_PROBLEMS } from "../../common/dto/problem.dto";
import { problems } from "../../common/problem";
import { RateLimiter } from "../../services/rate-limiter";
import { API_CONFIG } from "../../services/tokens";
import { Public } from "../auth/public.decorator";
import { PlayerSessionDto, PlayerSignInDto, SiweNonceDto, SiweVerifyBody } from "./player.dto";
import { ClientIp, CurrentPlayer, PlayerRoute } from "./player-session.guard";
import { PlayerSessionService, type PlayerSession } from "./player-session.service";
import { SIWE_SIGN_IN_PROBLEMS } from "./siwe-message";

function sessionDto(session: PlayerSession): PlayerSessionDto {
  return { address: session.address, chainId: session.chainId, expiresAt: session.expiresAt.toISOString() };
}

/** Sign-in needs no key and no session: class-level @Public(), so the document says so (`security: []`). */
@ApiTags("player")
@Public()
@Controller("player")
export class PlayerAuthController {
  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    private readonly sessions: PlayerSessionService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  @Post("siwe/nonce")
  @HttpCode(200)
  @ApiOperation({ operationId: "createSiweNonce", summary: "A single-use nonce for a Sign-In with Ethereum message (valid 5 minutes)." })
  @ApiOkResponse({ type: SiweNonceDto, description: "The nonce and until when it can be used." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...BODY_PARSING_PROBLEMS, "tooManyRequests", "serviceUnavailable")
  async nonce(@ClientIp() ip: string): Promise<SiweNonceDto> {
    await this.countIp(ip);
    const { nonce, expiresAt } = await this.sessions.issueNonce("player");
    return { nonce, expiresAt: expiresAt.toISOString() };
  }

  @Post("siwe/verify")
  @HttpCode(200)
  @ApiOperation({
    operationId: "verifySiwe",
    summary: "Sign in with Ethereum: checks the EIP-4361 message and its signature and opens a session for its address.",
    description:
      "The message's domain and URI must be the player app's (WEB_ORIGINS), its chain one this API serves, its nonce one from `POST /player/siwe/nonce` not used yet, " +
      "and it must carry `Expiration Time`. The session lasts until that time, at most one hour. EOA signatures (`personal_sign`).",
  })
  @ApiOkResponse({ type: PlayerSignInDto, description: "The session's bearer token, its address, chain and end." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...JSON_BODY_PROBLEMS, ...SIWE_SIGN_IN_PROBLEMS, "tooManyRequests", "serviceUnavailable")
  async verify(@ClientIp() ip: string, @Body() body: SiweVerifyBody): Promise<PlayerSignInDto> {
    await this.countIp(ip);
    const { token, session } = await this.sessions.signIn(body.message, body.signature);
    return { token, ...sessionDto(session) };
  }

  private async countIp(ip: string): Promise<void> {
    const limit = await this.rateLimiter.countPlayer(ip, null, { perIp: this.config.player.requestsPerIp, perAddress: 0 });
    if (!limit.allowed) throw problems.tooManyRequests(limit.retryAfterSeconds, "ip");
  }
}

/** The signed-in player's own session. */
@ApiTags("player")
@Controller("player")
export class PlayerSessionController {
  constructor(private readonly sessions: PlayerSessionService) {}

  @Get("session")
  @PlayerRoute()
  @ApiOperation({ operationId: "getPlayerSession", summary: "The signed-in player's session: address, chain and end." })
  @ApiOkResponse({ type: PlayerSessionDto, description: "The session." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, "sessionRequired", "serviceUnavailable")
  session(@CurrentPlayer() player: PlayerSession): PlayerSessionDto {
    return sessionDto(player);
  }

  @Post("logout")
  @PlayerRoute()
  @HttpCode(204)
  @ApiOperation({ operationId: "logoutPlayer", summary: "Ends the session: its token is refused from now on." })
  @ApiNoContentResponse({ description: "The session is over." })
  @AnswersProblems(...PUBLIC_ROUTE_PROBLEMS, ...BODY_PARSING_PROBLEMS, "sessionRequired", "serviceUnavailable")
  async logout(@CurrentPlayer() player: PlayerSession): Promise<void> {
    await this.sessions.revoke(player.sessionId);
  }
}
