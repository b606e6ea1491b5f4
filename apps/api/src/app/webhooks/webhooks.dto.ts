import { applyDecorators } from "@nestjs/common";
import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@raffle/indexer";
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength } from "class-validator";

import { PaginationQuery } from "../../common/pagination.dto";
import { IsDisplayText, IsOmittable } from "../../common/validators";

/** An endpoint's choice of event types, the same on create and on update: at least one, each known, none twice. */
function IsEventTypeList(): PropertyDecorator {
  return applyDecorators(
    IsOmittable(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(WEBHOOK_EVENT_TYPES.length),
    ArrayUnique(),
    IsIn(WEBHOOK_EVENT_TYPES, { each: true }),
  );
}

export class CreateWebhookBody {
  @ApiProperty({
    example: "https://game.example.com/raffle/webhooks",
    description:
      "Where messages are POSTed. https:// is required, and a host resolving to a loopback, private, link-local or metadata address is refused (unless the API runs with WEBHOOK_ALLOW_PRIVATE_URLS=true).",
    maxLength: 2048,
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ["ticket.purchased", "round.drawn"],
    description: "Message types to receive; all types when omitted.",
  })
  @IsEventTypeList()
  events?: WebhookEventType[];

  @ApiPropertyOptional({
    example: "Game server (production)",
    description: "Free text for the merchant (no control, invisible or direction-changing characters; tab and line breaks are fine).",
    maxLength: 500,
    default: "",
  })
  @IsOmittable()
  @IsString()
  @MaxLength(500)
  @IsDisplayText()
  description?: string;
}

/** Events an update may choose, with the same rules as on create. */
export class UpdateWebhookBody {
  @ApiPropertyOptional({
    enum: WEBHOOK_EVENT_TYPES,
    isArray: true,
    example: ["round.drawn"],
    description: "Message types to receive from now on (at least one); unchanged when omitted. Messages already written keep being delivered.",
  })
  @IsEventTypeList()
  events?: WebhookEventType[];

  @ApiPropertyOptional({ example: "Game server (production)", description: "Free text, as on create; unchanged when omitted.", maxLength: 500 })
  @IsOmittable()
  @IsString()
  @MaxLength(500)
  @IsDisplayText()
  description?: string;
}

export const WEBHOOK_HEALTHS = ["healthy", "failing", "disabled"] as const;
export type WebhookHealth = (typeof WEBHOOK_HEALTHS)[number];

export class WebhookDto {
  @ApiProperty({ example: 7, description: "Webhook id." }) id!: number;
  @ApiProperty({ example: "https://game.example.com/raffle/webhooks", description: "Where messages are POSTed." }) url!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true, example: ["ticket.purchased", "round.drawn"], description: "Message types received." })
  events!: WebhookEventType[];
  @ApiProperty({ example: "Game server (production)", description: "Free text." }) description!: string;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ example: false, description: "True once the endpoint failed for 5 days: nothing is sent to it." })
  disabled!: boolean;
  @ApiProperty({ example: null, nullable: true, type: String, format: "date-time", description: "When it was disabled." }) disabledAt!: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: "date-time",
    description: "First failed attempt since the last successful one; null while it answers 2xx.",
  })
  failingSince!: string | null;
  @ApiProperty({
    enum: WEBHOOK_HEALTHS,
    example: "healthy",
    description: "`healthy` (its last attempt got a 2xx, or none was made), `failing` (since `failingSince`, still retried) or `disabled`.",
  })
  health!: WebhookHealth;
}

export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    description: "Signing secret (Standard Webhooks form). Shown only in this answer; store it to verify `webhook-signature`.",
  })
  secret!: string;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto], description: "The merchant's webhooks, newest first (no secrets)." }) rows!: WebhookDto[];
  @ApiProperty({ example: 1, description: "Total count." }) count!: number;
}

export class RotatedSecretDto extends WebhookWithSecretDto {
  @ApiProperty({
    example: "2026-11-24T16:00:00.000Z",
    format: "date-time",
    description: "Until when the previous secret keeps signing alongside the new one (both signatures are sent).",
  })
  previousSecretExpiresAt!: string;
}

export const DELIVERY_STATUSES = ["PENDING", "DELIVERED", "FAILED"] as const;

/** The type of a test message (`POST /webhooks/:id/test`): sent to one endpoint on request, never from a chain event. */
export const WEBHOOK_TEST_TYPE = "webhook.test";
/** Every type a delivery can carry: the chain events' and the test message's. */
export const DELIVERY_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

