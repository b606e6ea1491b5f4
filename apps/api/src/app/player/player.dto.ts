import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsBoolean, IsInt, IsString, Matches, Max, MaxLength, Min } from "class-validator";

import { ContractDto } from "../../common/dto/contract.dto";
import { RoundDto } from "../../common/dto/round.dto";
import { PaginationQuery } from "../../common/pagination.dto";
import { MAX_TICKETS_PER_PURCHASE } from "../ticket-sign/round-pricing";
import { MAX_STORED_INTEGER, OptionalChainId } from "../../common/ids";
import { IsEthereumAddress, IsOmittable } from "../../common/validators";
import { TicketSignatureDto } from "../ticket-sign/ticket-sign.dto";
import { GaslessAvailabilityDto } from "../gasless/gasless.dto";

export class SiweNonceDto {
  @ApiProperty({ description: "Single-use nonce to quote in the EIP-4361 message.", example: "8f6a1c2e9b0d4f7a8c3e5b1d2f4a6c8e" })
  nonce!: string;

  @ApiProperty({ description: "The nonce must be used before this time (ISO 8601 UTC).", format: "date-time", example: "2026-11-25T01:05:00.000Z" })
  expiresAt!: string;
}

export class SiweVerifyBody {
  @ApiProperty({
    description:
      "The EIP-4361 message as signed: domain and URI of the player app (WEB_ORIGINS), a served chain id, the nonce from `POST /player/siwe/nonce`, `Issued At` and `Expiration Time`.",
    example:
      "127.0.0.1:5173 wants you to sign in with your Ethereum account:\n0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc\n\nSign in to buy raffle tickets.\n\nURI: http://127.0.0.1:5173\nVersion: 1\nChain ID: 31337\nNonce: 8f6a1c2e9b0d4f7a8c3e5b1d2f4a6c8e\nIssued At: 2026-11-25T01:00:00.000Z\nExpiration Time: 2026-11-25T02:00:00.000Z",
  })
  @IsString()
  @MaxLength(4_000)
  message!: string;

  @ApiProperty({
    description: "`personal_sign` signature of the message by its address, 0x-prefixed hex (65 bytes).",
    example: `0x${"ab".repeat(65)}`,
  })
  @IsString()
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: "signature must be 65 bytes of 0x-prefixed hex" })
  signature!: string;
}

