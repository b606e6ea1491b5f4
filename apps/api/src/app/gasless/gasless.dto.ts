import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { Type } from "class-transformer";
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, Matches, Max, Min, ValidateNested } from "class-validator";

import { MAX_STORED_INTEGER } from "../../common/ids";
import { IsEthereumAddress, IsOmittable } from "../../common/validators";

/** Decimal integers of at most 78 digits; the uint256 range is checked where they are used. */
export const UINT_TEXT = /^(0|[1-9]\d{0,77})$/;
const BYTES32_TEXT = /^0x[0-9a-fA-F]{64}$/;
/** A signature: 65 bytes for an account's key, longer (at most 2 kB) for a contract account's ERC-1271 format. */
const SIGNATURE_TEXT = /^0x(?:[0-9a-fA-F]{2}){65,2048}$/;
/** What a relayer calls itself: a host name, a pod name. */
export const RELAYER_ID_TEXT = /^[A-Za-z0-9._:-]{1,64}$/;
const MAX_TICKETS_PER_INTENT = 20;

const uint = (field: string) => Matches(UINT_TEXT, { message: `${field} must be a non-negative decimal integer string` });

export class VoucherParamsBody {
  @ApiProperty({ description: "The round id the voucher carries, decimal string.", example: "7" }) @uint("externalId") externalId!: string;
  @ApiProperty({ description: "Expiry, seconds since the epoch, decimal string.", example: "1795450200" }) @uint("expiresAt") expiresAt!: string;
  @ApiProperty({ description: "The voucher's 32-byte nonce.", example: `0x${"2c".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "nonce must be 32 bytes of 0x-prefixed hex" })
  nonce!: string;
  @ApiProperty({ description: 'bytes32 of the short string "0x".', example: `0x${"30".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "extra must be 32 bytes of 0x-prefixed hex" })
  extra!: string;
  @ApiProperty({ description: "The raffle contract address.", example: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be" })
  @IsEthereumAddress()
  receiver!: string;
  @ApiProperty({ description: "The referrer address (zero when none).", example: "0x0000000000000000000000000000000000000000" })
  @IsEthereumAddress()
  referrer!: string;
}

export class VoucherAssetBody {
  @ApiProperty({ description: "TokenType index: NATIVE=0, ERC20=1, ERC721=2, ERC998=3, ERC1155=4.", example: 1 })
  @IsInt()
  @Min(0)
  @Max(4)
  tokenType!: number;
  @ApiProperty({ description: "Token contract address.", example: "0xB7A5bd0345EF1Cc5E66bf61BdeC17D2461fBd968" }) @IsEthereumAddress() token!: string;
  @ApiProperty({ description: "Token id, decimal string.", example: "0" }) @uint("tokenId") tokenId!: string;
  @ApiProperty({ description: "Amount in the token's smallest unit, decimal string.", example: "10000000000000000000" })
  @uint("amount")
  amount!: string;
}

/** The voucher exactly as `POST /player/vouchers` (or the spec's `POST /ticket/sign`) answered it. */
export class VoucherBody {
  @ApiProperty({ description: "The voucher's 32-byte nonce: `params.nonce`.", example: `0x${"2c".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "nonce must be 32 bytes of 0x-prefixed hex" })
  nonce!: string;

  @ApiProperty({ example: `0x${"ab".repeat(65)}`, description: "The API's EIP-712 signature of the voucher." })
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: "signature must be 65 bytes of 0x-prefixed hex" })
  signature!: string;

  @ApiProperty({ description: "Seconds-based expiry: `params.expiresAt`.", example: 1_900_000_000 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  expiresAt!: number;

  @ApiProperty({ type: VoucherParamsBody }) @IsObject() @ValidateNested() @Type(() => VoucherParamsBody) params!: VoucherParamsBody;
  @ApiProperty({ type: VoucherAssetBody }) @IsObject() @ValidateNested() @Type(() => VoucherAssetBody) item!: VoucherAssetBody;
  @ApiProperty({ type: VoucherAssetBody }) @IsObject() @ValidateNested() @Type(() => VoucherAssetBody) price!: VoucherAssetBody;
  @ApiProperty({ description: "Native value of the purchase, wei as a decimal string (0 for an ERC20 price).", example: "0" })
  @uint("value")
  value!: string;

  @ApiPropertyOptional({ example: 31337, description: "As `POST /player/vouchers` answers it (echoed, checked against the voucher's raffle)." })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  chainId?: number;

  @ApiPropertyOptional({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3", description: "As `POST /player/vouchers` answers it (echoed)." })
  @IsOmittable()
  @IsEthereumAddress()
  exchange?: string;
}

/** ERC-3009 `ReceiveWithAuthorization` of the price to the Exchange, nonce = the voucher's digest (libs/chain `signPurchaseAuthorization`). */
export class AuthorizationBody {
  @ApiProperty({ example: "0", description: "Unix seconds, decimal string." }) @uint("validAfter") validAfter!: string;
  @ApiProperty({ example: "1900000000", description: "Unix seconds, decimal string." }) @uint("validBefore") validBefore!: string;
  @ApiProperty({ example: `0x${"ab".repeat(65)}`, description: "The buyer's signature (65 bytes, or an ERC-1271 wallet's format)." })
  @Matches(SIGNATURE_TEXT, { message: "signature must be 0x-prefixed hex of 65 to 2048 bytes" })
  signature!: string;
}

/** EIP-2612 permit of the price (or more) to the Exchange. */
export class PermitBody {
  @ApiProperty({
    description: "Allowance the permit gives the Exchange, at least the price; smallest units, decimal string.",
    example: "10000000000000000000",
  })
  @uint("value")
  value!: string;
  @ApiProperty({ description: "Unix seconds until which the permit is valid, decimal string.", example: "1900000000" })
  @uint("deadline")
  deadline!: string;
  @ApiProperty({ description: "The permit signature's v.", example: 27 }) @IsInt() @Min(0) @Max(255) v!: number;
  @ApiProperty({ description: "The permit signature's r.", example: `0x${"ab".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "r must be 32 bytes of 0x-prefixed hex" })
  r!: string;
  @ApiProperty({ description: "The permit signature's s.", example: `0x${"cd".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "s must be 32 bytes of 0x-prefixed hex" })
  s!: string;
}

/** The buyer's `PurchaseIntent` signature on the Exchange's domain (libs/chain `signPurchaseIntent`). */
export class IntentBody {
  @ApiProperty({ description: "Unix seconds until which the intent is valid, decimal string.", example: "1900000000" })
  @uint("deadline")
  deadline!: string;
  @ApiProperty({
    description: "The buyer's EIP-712 signature of the PurchaseIntent (65 bytes, or an ERC-1271 wallet's format).",
    example: `0x${"ab".repeat(65)}`,
  })
  @Matches(SIGNATURE_TEXT, { message: "signature must be 0x-prefixed hex of 65 to 2048 bytes" })
  signature!: string;
}

export class GaslessPurchaseBody {
  @ApiProperty({ type: VoucherBody, description: "The voucher as `POST /player/vouchers` answered it, whole." })
  @IsObject()
  @ValidateNested()
  @Type(() => VoucherBody)
  voucher!: VoucherBody;

  @ApiPropertyOptional({ type: AuthorizationBody, description: "ERC-3009: the one signature. Either this or `intent`." })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => AuthorizationBody)
  authorization?: AuthorizationBody;

  @ApiPropertyOptional({ type: PermitBody, description: "EIP-2612, with `intent`; absent when the buyer already approved the Exchange." })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => PermitBody)
  permit?: PermitBody;

  @ApiPropertyOptional({ type: IntentBody, description: "EIP-2612's purchase intent. Either this or `authorization`." })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => IntentBody)
  intent?: IntentBody;
}

/** A game backend's: the spec's `POST /ticket/sign` answer, with the raffle and chain beside it. */
export class MerchantGaslessPurchaseBody extends GaslessPurchaseBody {
  @ApiProperty({ description: "The raffle contract id the voucher is for.", example: 3 })
  @IsInt()
  @Min(1)
  @Max(MAX_STORED_INTEGER)
  contractId!: number;
  @ApiProperty({ description: "The chain of the raffle.", example: 31337 }) @IsInt() @Min(1) @Max(MAX_STORED_INTEGER) chainId!: number;
}

export class TicketRefBody {
  @ApiProperty({ example: "2", description: "On-chain round id, decimal string." }) @uint("roundId") roundId!: string;
  @ApiProperty({ example: "12", description: "On-chain ticket id, decimal string." }) @uint("ticketId") ticketId!: string;
}

/** The holder's ClaimIntent / RefundIntent (libs/chain `signClaimIntent`, `signRefundIntent`). */
export class GaslessTicketsBody {
  @ApiProperty({ example: 3, description: "The raffle contract id." }) @IsInt() @Min(1) @Max(MAX_STORED_INTEGER) contractId!: number;

  @ApiProperty({ type: [TicketRefBody], description: `1 to ${MAX_TICKETS_PER_INTENT} tickets the session's address holds.` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TICKETS_PER_INTENT)
  @ValidateNested({ each: true })
  @Type(() => TicketRefBody)
  tickets!: TicketRefBody[];

  @ApiProperty({ example: "1900000000", description: "Unix seconds until which the intent is valid." }) @uint("deadline") deadline!: string;

  @ApiProperty({
    description: "The holder's EIP-712 signature of the ClaimIntent or RefundIntent (65 bytes, or an ERC-1271 wallet's format).",
    example: `0x${"ab".repeat(65)}`,
  })
  @Matches(SIGNATURE_TEXT, { message: "signature must be 0x-prefixed hex of 65 to 2048 bytes" })
  signature!: string;
}

export const GASLESS_KINDS = ["purchase", "claim", "refund"] as const;
export type GaslessKind = (typeof GASLESS_KINDS)[number];
export const GASLESS_STATES = ["queued", "sent", "mined", "failed"] as const;
export type GaslessState = (typeof GASLESS_STATES)[number];

export class GaslessRequestDto {
  @ApiProperty({ description: "The request's id.", format: "uuid", example: "0b3f7a56-8c1d-4e2f-9a0b-1c2d3e4f5a6b" }) id!: string;
  @ApiProperty({ description: "What is relayed.", enum: GASLESS_KINDS, example: "purchase" }) kind!: GaslessKind;
  @ApiProperty({
    enum: GASLESS_STATES,
    example: "queued",
    description: "queued (waiting for the relayer), sent (a transaction is out), mined (done: `ticketIds`), failed (`failureReason`).",
  })
  state!: GaslessState;
  @ApiProperty({ description: "The chain it is relayed on.", example: 31337 }) chainId!: number;
  @ApiProperty({ description: "The raffle contract id.", example: 3 }) contractId!: number;
  @ApiProperty({ example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", description: "The buyer, or the tickets' holder." }) account!: string;
  @ApiProperty({ type: Number, nullable: true, example: 5, description: "Tickets a purchase buys; null for claims and refunds." })
  quantity!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: "The relayer's latest transaction; null until sent." })
  txHash!: string | null;
  @ApiProperty({ type: [String], example: [], description: "Ticket ids (decimal strings) once mined: bought, claimed or refunded." })
  ticketIds!: string[];
  @ApiProperty({ type: String, nullable: true, example: null, description: "camelCase code of a failure." }) failureCode!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: "A sentence for the player about the failure." })
  failureReason!: string | null;
  @ApiProperty({ description: "When it was accepted (ISO 8601 UTC).", format: "date-time" }) createdAt!: string;
  @ApiProperty({ description: "When its state last changed (ISO 8601 UTC).", format: "date-time" }) updatedAt!: string;
}

export class GaslessRequestListDto {
  @ApiProperty({ type: [GaslessRequestDto], description: "The session's latest 50 requests, newest first." }) rows!: GaslessRequestDto[];
}

/** A relayer holds at most this many jobs (the merchant worker's RELAYER_MAX_IN_FLIGHT has the same bound). */
export const MAX_RELAY_CLAIM = 500;

export class RelayClaimBody {
  @ApiProperty({ description: "The chain whose jobs the relayer sends.", example: 31337 }) @IsInt() @Min(1) @Max(MAX_STORED_INTEGER) chainId!: number;
  @ApiProperty({ example: "worker-1", description: "The relayer's own stable name (1 to 64 of A-Z a-z 0-9 . _ : -)." })
  @IsString()
  @Matches(RELAYER_ID_TEXT, { message: "relayerId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -" })
  relayerId!: string;
  @ApiPropertyOptional({
    description: "Most jobs to answer, held and new together: the relayer's in-flight cap (jobs a second × seconds each job takes).",
    example: 20,
    minimum: 1,
    maximum: MAX_RELAY_CLAIM,
    default: 20,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_RELAY_CLAIM)
  limit?: number;
}

export class RelayAttemptDto {
  @ApiProperty({ description: "The transaction's hash.", example: `0x${"ab".repeat(32)}` }) txHash!: string;
  @ApiProperty({ description: "The relayer account's nonce it was sent with.", example: 7 }) nonce!: number;
  @ApiProperty({ description: "Its maxFeePerGas, wei, decimal string.", example: "2000000000" }) maxFeePerGas!: string;
  @ApiProperty({ description: "Its maxPriorityFeePerGas, wei, decimal string.", example: "1000000000" }) maxPriorityFeePerGas!: string;
  @ApiProperty({ description: "When it was reported sent (ISO 8601 UTC).", format: "date-time" }) sentAt!: string;
}

export class RelayJobDto {
  @ApiProperty({ description: "The job's id: the request's.", format: "uuid" }) id!: string;
  @ApiProperty({ description: "What is relayed.", enum: GASLESS_KINDS }) kind!: GaslessKind;
  @ApiProperty({ description: "The chain to send it on.", example: 31337 }) chainId!: number;
  @ApiProperty({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3", description: "The chain's Exchange." }) to!: string;
  @ApiProperty({ example: "0x1234", description: "Calldata, built by the API from the validated request." }) data!: string;
  @ApiProperty({ example: 1_900_000_000, description: "Unix seconds; after it the job can only fail (report `voucherExpired`)." }) notAfter!: number;
  @ApiProperty({ type: [RelayAttemptDto], description: "Transactions sent so far, by any relayer, oldest first." }) attempts!: RelayAttemptDto[];
  @ApiProperty({ format: "date-time", description: "The lease; every claim call of the holder renews it." }) leaseExpiresAt!: string;
}

export class RelayJobListDto {
  @ApiProperty({ description: "Jobs this relayer holds now, oldest first.", type: [RelayJobDto] }) jobs!: RelayJobDto[];
}

export class RelaySentBody {
  @ApiProperty({ description: "The relayer's own stable name, as in its claim.", example: "worker-1" })
  @IsString()
  @Matches(RELAYER_ID_TEXT, { message: "relayerId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -" })
  relayerId!: string;
  @ApiProperty({ description: "The transaction's hash.", example: `0x${"ab".repeat(32)}` })
  @Matches(BYTES32_TEXT, { message: "txHash must be 32 bytes of 0x-prefixed hex" })
  txHash!: string;
  @ApiProperty({ description: "The relayer account's nonce it was sent with (a resend keeps it).", example: 7 })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  nonce!: number;
  @ApiProperty({ description: "Its maxFeePerGas, wei, decimal string.", example: "2000000000" }) @uint("maxFeePerGas") maxFeePerGas!: string;
  @ApiProperty({ description: "Its maxPriorityFeePerGas, wei, decimal string.", example: "1000000000" })
  @uint("maxPriorityFeePerGas")
  maxPriorityFeePerGas!: string;
}

export class RelayOutcomeBody {
  @ApiProperty({ description: "The relayer's own stable name, as in its claim.", example: "worker-1" })
  @IsString()
  @Matches(RELAYER_ID_TEXT, { message: "relayerId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -" })
  relayerId!: string;
  @ApiProperty({ description: "mined (the API verifies the receipt) or failed.", enum: ["mined", "failed"] }) @IsIn(["mined", "failed"]) outcome!:
    "mined" | "failed";
  @ApiPropertyOptional({
    example: `0x${"ab".repeat(32)}`,
    description: "For mined: the transaction (one of the job's attempts); the latest when omitted.",
  })
  @IsOmittable()
  @Matches(BYTES32_TEXT, { message: "txHash must be 32 bytes of 0x-prefixed hex" })
  txHash?: string;
  @ApiPropertyOptional({ example: "voucherExpired", description: "For failed: camelCase code (the contract's custom error, `voucherExpired`, ...)." })
  @IsOmittable()
  @Matches(/^[a-z][A-Za-z0-9]{0,63}$/, { message: "failureCode must be a camelCase code of at most 64 characters" })
  failureCode?: string;
}

export class GaslessSettingsBody {
  @ApiProperty({ description: "Whether the merchant relays gasless requests.", example: true }) @IsBoolean() enabled!: boolean;
  @ApiProperty({ example: "50000000000000000", description: "Wei of gas the relayer may spend per UTC day, decimal string." })
  @uint("dailyGasBudgetWei")
  dailyGasBudgetWei!: string;
  @ApiProperty({ example: 20, description: "Gasless requests one player may make per UTC day (0: none)." })
  @IsInt()
  @Min(0)
  @Max(10_000)
  perPlayerDailyLimit!: number;
}

export class GaslessSettingsDto {
  @ApiProperty({ description: "Whether the merchant relays gasless requests.", example: true }) enabled!: boolean;
  @ApiProperty({ description: "Wei of gas the relayer may spend per UTC day, decimal string.", example: "50000000000000000" })
  dailyGasBudgetWei!: string;
  @ApiProperty({ description: "Gasless requests one player may make per UTC day.", example: 20 }) perPlayerDailyLimit!: number;
  @ApiProperty({ example: "1234000000000000", description: "Gas cost of today's (UTC) mined gasless requests, wei." }) spentTodayWei!: string;
  @ApiProperty({ type: String, nullable: true, format: "date-time", description: "When a relayer of the merchant last claimed jobs." })
  relayerLastSeenAt!: string | null;
}

export class GaslessAvailabilityDto {
  @ApiProperty({
    example: true,
    description: "The merchant relays, a relayer of its claimed jobs in the last 2 minutes, and the price token supports `method`.",
  })
  available!: boolean;
  @ApiProperty({
    description: "ERC-3009 `authorization` (one signature) or EIP-2612 `permit` (permit + intent); null when the token has neither.",
    enum: ["authorization", "permit"],
    nullable: true,
    type: String,
    example: "authorization",
  })
  method!: "authorization" | "permit" | null;
  @ApiProperty({ type: String, nullable: true, example: "Demo Gold", description: "The token's EIP-712 domain name (ERC-5267)." }) tokenName!:
    string | null;
  @ApiProperty({ type: String, nullable: true, example: "1", description: "The token's EIP-712 domain version (ERC-5267)." })
  tokenVersion!: string | null;
  @ApiProperty({
    example: true,
    description:
      "The merchant relays and a relayer of its claimed jobs in the last 2 minutes: the raffle's prizes can be claimed and its tickets refunded " +
      "without gas, whatever the price (ETH or any token), as the holder's signature alone moves them.",
  })
  claimsAndRefunds!: boolean;
}
