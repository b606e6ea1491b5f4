import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from "@nestjs/common";
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from "@nestjs/swagger";

import {
  AUTHENTICATED_PROBLEMS,
  AnswersProblems,
  BODY_PARSING_PROBLEMS,
  JSON_BODY_PROBLEMS,
  PATH_ID_PROBLEMS,
  QUERY_PROBLEMS,
} from "../../common/dto/problem.dto";
import { idParam } from "../../common/ids";
import { problems } from "../../common/problem";
import { JsonAnswer, jsonBody } from "../../services/json-body";
import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { CreateClaimBody } from "./claim-voucher.dto";
import { ClaimDto, ClaimListDto, ClaimsQuery, toClaimDto } from "./claims.dto";
import { ClaimsService } from "./claims.service";

/** A malformed `:id` is the same 404 as an unknown claim. */
const claimId = idParam(() => problems.claimNotFound());

@ApiTags("claims")
@Controller("claims")
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @Get()
  @ApiOperation({ operationId: "listClaims", summary: "An account's claims with the calling merchant, newest first." })
  @ApiOkResponse({ type: ClaimListDto, description: "One page of the account's claims and their total count." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...QUERY_PROBLEMS)
  @JsonAnswer()
  async list(@CurrentCaller() caller: Caller, @Query() query: ClaimsQuery): Promise<Buffer> {
    const page = await this.claims.list(caller.merchantId, query.account, query.claimStatus, query.skip, query.take);
    // Serialised once per cached page (the service keeps a page for READ_CACHE_MS).
    return jsonBody(page, () => ({ rows: page[0].map(toClaimDto), count: page[1] }));
  }

  @Post()
  @ApiOperation({
    operationId: "createClaim",
    summary: "Grant items to an account as a signed claim voucher, redeemable with Exchange.claim.",
    description:
      "The items come from the merchant's wallet, which must have approved the Exchange and opted in per token with Exchange.setClaimSource (and, to mint, be a minter of the collection).",
  })
  @ApiCreatedResponse({
    type: ClaimDto,
    description: "The NEW voucher, with its `nonce`, `signature`, `expiresAt` and the `Exchange.claim` arguments in `parameters`.",
  })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...JSON_BODY_PROBLEMS, "exchangePaused", "signerNotAuthorized", "chainUnavailable", "chainNotServed")
  async create(@CurrentCaller() caller: Caller, @Body() body: CreateClaimBody): Promise<ClaimDto> {
    return toClaimDto(await this.claims.createVoucher(caller, body));
  }

  @Get(":id")
  @ApiOperation({ operationId: "getClaim", summary: "One claim of the calling merchant." })
  @ApiParam({ name: "id", description: "Claim id; another merchant's claim is a 404 claimNotFound.", type: Number, example: 42 })
  @ApiOkResponse({ type: ClaimDto, description: "The claim." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, "claimNotFound", "chainNotServed")
  async get(@CurrentCaller() caller: Caller, @Param("id", claimId) id: number): Promise<ClaimDto> {
    return toClaimDto(await this.claims.get(caller.merchantId, id));
  }

  @Delete(":id")
  @HttpCode(200)
  @ApiOperation({
    operationId: "cancelClaim",
    summary: "Cancel a NEW voucher: the API stops handing out its signature.",
    description:
      "A signature already handed out stays valid on-chain until it expires; to stop it sooner, the merchant revokes its opt-in with Exchange.setClaimSource(token, false) or its allowance.",
  })
  @ApiParam({ name: "id", description: "Claim id of a NEW voucher.", type: Number, example: 42 })
  @ApiOkResponse({ type: ClaimDto, description: "The voucher, now CANCELED (its `signature` withheld)." })
  @AnswersProblems(...AUTHENTICATED_PROBLEMS, ...PATH_ID_PROBLEMS, ...BODY_PARSING_PROBLEMS, "claimNotFound", "claimNotCancelable", "chainNotServed")
  async cancel(@CurrentCaller() caller: Caller, @Param("id", claimId) id: number): Promise<ClaimDto> {
    return toClaimDto(await this.claims.cancel(caller.merchantId, id));
  }
}
