import type { AssetStruct, PurchaseParamsStruct } from "./purchase-args";

/** `Params` as the API answers it: uint256 values as decimal strings (JSON has no bigint). */
export interface PurchaseParamsJson {
  externalId: string;
  expiresAt: string;
  nonce: string;
  extra: string;
  receiver: string;
  referrer: string;
}

/** `Asset` as the API answers it: `tokenType` stays the enum index, uint256 values become decimal strings. */
export interface AssetJson {
  tokenType: number;
  token: string;
  tokenId: string;
  amount: string;
}

export function paramsToJson(params: PurchaseParamsStruct): PurchaseParamsJson {
  return {
    externalId: params.externalId.toString(),
    expiresAt: params.expiresAt.toString(),
    nonce: params.nonce,
    extra: params.extra,
    receiver: params.receiver,
    referrer: params.referrer,
  };
}

export function assetToJson(asset: AssetStruct): AssetJson {
  return { tokenType: asset.tokenType, token: asset.token, tokenId: asset.tokenId.toString(), amount: asset.amount.toString() };
}

export function assetFromJson(asset: AssetJson): AssetStruct {
  return { tokenType: Number(asset.tokenType), token: asset.token, tokenId: BigInt(asset.tokenId), amount: BigInt(asset.amount) };
}
