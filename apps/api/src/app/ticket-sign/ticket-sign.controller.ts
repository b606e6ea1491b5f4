import { Body, Controller, HttpCode, Post } from "@nestjs/common";
import { ApiOkResponse, ApiOperation, ApiTags } from "@nestjs/swagger";

import type { Caller } from "../auth/api-key.service";
import { CurrentCaller } from "../auth/current-caller.decorator";
import { AUTHENTICATED_PROBLEMS, AnswersProblems, JSON_BODY_PROBLEMS } from "../../common/dto/problem.dto";
import { SignTicketBody, TicketSignatureDto } from "./ticket-sign.dto";
import { TicketSignService } from "./ticket-sign.service";

@ApiTags("raffle")
@Controller("raffle/ticket")
export class TicketSignController {
  constructor(private readonly tickets: TicketSignService) {}

  @Post("sign")
  @HttpCode(200)
  @ApiOperation({
    operationId: "signTicket",
    summary: "Sign a ticket purchase for an account.",
    description:
      "Answers the voucher (`nonce`, `signature`, `expiresAt`) and the exact `purchaseRaffle` arguments, signed for the raffle's own chain " +
      "(its Exchange and EIP-712 domain). Every voucher signed is recorded. " +
      "The zero address is refused as `account`. With `quantity` (1 to 100, default 1) the voucher buys that many tickets at the round's price for the quantity " +
      "(its bundles); refused with 409 roundFull when fewer tickets are left and 409 walletLimitReached when the round caps tickets per wallet and the " +
      "buyer's indexed tickets plus the quantity pass it (the contract checks both again).",
  })
  @ApiOkResponse({ type: TicketSignatureDto, description: "The signed voucher and the exact `purchaseRaffle` arguments." })
  @AnswersProblems(
    ...AUTHENTICATED_PROBLEMS,
    ...JSON_BODY_PROBLEMS,
    "contractNotFound",
    "roundNotFound",
    "exchangePaused",
    "contractPaused",
    "contractInactive",
    "roundEnded",
    "roundFull",
    "walletLimitReached",
    "tooManyRequests",
    "signerNotAuthorized",
    "chainUnavailable",
    "chainNotServed",
  )
  sign(@CurrentCaller() caller: Caller, @Body() body: SignTicketBody): Promise<TicketSignatureDto> {
    return this.tickets.sign(caller, body);
  }
}
