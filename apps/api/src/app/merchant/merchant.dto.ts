import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsInt, IsString, Max, MaxLength, Min } from "class-validator";

import { IsDisplayText, IsOmittable } from "../../common/validators";
import { MAX_ROLL_GRACE_SECONDS } from "../auth/api-key.service";

export class MerchantSessionDto {
  @ApiProperty({ example: 1, description: "The merchant the session acts for." }) merchantId!: number;
  @ApiProperty({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", description: "The merchant's wallet (EIP-55), which signed in." })
  address!: string;
  @ApiProperty({ example: 31337, description: "The chain id of the signed message." }) chainId!: number;
  @ApiProperty({ example: "2026-11-25T09:00:00.000Z", format: "date-time", description: "When the session ends." }) expiresAt!: string;
}

export class MerchantSignInDto extends MerchantSessionDto {
  @ApiProperty({ example: `ms_${"A".repeat(43)}`, description: "The session's bearer token: `Authorization: Bearer <token>`." })
  token!: string;
}

export class ApiKeyDto {
  @ApiProperty({ example: 4, description: "API key id." }) id!: number;
  @ApiProperty({ example: "3f9a0c1d2e4b", description: "The key's public prefix: the key reads `rk_<prefix>_<secret>`." }) prefix!: string;
  @ApiProperty({ example: "game server", description: "The merchant's label for the key." }) label!: string;
  @ApiProperty({ example: "2026-11-25T01:00:00.000Z", format: "date-time", description: "When the key was created." }) createdAt!: string;
  @ApiProperty({
    example: "2026-11-25T02:13:00.000Z",
    format: "date-time",
    nullable: true,
    type: String,
    description: "When the key last authenticated a request, to the minute; null if never.",
  })
  lastUsedAt!: string | null;
  @ApiProperty({
    example: null,
    format: "date-time",
    nullable: true,
    type: String,
    description: "When the key was revoked; null while it works. In the future for a rolled key: it works until then.",
  })
  revokedAt!: string | null;
  @ApiProperty({
    example: null,
    format: "date-time",
    nullable: true,
    type: String,
    description: "When a call with this key's right secret was last refused because the key is revoked, to the minute; null if never.",
  })
  lastRejectedAt!: string | null;
  @ApiProperty({
    example: "raffle-merchant-worker/1.0 node",
    nullable: true,
    type: String,
    description:
      "The User-Agent of the call that set `lastUsedAt` (at most 200 characters, control and direction characters removed); null if none was sent or never used.",
  })
  lastUsedUserAgent!: string | null;
  @ApiProperty({
    example: "203.0.113.7",
    nullable: true,
    type: String,
    description: "The source IP of the call that set `lastUsedAt`; null if never used.",
  })
  lastUsedIp!: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ example: `rk_3f9a0c1d2e4b_${"A".repeat(43)}`, description: "The whole key, shown only here: it is stored hashed." })
  key!: string;
}

export class RolledApiKeyDto {
  @ApiProperty({ type: CreatedApiKeyDto, description: "The new key, with its secret `key` shown once." }) created!: CreatedApiKeyDto;
  @ApiProperty({ type: ApiKeyDto, description: "The rolled key: `revokedAt` says until when it keeps working." }) rolled!: ApiKeyDto;
}

export class RollApiKeyBody {
  @ApiProperty({
    example: 86_400,
    description: `How long the rolled key keeps working, in seconds: 0 (revoked now) to ${MAX_ROLL_GRACE_SECONDS} (7 days).`,
    minimum: 0,
    maximum: MAX_ROLL_GRACE_SECONDS,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_ROLL_GRACE_SECONDS)
  graceSeconds!: number;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto], description: "The merchant's keys, newest first, revoked ones included." }) rows!: ApiKeyDto[];
  @ApiProperty({ example: 2, description: "How many keys." }) count!: number;
}

export class CreateApiKeyBody {
  @ApiPropertyOptional({
    example: "game server",
    description: "A label to recognise the key by (at most 100 characters; no control, invisible or direction-changing characters).",
    maxLength: 100,
  })
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  @IsDisplayText()
  label?: string;
}

/** What needs the merchant's attention. */
export enum AttentionKind {
  /** A round has waited for its randomness longer than expected (the VRF answer usually comes within minutes). */
  DRAW_WAITING = "DRAW_WAITING",
  /** The raffle's schedule fired and its round was not rotated: the merchant worker missed it. */
  ROTATION_MISSED = "ROTATION_MISSED",
  /** The raffle is paused: no ticket sells. */
  RAFFLE_PAUSED = "RAFFLE_PAUSED",
  /** The raffle has no round: it sells nothing until its first round starts. */
  NO_ROUND = "NO_ROUND",
}

export class AttentionDto {
  @ApiProperty({ enum: AttentionKind, example: AttentionKind.DRAW_WAITING, description: "What kind of problem." }) kind!: AttentionKind;
  @ApiProperty({ example: 3, description: "The raffle contract id." }) contractId!: number;
  @ApiProperty({ example: "Demo ERC20 Ticket raffle", description: "The raffle's title." }) title!: string;
  @ApiProperty({ example: "2", nullable: true, type: String, description: "The on-chain round id concerned, if any." }) roundId!: string | null;
  @ApiProperty({ example: "2026-11-25T01:00:00.000Z", format: "date-time", nullable: true, type: String, description: "Since when." })
  since!: string | null;
}

export class ChainOverviewDto {
  @ApiProperty({ example: 31337, description: "The chain id." }) chainId!: number;
  @ApiProperty({ example: 2, description: "The merchant's active raffles on this chain." }) raffles!: number;
  @ApiProperty({ example: 2, description: "Rounds selling now (active, raffle not paused)." }) activeRounds!: number;
  @ApiProperty({ type: [AttentionDto], description: "What needs attention on this chain, oldest first." }) attention!: AttentionDto[];
}

export class OverviewDto {
  @ApiProperty({ type: [ChainOverviewDto], description: "One entry per chain this API serves." }) chains!: ChainOverviewDto[];
}
