import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { Type } from "class-transformer";
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, Matches, Max, Min, ValidateNested } from "class-validator";

import { OptionalChainId } from "../../common/ids";
import { IsAccountAddress, IsOmittable, IsTokenAddress } from "../../common/validators";

/** Decimal integers of at most 78 digits: uint256 range is checked by the service. */
const UINT_PATTERN = /^(0|[1-9]\d{0,77})$/;

export const MAX_CLAIM_ITEMS = 20;
export const DEFAULT_CLAIM_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_CLAIM_TTL_SECONDS = 30 * 24 * 3600;

export class ClaimItemBody {
  @ApiProperty({ example: "ERC20", enum: ["ERC20", "ERC721"], description: "ERC20 amounts and ERC721 tokens can be granted." })
  @IsIn(["ERC20", "ERC721"])
  tokenType!: "ERC20" | "ERC721";

  @ApiProperty({
    example: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    description: "Token contract the merchant opted in for with Exchange.setClaimSource; not the zero address.",
  })
  @IsTokenAddress()
  token!: string;

  @ApiProperty({ description: 'Token id, decimal string: "0" for ERC20; for ERC721 the id to transfer, or "0" to mint a new one.', example: "0" })
  @Matches(UINT_PATTERN, { message: "tokenId must be a non-negative decimal integer string" })
  tokenId!: string;

  @ApiProperty({ description: 'Amount in the smallest unit, decimal string; "1" for ERC721.', example: "1000000000000000000" })
  @Matches(UINT_PATTERN, { message: "amount must be a non-negative decimal integer string" })
  amount!: string;
}

/** A merchant grants items to an account; the account redeems them with Exchange.claim. */
export class CreateClaimBody {
  @ApiProperty({
    example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    description: "The account that may redeem the voucher (it must send the transaction). Not the zero address.",
  })
  @IsAccountAddress()
  account!: string;

  @ApiProperty({ type: [ClaimItemBody], description: `1 to ${MAX_CLAIM_ITEMS} items, delivered from the merchant's wallet.` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CLAIM_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => ClaimItemBody)
  items!: ClaimItemBody[];

  @OptionalChainId("The chain the voucher is redeemed on (its Exchange and EIP-712 domain). Required when the API serves several chains.", {
    fromQuery: false,
  })
  chainId?: number;

  @ApiPropertyOptional({
    example: 86_400,
    description: "Seconds the voucher stays valid.",
    minimum: 1,
    maximum: MAX_CLAIM_TTL_SECONDS,
    default: DEFAULT_CLAIM_TTL_SECONDS,
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_CLAIM_TTL_SECONDS)
  ttlSeconds?: number;
}
