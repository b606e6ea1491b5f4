import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { RoundStatus } from "@raffle/db";
import { IsBoolean, IsInt, IsString, Matches, Max, MaxLength, Min } from "class-validator";

import { MAX_STORED_INTEGER, OptionalChainId } from "../../common/ids";
import { PaginationQuery } from "../../common/pagination.dto";
import { IsDisplayText, IsOmittable, IsRichTextDescription, PRINTABLE_TEXT, ToInteger } from "../../common/validators";
import { IsCronSchedule } from "./schedule";

export class RaffleSettingsBody {
  @ApiPropertyOptional({
    example: "Friday night raffle",
    description:
      "Title shown to players (at most 255 characters): no control, invisible or direction-changing characters (U+061C, U+200B–U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF), no lone surrogates.",
    maxLength: 255,
  })
  @IsOmittable()
  @IsString()
  @MaxLength(255)
  @IsDisplayText()
  title?: string;

  @ApiPropertyOptional({
    example: "One winner every hour.",
    description:
      "Description shown to players (at most 4,000 characters): plain text, or a serialized rich-text document (spec 2.9) whose blocks (at most 100) have string `text`, " +
      "a known `type` (`unstyled`, `paragraph`, `header-one` … `header-six`, `unordered-list-item`, `ordered-list-item`, `blockquote`, `code-block`, `atomic`) and well-formed ranges; " +
      "any JSON object is read as such a document. A fault is reported at its path, e.g. `description.blocks[2].text`.",
    maxLength: 4000,
  })
  @IsOmittable()
  @IsString()
  @MaxLength(4_000)
  @Matches(PRINTABLE_TEXT, { message: "description must not contain control characters" })
  @IsRichTextDescription()
  description?: string;

  @ApiPropertyOptional({
    example: "https://cdn.example.com/raffle.png",
    description: "Image URL (https:// or http://, at most 1,024 characters); empty for none.",
  })
  @IsOmittable()
  @IsString()
  @MaxLength(1_024)
  @Matches(/^(https?:\/\/[^\s]+)?$/, { message: "imageUrl must be an http:// or https:// URL, or empty" })
  @IsDisplayText()
  imageUrl?: string;

  @ApiPropertyOptional({
    example: "0 * * * *",
    description: "When the merchant worker ends the round and starts the next: a cron expression in UTC (5 fields, or 6 with seconds).",
  })
  @IsOmittable()
  @IsCronSchedule()
  schedule?: string;

  @ApiPropertyOptional({ example: true, description: "Whether wallet users may see and buy the raffle (public sale)." })
  @IsOmittable()
  @IsBoolean()
  publicSale?: boolean;
}

export class SchedulePreviewBody {
  @ApiProperty({ example: "0 * * * *", description: "A cron expression in UTC (5 fields, or 6 with seconds)." })
  @IsCronSchedule()
  schedule!: string;
}

export class SchedulePreviewDto {
  @ApiProperty({ example: "0 * * * *", description: "The expression." }) schedule!: string;
  @ApiProperty({
    type: [String],
    example: ["2026-11-25T02:00:00.000Z", "2026-11-25T03:00:00.000Z"],
    description: "Its next five runs (ISO 8601 UTC).",
  })
  nextRuns!: string[];
}

