import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsEnum, IsOptional } from "class-validator";
import { ClaimStatus, ClaimType, type ClaimEntity } from "@raffle/db";

import { PaginationQuery } from "../../common/pagination.dto";
import { IsEthereumAddress } from "../../common/validators";

export class ClaimsQuery extends PaginationQuery {
  @ApiProperty({ description: "The account whose claims are listed." })
  @IsEthereumAddress()
  account!: string;

  @ApiPropertyOptional({ enum: ClaimStatus, description: "Only claims in this status." })
  @IsOptional()
  @IsEnum(ClaimStatus)
  claimStatus?: ClaimStatus;
}

export class ClaimItemDto {
  @ApiProperty({ description: "Token type name (NATIVE, ERC20, ERC721, ...)." }) tokenType!: string;
  @ApiProperty({ description: "Token contract address (zero address for NATIVE)." }) token!: string;
  @ApiProperty({ description: "Token id, decimal string." }) tokenId!: string;
  @ApiProperty({ description: "Amount in the token's smallest unit, decimal string." }) amount!: string;
}

/** What an account can claim. RAFFLE_PRIZE claims come from the indexer when a round's winner is known. */
export class ClaimDto {
  @ApiProperty({ description: "Claim id." }) id!: number;
  @ApiProperty({ format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ format: "date-time", description: "Last update time (ISO 8601 UTC)." }) updatedAt!: string;
  @ApiProperty({ description: "The account that can claim." }) account!: string;
  @ApiProperty({ description: "The merchant the claim is with." }) merchantId!: number;
  @ApiProperty({ enum: ClaimType, description: "What kind of claim this is." }) claimType!: ClaimType;
  @ApiProperty({ enum: ClaimStatus, description: "Whether the claim is still open, redeemed, expired, canceled or released." })
  claimStatus!: ClaimStatus;
  @ApiProperty({ type: [ClaimItemDto], description: "What the claim pays." }) items!: ClaimItemDto[];
  @ApiProperty({ format: "date-time", nullable: true, type: String, description: "For a prize: when the merchant may release it if unclaimed." })
  endTimestamp!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "For a prize: the raffle contract id." }) contractId!: number | null;
  @ApiProperty({ nullable: true, type: Number, description: "For a prize: the round id." }) roundId!: number | null;
  @ApiProperty({ nullable: true, type: String, description: "For a prize: the winning ticket's token id." }) tokenId!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "For a voucher: the 32-byte nonce (`params.nonce`)." }) nonce!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "For a NEW voucher: the EIP-712 signature to pass to Exchange.claim; null once canceled." })
  signature!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "For a voucher: on-chain expiry in seconds (`params.expiresAt`)." }) expiresAt!: number | null;
  @ApiProperty({ nullable: true, type: String, description: "The transaction that redeemed the claim, once REDEEMED." }) redeemedTxHash!: string | null;
  @ApiProperty({
    type: "object",
    additionalProperties: true,
    description:
      "What the client passes on-chain. Prize: `raffle` address, on-chain `roundId` and `ticketId` for Raffle.claimPrize(roundId). Voucher: `exchange` address and the exact `params` and `items` of Exchange.claim(params, items, signature).",
  })
  parameters!: Record<string, unknown>;
}

export class ClaimListDto {
  @ApiProperty({ type: [ClaimDto], description: "One page of claims." }) rows!: ClaimDto[];
  @ApiProperty({ description: "Total matching claims, ignoring skip and take." }) count!: number;
}

export function toClaimDto(claim: ClaimEntity): ClaimDto {
  return {
    id: claim.id,
    createdAt: claim.createdAt.toISOString(),
    updatedAt: claim.updatedAt.toISOString(),
    account: claim.account,
    merchantId: claim.merchantId,
    claimType: claim.claimType,
    claimStatus: claim.claimStatus,
    items: claim.items,
    endTimestamp: claim.endTimestamp ? claim.endTimestamp.toISOString() : null,
    contractId: claim.contractId,
    roundId: claim.roundId,
    tokenId: claim.tokenId,
    nonce: claim.nonce,
    signature: claim.claimStatus === ClaimStatus.CANCELED ? null : claim.signature,
    expiresAt: claim.expiresAt,
    redeemedTxHash: claim.redeemedTxHash,
    parameters: claim.parameters,
  };
}
