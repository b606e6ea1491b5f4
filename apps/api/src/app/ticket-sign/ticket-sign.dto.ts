import { ApiProperty, ApiPropertyOptional } from "@nestjs/swagger";
import { isAddressText } from "@raffle/chain";
import { IsInt, Max, Min } from "class-validator";

import { MAX_STORED_INTEGER as MAX_CONTRACT_ID } from "../../common/ids";
import { MAX_TICKETS_PER_PURCHASE } from "./round-pricing";
import { FastAccepts } from "../../common/validation";
import { IsAccountAddress, IsEthereumAddress, IsOmittable, isAccountText } from "../../common/validators";

const SIGN_TICKET_FIELDS = new Set(["account", "referrer", "contractId", "quantity"]);

/** The sign route is the hot one: its well-formed bodies skip class-validator (see FastAccepts). */
export function acceptsSignTicketBody(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value)) if (!SIGN_TICKET_FIELDS.has(key)) return false;
  const { account, referrer, contractId, quantity } = value as Record<string, unknown>;
  return (
    isAccountText(account) &&
    (referrer === undefined || isAddressText(referrer)) &&
    (quantity === undefined || (Number.isInteger(quantity) && (quantity as number) >= 1 && (quantity as number) <= MAX_TICKETS_PER_PURCHASE)) &&
    Number.isInteger(contractId) &&
    (contractId as number) >= 1 &&
    (contractId as number) <= MAX_CONTRACT_ID
  );
}

@FastAccepts(acceptsSignTicketBody)
export class SignTicketBody {
  @ApiProperty({
    description: "Buyer account: the only address that can use the voucher. Not the zero address.",
    example: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  })
  @IsAccountAddress()
  account!: string;

  @ApiPropertyOptional({
    description: "Referrer account; the zero address when omitted. The purchase must pass the same value.",
    example: "0x0000000000000000000000000000000000000000",
  })
  @IsOmittable()
  @IsEthereumAddress()
  referrer?: string;

  @ApiProperty({ description: "Id of the raffle contract.", example: 3 })
  @IsInt()
  @Min(1)
  @Max(MAX_CONTRACT_ID)
  contractId!: number;

  @ApiPropertyOptional({
    description:
      "Tickets to buy in one purchase, 1 to 100 (the contract's MAX_TICKETS_PER_PURCHASE); 1 when omitted. `item.amount` is the quantity and " +
      "`price` the round's price for it: the price per ticket of the round's largest bundle not above the quantity, else the round's price.",
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

export class AssetDto {
  @ApiProperty({ description: "TokenType index: NATIVE=0, ERC20=1, ERC721=2, ERC998=3, ERC1155=4.", example: 2 })
  tokenType!: number;

  @ApiProperty({ example: "0xB7A5bd0345EF1Cc5E66bf61BdeC17D2461fBd968", description: "Token contract address (zero address for NATIVE)." })
  token!: string;

  @ApiProperty({ description: "Token id, decimal string.", example: "0" })
  tokenId!: string;

  @ApiProperty({ description: "Amount in the token's smallest unit, decimal string.", example: "1" })
  amount!: string;
}

export class PurchaseParamsDto {
  @ApiProperty({ example: "7", description: "The round id, decimal string." }) externalId!: string;
  @ApiProperty({ example: "1795450200", description: "Expiry in seconds since the epoch, decimal string." }) expiresAt!: string;
  @ApiProperty({ example: "0x2c4d1f0e8b7a69584736251403f2e1d0c9b8a7f6e5d4c3b2a19080706050400a", description: "32-byte nonce, 0x-prefixed hex." })
  nonce!: string;
  @ApiProperty({ example: "0x3078000000000000000000000000000000000000000000000000000000000000", description: 'bytes32 of the short string "0x".' })
  extra!: string;
  @ApiProperty({ example: "0xa16E02E87b7454126E5E10d957A927A7F5B5d2be", description: "The raffle contract address." }) receiver!: string;
  @ApiProperty({ example: "0x0000000000000000000000000000000000000000", description: "The referrer address (zero when none)." }) referrer!: string;
}

/** Spec 2.8 plus the ready-made purchase arguments. */
export class TicketSignatureDto {
  @ApiProperty({
    example: "0x2c4d1f0e8b7a69584736251403f2e1d0c9b8a7f6e5d4c3b2a19080706050400a",
    description: "32-byte value, 0x-prefixed hex: `params.nonce`.",
  })
  nonce!: string;

  @ApiProperty({
    example: "0xb77ba3b1295b073799f4599ea4d4c4c13ced07cadbbf80be8c69cb1ae8fe760102a1c8fa967d17c4e687ee55abcb2cd306a77afe5d21f2c48a16500a242d1d911b",
    description: "EIP-712 signature, 0x-prefixed hex (65 bytes).",
  })
  signature!: string;

  @ApiProperty({ description: "Seconds-based on-chain expiry: `params.expiresAt`. Never 0.", example: 1_900_000_000 })
  expiresAt!: number;

  @ApiProperty({ type: PurchaseParamsDto, description: "The exact `params` argument of purchaseRaffle." })
  params!: PurchaseParamsDto;

  @ApiProperty({ type: AssetDto, description: "The exact `item` argument: the ticket contract, `amount` = the quantity." })
  item!: AssetDto;

  @ApiProperty({ type: AssetDto, description: "The exact `price` argument: the round's price for the quantity (the contract's `priceOf`)." })
  price!: AssetDto;

  @ApiProperty({ example: "0", description: "Native value to send with the transaction, wei as a decimal string." })
  value!: string;
}