export class RoundPriceDto {
  @ApiProperty({ example: "ERC20", description: "NATIVE or ERC20." }) tokenType!: string;
  @ApiProperty({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3", description: "Token address (zero address for NATIVE)." }) token!: string;
  @ApiProperty({ example: "GOLD", description: "Token symbol." }) symbol!: string;
  @ApiProperty({ example: 18, description: "Token decimals." }) decimals!: number;
  @ApiProperty({ example: "10000000000000000000", description: "Price of one ticket in the token's smallest unit (integer string)." })
  amount!: string;
}

export class RoundHistoryWinnerDto {
  @ApiProperty({ example: "42", description: "The winning ticket id." }) ticketId!: string;
  @ApiProperty({ example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", description: "Who holds the winning ticket." }) account!: string;
  @ApiProperty({ example: "90000000000000000000", description: "The prize (its share of the pot less commission), smallest unit." }) prize!: string;
  @ApiProperty({ example: "UNCLAIMED", description: "UNCLAIMED, CLAIMED or RELEASED (to the merchant)." }) claimStatus!: string;
  @ApiProperty({ example: "100000000000000000000", description: "The winner's share of the pot before commission, smallest unit." })
  grossShare!: string;
  @ApiProperty({
    example: "2026-11-26T02:00:00.000Z",
    format: "date-time",
    nullable: true,
    type: String,
    description: "From when an unclaimed prize may be released to the merchant.",
  })
  releasableAt!: string | null;
}

export class RoundBundleDto {
  @ApiProperty({ example: 5, description: "Tickets in the bundle." }) quantity!: number;
  @ApiProperty({ example: "45000000000000000000", description: "Total price of the bundle, smallest unit (integer string)." }) price!: string;
}

export class RoundRulesDto {
  @ApiProperty({ type: [Number], example: [7000, 3000], description: "Basis points of the pot per winner position, first prize first." })
  prizeShares!: number[];
  @ApiProperty({ example: 3, description: "Fewer tickets than this (or than winners) at the end refunds every ticket; 0 for none." })
  minTickets!: number;
  @ApiProperty({ example: 0, description: "Most tickets one wallet may buy in the round; 0 for no cap." }) maxTicketsPerWallet!: number;
  @ApiProperty({ type: [RoundBundleDto], description: "Bundle prices." }) bundles!: RoundBundleDto[];
}

export class RoundHistoryDto {
  @ApiProperty({ example: "2", description: "On-chain round id." }) roundId!: string;
  @ApiProperty({ enum: RoundStatus, example: RoundStatus.DRAWN, description: "Round status." }) status!: RoundStatus;
  @ApiProperty({ example: "2026-11-25T01:00:00.000Z", format: "date-time", description: "Start." }) startTimestamp!: string;
  @ApiProperty({ example: null, format: "date-time", nullable: true, type: String, description: "End; null while it sells." })
  endTimestamp!: string | null;
  @ApiProperty({ example: 12, description: "Tickets sold." }) ticketCount!: number;
  @ApiProperty({ example: 100, description: "Ticket cap; 0 means none." }) maxTickets!: number;
  @ApiProperty({ example: 0, description: "Tickets refunded." }) refundedTickets!: number;
  @ApiProperty({ type: RoundPriceDto, description: "The ticket price." }) price!: RoundPriceDto;
  @ApiProperty({ type: RoundRulesDto, description: "The rules the round is played by (fixed when it started)." }) rules!: RoundRulesDto;
  @ApiProperty({ type: [RoundHistoryWinnerDto], description: "The winners (empty before the draw or without one)." })
  winners!: RoundHistoryWinnerDto[];
}

export class RoundHistoryListDto {
  @ApiProperty({ type: [RoundHistoryDto], description: "Rounds, newest first." }) rows!: RoundHistoryDto[];
  @ApiProperty({ example: 3, description: "How many rounds in all." }) count!: number;
}

export class SalesQuery {
  @OptionalChainId("Only this chain (one this API serves).", { fromQuery: true })
  chainId?: number;

  @ApiPropertyOptional({ example: 3, description: "Only this raffle contract." })
  @IsOmittable()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId?: number;

  @ApiPropertyOptional({ example: 30, description: "How many days back from today (UTC), 1 to 366; default 30.", minimum: 1, maximum: 366 })
  @IsOmittable()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(366)
  days?: number;
}

export class SalesRowDto {
  @ApiProperty({ example: "2026-11-25", description: "The UTC day." }) day!: string;
  @ApiProperty({ example: 31337, description: "The chain id." }) chainId!: number;
  @ApiProperty({ example: 3, description: "The raffle contract id." }) contractId!: number;
  @ApiProperty({ type: RoundPriceDto, description: "The token paid (its `amount` is the day's revenue)." }) token!: Omit<RoundPriceDto, "amount">;
  @ApiProperty({ example: 12, description: "Tickets sold that day." }) tickets!: number;
  @ApiProperty({ example: "120000000000000000000", description: "Revenue that day in the token's smallest unit (integer string)." })
  revenue!: string;
}

export class SalesDto {
  @ApiProperty({ type: [SalesRowDto], description: "One row per day, chain, raffle and token with sales, oldest first." }) rows!: SalesRowDto[];
}

export class RoundHistoryQuery extends PaginationQuery {}