export class PlayerSessionDto {
  @ApiProperty({ description: "The address the session speaks for (EIP-55).", example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" })
  address!: string;

  @ApiProperty({ description: "The chain id of the signed message.", example: 31337 })
  chainId!: number;

  @ApiProperty({ description: "When the session ends (ISO 8601 UTC).", format: "date-time", example: "2026-11-25T02:00:00.000Z" })
  expiresAt!: string;
}

export class PlayerSignInDto extends PlayerSessionDto {
  @ApiProperty({
    description: "Bearer token of the session: `Authorization: Bearer <token>`. Shown once; keep it in memory.",
    example: `ps_${"A".repeat(43)}`,
  })
  token!: string;
}

export class PublicRafflesQuery {
  @OptionalChainId("Only raffles on this chain (one this API serves). Without it, those of every chain it serves.", { fromQuery: true })
  chainId?: number;
}

/** A public-sale raffle as players see it: the raffle, its current round if any, and what the round adds up to. */
export class PublicRaffleDto {
  @ApiProperty({ type: ContractDto, description: "The raffle contract." })
  raffle!: ContractDto;

  @ApiProperty({ type: RoundDto, nullable: true, description: "The current round (as `GET /rounds/current`), null before the first." })
  round!: RoundDto | null;

  @ApiProperty({
    example: "120000000000000000",
    nullable: true,
    type: String,
    description: "What the round's tickets paid (its prizes add up to it), smallest unit; null without a round.",
  })
  pot!: string | null;

  @ApiProperty({
    example: "2026-11-25T02:00:00.000Z",
    nullable: true,
    type: String,
    format: "date-time",
    description: "The next draw by the raffle's schedule (cron, UTC); null when it has none that reads.",
  })
  nextDrawAt!: string | null;

  @ApiProperty({
    type: GaslessAvailabilityDto,
    description: "Whether the raffle's tickets can be bought, and its prizes claimed and tickets refunded, without gas (issue #52), and how to sign.",
  })
  gasless!: GaslessAvailabilityDto;
}

export class PublicRaffleListDto {
  @ApiProperty({ type: [PublicRaffleDto], description: "Raffles on public sale, by id (at most 100)." })
  rows!: PublicRaffleDto[];
}

/** A round of a raffle on public sale, as its history shows it: the Round resource and what checks its draw. */
export class PublicRoundDto extends RoundDto {
  @ApiProperty({
    example: "1",
    description:
      "On-chain id of the round's first ticket (decimal string): its tickets are `ticketCount` consecutive ids from it, what the draw picks from (SDK `verifyDraw`).",
  })
  firstTicketId!: string;

  @ApiProperty({
    example: `0x${"cd".repeat(32)}`,
    nullable: true,
    type: String,
    description:
      "The transaction that recorded the draw on chain: the one that emitted `WinnersDrawn` (or, while the winners are pending, `RandomnessReceived`); null before.",
  })
  drawTxHash!: string | null;
}

export class PublicRoundListDto {
  @ApiProperty({ type: [PublicRoundDto], description: "One page of the raffle's rounds, newest first." }) rows!: PublicRoundDto[];
  @ApiProperty({ example: 12, description: "Rounds of the raffle, ignoring skip and take." }) count!: number;
}

export class PublicRoundsQuery extends PaginationQuery {}

export class PlayerVoucherBody {
  @ApiProperty({ description: "Id of a raffle on public sale.", example: 3 })
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId!: number;

  @ApiPropertyOptional({ description: "Referrer account; the zero address when omitted.", example: "0x0000000000000000000000000000000000000000" })
  @IsOmittable()
  @IsEthereumAddress()
  referrer?: string;

  @ApiPropertyOptional({
    description: "Tickets to buy in one purchase, 1 to 100; 1 when omitted (as `POST /raffle/ticket/sign`).",
    example: 5,
    minimum: 1,
    maximum: MAX_TICKETS_PER_PURCHASE,
    default: 1,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_TICKETS_PER_PURCHASE)
  quantity?: number;
}

export class PlayerVoucherDto extends TicketSignatureDto {
  @ApiProperty({ description: "The chain to send the purchase on.", example: 31337 })
  chainId!: number;

  @ApiProperty({
    description: "The Exchange to call `purchaseRaffle` on (and to approve an ERC20 price for).",
    example: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  })
  exchange!: string;
}

export class PublicSaleBody {
  @ApiProperty({ description: "Whether wallet users may see and buy the raffle.", example: true })
  @IsBoolean()
  publicSale!: boolean;
}

/** What a player can do with a ticket now. */
export enum PlayerTicketState {
  ACTIVE = "ACTIVE",
  WON = "WON",
  LOST = "LOST",
  REFUNDABLE = "REFUNDABLE",
  REFUNDED = "REFUNDED",
  CLAIMED = "CLAIMED",
  RELEASED = "RELEASED",
}

export class PlayerTicketDto {
  @ApiProperty({
    description: "On-chain ticket id (decimal string): `refundTickets([{roundId, ticketId}])` or `claimPrizes([{roundId, ticketId}])`.",
    example: "12",
  })
  tokenId!: string;
  @ApiProperty({ description: "Serial of the ticket in its round, from 1.", example: 3 }) serial!: number;
  @ApiProperty({
    enum: PlayerTicketState,
    description: "ACTIVE (round not drawn), WON (Claim), LOST, REFUNDABLE (Refund), REFUNDED, CLAIMED, RELEASED.",
  })
  state!: PlayerTicketState;
  @ApiProperty({ description: "The raffle contract id.", example: 3 }) contractId!: number;
  @ApiProperty({ description: "Raffle title.", example: "Demo NATIVE raffle" }) title!: string;
  @ApiProperty({ description: "The raffle contract address: `claimPrizes` and `refundTickets` go there." }) raffle!: string;
  @ApiProperty({ description: "Chain id.", example: 31337 }) chainId!: number;
  @ApiProperty({ description: "On-chain round id (decimal string): the `roundId` of the ticket's `TicketRef`.", example: "2" }) roundId!: string;
  @ApiProperty({ description: "Price paid, smallest unit (decimal string).", example: "10000000000000000" }) price!: string;
  @ApiProperty({ description: "Price token: NATIVE or ERC20.", example: "NATIVE" }) priceType!: string;
  @ApiProperty({ description: "Price token symbol, may be empty.", example: "ETH" }) symbol!: string;
  @ApiProperty({ description: "Price token decimals.", example: 18 }) decimals!: number;
  @ApiProperty({ description: "The winning ticket's pot less commission, smallest unit; null unless WON or CLAIMED.", nullable: true, type: String })
  prize!: string | null;
  @ApiProperty({ description: "The purchase transaction.", example: `0x${"ab".repeat(32)}` }) txHash!: string;
  @ApiProperty({
    description: "The winning ticket's share of the pot before commission, smallest unit; null unless WON or CLAIMED. `prize` is what it pays.",
    nullable: true,
    type: String,
    example: "30000000000000000",
  })
  grossShare!: string | null;
  @ApiProperty({
    description: "The raffle's commission on each prize, in basis points (1000 = 10 %); null while the indexer has not read it.",
    nullable: true,
    type: String,
    example: "1000",
  })
  commission!: string | null;
  @ApiProperty({ description: "Tickets the ticket's round sold.", example: 2 }) roundTicketCount!: number;
  @ApiProperty({ description: "Tickets the round needed to be drawn; 0 for no minimum.", example: 3 }) roundMinTickets!: number;
  @ApiProperty({
    description: "Why the round became refundable: MINIMUM_NOT_REACHED, DRAW_REFUSED or RANDOMNESS_TIMEOUT; null otherwise.",
    nullable: true,
    type: String,
    example: null,
  })
  refundReason!: string | null;
}

export class PlayerTicketListDto {
  @ApiProperty({ type: [PlayerTicketDto], description: "The session address's tickets of public-sale raffles, newest first (at most 200)." })
  rows!: PlayerTicketDto[];
}
