import { TypedDataEncoder, type Signer } from "ethers";

import { CLAIM_TYPES, PURCHASE_TYPES, exchangeDomain } from "./eip712";
import type { AssetStruct, PurchaseParamsStruct } from "./purchase-args";

/** The signed content of a purchase voucher. `account` is the buyer, who must also send the transaction. */
export interface PurchaseVoucher {
  account: string;
  params: PurchaseParamsStruct;
  item: AssetStruct;
  price: AssetStruct;
}

/** EIP-712 digest of a voucher with ethers' reference encoder. */
export function purchaseVoucherDigest(chainId: bigint | number, exchange: string, voucher: PurchaseVoucher): string {
  return TypedDataEncoder.hash(exchangeDomain(chainId, exchange), PURCHASE_TYPES, voucher);
}

/** Signs a voucher the standard (slow, reference) way. */
export function signPurchaseVoucher(signer: Signer, chainId: bigint | number, exchange: string, voucher: PurchaseVoucher): Promise<string> {
  return signer.signTypedData(exchangeDomain(chainId, exchange), PURCHASE_TYPES, voucher);
}

/** The signed content of a claim voucher: `items` go from `params.receiver` (the merchant) to `account`. */
export interface ClaimVoucher {
  account: string;
  params: PurchaseParamsStruct;
  items: AssetStruct[];
}

/** Signs a claim voucher (low volume: the standard encoder is fast enough). */
export function signClaimVoucher(signer: Signer, chainId: bigint | number, exchange: string, voucher: ClaimVoucher): Promise<string> {
  return signer.signTypedData(exchangeDomain(chainId, exchange), CLAIM_TYPES, voucher);
}
