import { useQuery } from "@tanstack/react-query";
import { erc20Abi, formatUnits, parseAbi, type Address } from "viem";
import { useConfig, type Config } from "wagmi";
import { readContract } from "wagmi/actions";

import {
  ITEM_ERC1155_ABI as ERC1155_LINES,
  ITEM_ERC721_ABI as ERC721_LINES,
  ITEM_PRIZES_ABI as PRIZES_LINES,
} from "../../../../libs/chain/src/generated/app-abis";
import { shortAddress } from "./format";
import { fallbackItemName, loadItemMetadata, substituteTokenId, type ItemMetadata } from "./item-metadata";

/**
 * Item prizes read from the chain itself (the raffle's `itemPrizes()` and `getRoundItems(roundId)`, the item token's
 * `tokenURI` or `uri`), through the chain's configured RPC: no wallet and no API field needed.
 */
export const ITEM_PRIZES_ABI = parseAbi(PRIZES_LINES);
export const ITEM_ERC721_ABI = parseAbi(ERC721_LINES);
export const ITEM_ERC1155_ABI = parseAbi(ERC1155_LINES);

export type ItemKind = "ERC20" | "ERC721" | "ERC1155";
/** libs/chain's TokenType numbers (NATIVE=0, ERC20=1, ERC721=2, ERC998=3, ERC1155=4) of the kinds an item may be. */
export const ITEM_TOKEN_TYPE: Record<ItemKind, number> = { ERC20: 1, ERC721: 2, ERC1155: 4 };
const KIND_OF_TOKEN_TYPE: Record<number, ItemKind> = { 1: "ERC20", 2: "ERC721", 4: "ERC1155" };
/** IItemPrizes' ItemStatus, in its order. */
const STATUS_NAMES = ["None", "Escrowed", "Claimed", "Returned"] as const;
export type ItemStatus = (typeof STATUS_NAMES)[number];

export interface PrizeItem {
  /** Winner position, from 1 (first prize). */
  position: number;
  kind: ItemKind;
  token: Address;
  tokenId: bigint;
  amount: bigint;
  /** Where a round's item is now; absent for the next round's items, which are not escrowed yet. */
  status?: ItemStatus;
}

export interface ItemSet {
  /** The merchant the items are pulled from and go back to. */
  merchant: Address;
  items: PrizeItem[];
}

function toPrizeItem(item: {
  position: bigint;
  asset: { tokenType: number; token: Address; tokenId: bigint; amount: bigint };
  status?: number;
}): PrizeItem {
  return {
    position: Number(item.position),
    kind: KIND_OF_TOKEN_TYPE[item.asset.tokenType] ?? "ERC20",
    token: item.asset.token,
    tokenId: item.asset.tokenId,
    amount: item.asset.amount,
    ...(item.status === undefined ? {} : { status: STATUS_NAMES[item.status] ?? "None" }),
  };
}

/** A round's escrowed items and where each is now. */
export async function readRoundItems(config: Config, chainId: number, raffle: Address, roundId: bigint): Promise<ItemSet> {
  const [merchant, items] = await readContract(config, {
    chainId,
    address: raffle,
    abi: ITEM_PRIZES_ABI,
    functionName: "getRoundItems",
    args: [roundId],
  });
  return { merchant, items: items.map(toPrizeItem) };
}

/** The items the raffle's next round will escrow when it starts. */
export async function readNextItems(config: Config, chainId: number, raffle: Address): Promise<ItemSet> {
  const [merchant, items] = await readContract(config, { chainId, address: raffle, abi: ITEM_PRIZES_ABI, functionName: "itemPrizes" });
  return { merchant, items: items.map(toPrizeItem) };
}

/** A round's items, read again every few seconds while the page is open (a claim or a return changes their status). */
export function useRoundItems(chainId: number, raffle: string, roundId: string | null | undefined) {
  const config = useConfig();
  return useQuery({
    queryKey: ["round-items", chainId, raffle, roundId],
    queryFn: () => readRoundItems(config, chainId, raffle as Address, BigInt(roundId!)),
    enabled: roundId !== null && roundId !== undefined,
    refetchInterval: 5_000,
  });
}

export interface ItemLabel {
  /** What the page says: "Legendary Sword", "50 × Potion", "1000 GEM", or the plain fallback. */
  text: string;
  /** The item's own name (for the image's alt text), or the fallback. */
  name: string;
  /** A data:image/ or https: URL, or null. */
  image: string | null;
}

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch {
    return null;
  }
}

/** An ERC20 symbol as plain text (a token's own string, so as hostile as its metadata): letters, digits, a few marks. */
function plainSymbol(symbol: string | null): string | null {
  const text = symbol
    ?.replace(/[^\p{L}\p{N} .$_-]/gu, "")
    .trim()
    .slice(0, 16);
  return text ? text : null;
}

/** What the page shows for an item: the name and image from its metadata, or the plain fallback when there is none. */
export async function describeItem(config: Config, chainId: number, item: PrizeItem): Promise<ItemLabel> {
  const fallback = fallbackItemName(item.token, item.tokenId);
  if (item.kind === "ERC20") {
    const [symbol, decimals] = await Promise.all([
      orNull(readContract(config, { chainId, address: item.token, abi: erc20Abi, functionName: "symbol" })),
      orNull(readContract(config, { chainId, address: item.token, abi: erc20Abi, functionName: "decimals" })),
    ]);
    const shown = plainSymbol(symbol);
    const amount = decimals !== null && decimals <= 77 ? formatUnits(item.amount, decimals) : item.amount.toString();
    const text = shown ? `${amount} ${shown}` : `${amount} of the token ${shortAddress(item.token)}`;
    return { text, name: text, image: null };
  }
  let metadata: ItemMetadata;
  if (item.kind === "ERC721") {
    const uri = await orNull(
      readContract(config, { chainId, address: item.token, abi: ITEM_ERC721_ABI, functionName: "tokenURI", args: [item.tokenId] }),
    );
    metadata = await loadItemMetadata(uri);
  } else {
    const uri = await orNull(
      readContract(config, { chainId, address: item.token, abi: ITEM_ERC1155_ABI, functionName: "uri", args: [item.tokenId] }),
    );
    metadata = await loadItemMetadata(uri === null ? null : substituteTokenId(uri, item.tokenId));
  }
  const name = metadata.name ?? fallback;
  const text = item.kind === "ERC1155" && item.amount !== 1n ? `${item.amount} × ${name}` : name;
  return { text, name, image: metadata.image };
}

/** The query of an item's label, read once per item (metadata does not change under a page). */
export function itemLabelQuery(config: Config, chainId: number, item: PrizeItem) {
  return {
    queryKey: ["item-label", chainId, item.kind, item.token, item.tokenId.toString(), item.amount.toString()],
    queryFn: () => describeItem(config, chainId, item),
    staleTime: Infinity,
    retry: false,
  } as const;
}

export function useItemLabel(chainId: number, item: PrizeItem) {
  return useQuery(itemLabelQuery(useConfig(), chainId, item));
}

/** "held in escrow by the raffle", …: where a round's item is, in words. */
export const ITEM_STATUS_TEXT: Record<ItemStatus, string> = {
  None: "not escrowed",
  Escrowed: "held in escrow by the raffle",
  Claimed: "claimed by the winner",
  Returned: "returned to the organiser",
};
