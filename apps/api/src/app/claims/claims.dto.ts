import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { IsEnum, IsOptional } from "class-validator";
import { ClaimStatus, ClaimType, type ClaimEntity } from "@raffle/db";

import { PaginationQuery } from "../../common/pagination.dto";
import { IsEthereumAddress } from "../../common/validators";

export class ClaimsQuery extends PaginationQuery {
  @ApiProperty({ example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", description: "The account whose claims are listed." })
  @IsEthereumAddress()
  account!: string;

  @ApiPropertyOptional({ example: "NEW", enum: ClaimStatus, description: "Only claims in this status." })
  @IsOptional()
  @IsEnum(ClaimStatus)
  claimStatus?: ClaimStatus;
}

export class ClaimItemDto {
  @ApiProperty({ example: "ERC20", description: "Token type name (NATIVE, ERC20, ERC721, ...)." }) tokenType!: string;
  @ApiProperty({ example: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", description: "Token contract address (zero address for NATIVE)." })
  token!: string;
  @ApiProperty({ example: "0", description: "Token id, decimal string." }) tokenId!: string;
  @ApiProperty({ example: "5000000000000000000", description: "Amount in the token's smallest unit, decimal string." }) amount!: string;
}

/**
 * What an account can claim. From the indexer: a RAFFLE_PRIZE claim per winner position of a drawn round that pays a
 * share of the pot, a RAFFLE_ITEM claim per position that carries an escrowed item, and a RAFFLE_REFUND claim per
 * ticket of a refundable round. From the merchant: VOUCHER claims.
 */
export class ClaimDto {
  @ApiProperty({ example: 42, description: "Claim id." }) id!: number;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Creation time (ISO 8601 UTC)." }) createdAt!: string;
  @ApiProperty({ example: "2026-11-23T16:00:00.000Z", format: "date-time", description: "Last update time (ISO 8601 UTC)." }) updatedAt!: string;
  @ApiProperty({ example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc", description: "The account that can claim." }) account!: string;
  @ApiProperty({ example: 1, description: "The merchant the claim is with." }) merchantId!: number;
  @ApiProperty({ example: 31337, description: "The chain the claim is redeemed on: a voucher's Exchange, a prize's raffle." }) chainId!: number;
  @ApiProperty({ example: "VOUCHER", enum: ClaimType, description: "What kind of claim this is." }) claimType!: ClaimType;
  @ApiProperty({ example: "NEW", enum: ClaimStatus, description: "Whether the claim is still open, redeemed, expired, canceled or released." })
  claimStatus!: ClaimStatus;
  @ApiProperty({ type: [ClaimItemDto], description: "What the claim pays." }) items!: ClaimItemDto[];
  @ApiProperty({
    example: "2026-11-30T16:00:00.000Z",
    format: "date-time",
    nullable: true,
    type: String,
    description:
      "For a prize or an item: when the merchant may release it (or take the item back) if unclaimed. Null for a refund (it never expires).",
  })
  endTimestamp!: string | null;
  @ApiProperty({ example: null, nullable: true, type: Number, description: "For a prize or a refund: the raffle contract id." }) contractId!:
    number | null;
  @ApiProperty({ example: null, nullable: true, type: Number, description: "For a prize or a refund: the round id." }) roundId!: number | null;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: "For a prize: the winning ticket's token id; for a refund: the ticket's.",
  })
  tokenId!: string | null;
  @ApiProperty({
    example: "0x2c4d1f0e8b7a69584736251403f2e1d0c9b8a7f6e5d4c3b2a19080706050400a",
    nullable: true,
    type: String,
    description: "For a voucher: the 32-byte nonce (`params.nonce`).",
  })
  nonce!: string | null;
  @ApiProperty({
    example: "0xb77ba3b1295b073799f4599ea4d4c4c13ced07cadbbf80be8c69cb1ae8fe760102a1c8fa967d17c4e687ee55abcb2cd306a77afe5d21f2c48a16500a242d1d911b",
    nullable: true,
    type: String,
    description: "For a NEW voucher: the EIP-712 signature to pass to Exchange.claim; null once canceled.",
  })
  signature!: string | null;
  @ApiProperty({
    example: 1_795_795_200,
    nullable: true,
    type: Number,
    description: "For a voucher: on-chain expiry in seconds (`params.expiresAt`).",
  })
  expiresAt!: number | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: "The transaction that redeemed the claim, once REDEEMED." })
  redeemedTxHash!: string | null;
  @ApiProperty({
    type: "object",
    additionalProperties: true,
    example: {
      exchange: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      params: {
        externalId: "42",
        expiresAt: "1795795200",
        nonce: "0x2c4d1f0e8b7a69584736251403f2e1d0c9b8a7f6e5d4c3b2a19080706050400a",
        extra: "0x636c61696d000000000000000000000000000000000000000000000000000000",
        receiver: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        referrer: "0x0000000000000000000000000000000000000000",
      },
      items: [{ tokenType: 1, token: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", tokenId: "0", amount: "5000000000000000000" }],
    },
    description:
      "What the client passes on-chain. Prize or item: `raffle` address, on-chain `roundId`, `ticketId` and winner `position` (0 = first prize), for Raffle.claimPrizes([{roundId, ticketId}, ...]), which sends a position's share and its item together. Refund: `raffle` address, on-chain `roundId` and `ticketId`, for Raffle.refundTickets([{roundId, ticketId}, ...]). Voucher: `exchange` address and the exact `params` and `items` of Exchange.claim(params, items, signature).",
  })
  parameters!: Record<string, unknown>;
}

export class ClaimListDto {
  @ApiProperty({ type: [ClaimDto], description: "One page of claims." }) rows!: ClaimDto[];
  @ApiProperty({ example: 1, description: "Total matching claims, ignoring skip and take." }) count!: number;
}

export function toClaimDto(claim: ClaimEntity & { chainId: number }): ClaimDto {
  return {
    id: claim.id,
    chainId: claim.chainId,
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