export class DeliveryDto {
  @ApiProperty({ example: "42", description: "Delivery id (decimal string)." }) id!: string;
  @ApiProperty({ example: "msg_5f0c1e2d3c4b5a69788796a5b4c3d2e1", description: "Message id: the body's `id` and the `webhook-id` header." })
  messageId!: string;
  @ApiProperty({ enum: DELIVERY_TYPES, example: "ticket.purchased", description: "Message type (`webhook.test` for a test message)." })
  type!: DeliveryType;
  @ApiProperty({ example: false, description: "True for a retraction (a reorg removed the event)." }) removed!: boolean;
  @ApiProperty({ example: "31337:0x5c50...9a1e:3", description: "The chain event (chain, tx, log index); the same for its retraction." })
  eventId!: string;
  @ApiProperty({
    enum: DELIVERY_STATUSES,
    example: "DELIVERED",
    description: "PENDING (retrying), DELIVERED (a 2xx answer) or FAILED (retries exhausted).",
  })
  status!: (typeof DELIVERY_STATUSES)[number];
  @ApiProperty({ example: 1, description: "Attempts made." }) attempts!: number;
  @ApiProperty({
    example: 200,
    nullable: true,
    type: Number,
    description: "HTTP status of the last attempt; null if none came (timeout, connection error).",
  })
  lastStatusCode!: number | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: "Why the last attempt failed, shortened." }) lastError!: string | null;
  @ApiProperty({
    example: 84,
    nullable: true,
    type: Number,
    description: "How long the last attempt took to be answered (or to fail), in milliseconds.",
  })
  latencyMs!: number | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: "date-time",
    description: "When the next attempt is due; null once delivered or failed.",
  })
  nextAttemptAt!: string | null;
  @ApiProperty({ example: true, description: "A 2xx answer was received." }) delivered!: boolean;
  @ApiProperty({ example: "2026-11-23T16:00:01.000Z", nullable: true, type: String, format: "date-time", description: "When it was delivered." })
  deliveredAt!: string | null;
  @ApiProperty({ example: false, description: "Retries were exhausted (24 h after the message was written)." }) failed!: boolean;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "When the message was written." }) createdAt!: string;
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto], description: "The webhook's deliveries, newest first." }) rows!: DeliveryDto[];
  @ApiProperty({ example: 12, description: "Total count." }) count!: number;
}

export class DeliveriesQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: DELIVERY_TYPES, example: "ticket.purchased", description: "Only deliveries of this message type." })
  @IsOptional()
  @IsIn(DELIVERY_TYPES)
  type?: DeliveryType;

  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, example: "PENDING", description: "Only deliveries in this state." })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: (typeof DELIVERY_STATUSES)[number];
}

/** Attempts listed with a delivery, newest first; older ones are counted by the delivery's `attempts`. */
export const MAX_LISTED_ATTEMPTS = 100;

export class AttemptDto {
  @ApiProperty({ example: "2026-11-23T16:00:01.000Z", format: "date-time", description: "When the attempt started." }) attemptedAt!: string;
  @ApiProperty({ example: 500, nullable: true, type: Number, description: "The receiver's HTTP status; null when none came." })
  statusCode!: number | null;
  @ApiProperty({
    example: "database is down",
    nullable: true,
    type: String,
    description: "The start of the receiver's answer (its first KiB, as UTF-8); null when none came.",
  })
  responseExcerpt!: string | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "Why no answer came (connection refused, timeout, refused address); null when one came.",
  })
  error!: string | null;
  @ApiProperty({ example: 84, description: "How long the attempt took, in milliseconds." }) durationMs!: number;
  @ApiProperty({ example: false, description: "Made by hand (a retry or a test message), not by the delivery schedule." }) manual!: boolean;
}

export class DeliveryDetailDto extends DeliveryDto {
  @ApiProperty({
    type: [AttemptDto],
    description: `Its attempts, newest first (at most ${MAX_LISTED_ATTEMPTS}). Attempts made before attempts were kept are not listed.`,
  })
  attemptLog!: AttemptDto[];
  @ApiProperty({
    type: "object",
    additionalProperties: true,
    description: "The message exactly as it is POSTed (the `WebhookMessage` schema; a test message's `type` is `webhook.test`).",
  })
  payload!: Record<string, unknown>;
}

/** Body of every message (`data` holds the event's facts: amounts as decimal strings, addresses checksummed). */
export class WebhookMessageDto {
  @ApiProperty({ example: "msg_5f0c1e2d3c4b5a69788796a5b4c3d2e1", description: "Unique per message; equals the `webhook-id` header." }) id!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, example: "ticket.purchased", description: "Message type." }) type!: WebhookEventType;
  @ApiProperty({ example: false, description: "True when a reorg removed the event announced by an earlier message with the same `eventId`." })
  removed!: boolean;
  @ApiProperty({ example: "31337:0x5c50...9a1e:3", description: "The chain event: `<chainId>:<txHash>:<logIndex>`." }) eventId!: string;
  @ApiProperty({ example: 31337, description: "Chain id." }) chainId!: number;
  @ApiProperty({ example: 3, nullable: true, type: Number, description: "The raffle's API contract id." }) contractId!: number | null;
  @ApiProperty({ example: "1", nullable: true, type: String, description: "On-chain round id (decimal string), for round and ticket events." })
  roundId!: string | null;
  @ApiProperty({ example: 120, description: "Block of the event." }) blockNumber!: number;
  @ApiProperty({ example: "0x6f1c...", description: "Hash of that block." }) blockHash!: string;
  @ApiProperty({ example: "0x5c50...", description: "Transaction hash." }) txHash!: string;
  @ApiProperty({ example: 3, description: "Log index in the block." }) logIndex!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "When the message was written." }) createdAt!: string;
  @ApiProperty({
    type: "object",
    additionalProperties: true,
    example: { roundId: "1", ticketId: "1000001", account: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", serial: "1", externalId: "7" },
    description:
      "The event's facts: its arguments (amounts and ids as decimal strings, addresses checksummed); `round.drawn` adds `winners` (every position, first prize first: `position`, `ticketId`, `account`, `share` in basis points, `amount` before commission, `prize` = the claim's item after commission, `claimId`, and `item`, the escrowed item prize the position carries, with its `itemClaimId`) and the first position's `winner`, `prize` and `claimId`; `item.claimed` and `item.returned` add `claimId` (the position's RAFFLE_ITEM claim); `round.refundable` adds `reason` (MINIMUM_NOT_REACHED, DRAW_REFUSED or RANDOMNESS_TIMEOUT) and `ticketCount`; `claim.redeemed` adds `claimId` and `items`.",
  })
  data!: Record<string, unknown>;
}
