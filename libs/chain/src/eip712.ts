import { encodeBytes32String, type TypedDataDomain, type TypedDataField } from "ethers";

/** EIP-712 domain name and version of the Exchange (architecture §3). */
export const EXCHANGE_DOMAIN_NAME = "EXCHANGE";
export const EXCHANGE_DOMAIN_VERSION = "1.0.0";

export function exchangeDomain(chainId: bigint | number, exchangeAddress: string): TypedDataDomain {
  return {
    name: EXCHANGE_DOMAIN_NAME,
    version: EXCHANGE_DOMAIN_VERSION,
    chainId: BigInt(chainId),
    verifyingContract: exchangeAddress,
  };
}

/**
 * Typed-data types of the purchase voucher. The primary type is literally named `EIP712`, and `tokenType` is
 * uint256 here although the ABI uses uint8: merchant tooling signs exactly this.
 */
export const PURCHASE_PRIMARY_TYPE = "EIP712";
export const PURCHASE_TYPES: Record<string, TypedDataField[]> = {
  EIP712: [
    { name: "account", type: "address" },
    { name: "params", type: "Params" },
    { name: "item", type: "Asset" },
    { name: "price", type: "Asset" },
  ],
  Asset: [
    { name: "tokenType", type: "uint256" },
    { name: "token", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "amount", type: "uint256" },
  ],
  Params: [
    { name: "externalId", type: "uint256" },
    { name: "expiresAt", type: "uint256" },
    { name: "nonce", type: "bytes32" },
    { name: "extra", type: "bytes32" },
    { name: "receiver", type: "address" },
    { name: "referrer", type: "address" },
  ],
};

/** The encoded type string of the voucher, as hashed into PURCHASE_TYPEHASH on-chain. */
export const PURCHASE_TYPE_STRING =
  "EIP712(address account,Params params,Asset item,Asset price)" +
  "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)" +
  "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)";

/** Typed-data types of a claim voucher: a grant of items that `account` redeems with Exchange.claim. */
export const CLAIM_PRIMARY_TYPE = "Claim";
export const CLAIM_TYPES: Record<string, TypedDataField[]> = {
  Claim: [
    { name: "account", type: "address" },
    { name: "params", type: "Params" },
    { name: "items", type: "Asset[]" },
  ],
  Asset: PURCHASE_TYPES.Asset,
  Params: PURCHASE_TYPES.Params,
};

export const CLAIM_TYPE_STRING =
  "Claim(address account,Params params,Asset[] items)" +
  "Asset(uint256 tokenType,address token,uint256 tokenId,uint256 amount)" +
  "Params(uint256 externalId,uint256 expiresAt,bytes32 nonce,bytes32 extra,address receiver,address referrer)";

/** `params.extra` of a claim voucher: the short string "claim" as bytes32. */
export const CLAIM_EXTRA = encodeBytes32String("claim");

/** `params.extra` of a raffle purchase: the short string "0x" as bytes32. */
export const RAFFLE_PURCHASE_EXTRA = encodeBytes32String("0x");
