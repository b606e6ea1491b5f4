import type { AssetStruct } from "./purchase-args";

/**
 * A plain, writable copy of an `Asset` read from the chain. ethers returns structs as read-only `Result`s that it
 * cannot encode again, so values read with `getCurrentRoundInfo` must pass through this before `startRound`.
 */
export function assetFromChain(asset: { tokenType: bigint | number; token: string; tokenId: bigint; amount: bigint }): AssetStruct {
  return { tokenType: Number(asset.tokenType), token: asset.token, tokenId: asset.tokenId, amount: asset.amount };
}
