import { TypedDataEncoder, type Signer } from "ethers";

import { PURCHASE_TYPES, exchangeDomain } from "./eip712";
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
export function signPurchaseVoucher(
  signer: Signer,
  chainId: bigint | number,
  exchange: string,
  voucher: PurchaseVoucher,
): Promise<string> {
  return signer.signTypedData(exchangeDomain(chainId, exchange), PURCHASE_TYPES, voucher);
}
