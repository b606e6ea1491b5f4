import { Body, Controller, HttpCode, Post } from "@nestjs/common";
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { ApiProblemResponses, COMMON_PROBLEMS } from "../../common/dto/problem.dto";
import { SignTicketBody, TicketSignatureDto } from "./ticket-sign.dto";
import { TicketSignService } from "./ticket-sign.service";

@ApiTags("raffle")
@ApiBearerAuth()
@ApiProblemResponses(COMMON_PROBLEMS)
@Controller("raffle/ticket")
export class TicketSignController {
  constructor(private readonly tickets: TicketSignService) {}

  @Post("sign")
  @HttpCode(200)
  @ApiOperation({
    summary: "Sign a ticket purchase for an account.",
    description:
      "Refuses with 400 validationFailed (also for the zero address as account), 404 contractNotFound, 409 exchangePaused / contractPaused / contractInactive / roundEnded / roundFull, 404 roundNotFound, 429 tooManyRequests (with Retry-After) and 503 signerNotAuthorized / chainUnavailable.",
  })
  @ApiOkResponse({ type: TicketSignatureDto })
  @ApiProblemResponses({
    404: "`contractNotFound` (unknown or another merchant's), `roundNotFound` (no round yet).",
    409: "`exchangePaused` (the platform's Exchange), `contractPaused` (the raffle), `contractInactive`, `roundEnded`, `roundFull`.",
    413: "`payloadTooLarge`: the body is over 16 kB.",
    429: "`tooManyRequests`, per API key or per account; wait `Retry-After` seconds.",
    503: "`signerNotAuthorized`: the API's voucher key lacks SIGNER_ROLE on the Exchange; `chainUnavailable`: not verified yet.",
  })
  sign(@CurrentCaller() caller: Caller, @Body() body: SignTicketBody): Promise<TicketSignatureDto> {
    return this.tickets.sign(caller, body);
  }
}
