import { BaseError, ContractFunctionRevertedError, erc20Abi, formatUnits, type Address, type Hex } from "viem";
import type { Config } from "wagmi";
import { getBytecode, readContract, writeContract } from "wagmi/actions";

import { prizeName } from "../lib/draw-check";
import { ITEM_ERC1155_ABI, ITEM_ERC721_ABI, type ItemKind, type PrizeItem } from "../lib/items";
import { explain } from "../lib/messages";

/** ERC-165 interface ids of ERC721 and ERC1155, which a token's `supportsInterface` answers. */
const INTERFACE_ID = { ERC721: "0x80ac58cd", ERC1155: "0xd9b67a26" } as const;

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch {
    return null;
  }
}

/**
 * What kind of item token lives at `token`: ERC721 or ERC1155 by ERC-165, else ERC20 when it answers `decimals`; a
 * sentence when no contract, or none of the three, answers there.
 */
export async function detectItemKind(config: Config, chainId: number, token: Address): Promise<ItemKind | string> {
  const code = await orNull(getBytecode(config, { chainId, address: token }));
  if (!code || code === "0x") return "No contract lives at this address on this network.";
  const supports = (id: Hex) =>
    orNull(readContract(config, { chainId, address: token, abi: ITEM_ERC721_ABI, functionName: "supportsInterface", args: [id] }));
  if (await supports(INTERFACE_ID.ERC721)) return "ERC721";
  if (await supports(INTERFACE_ID.ERC1155)) return "ERC1155";
  if ((await orNull(readContract(config, { chainId, address: token, abi: erc20Abi, functionName: "decimals" }))) !== null) return "ERC20";
  return "This contract is not an ERC721, ERC1155 or ERC20 token: choose its kind only if you are sure.";
}

/** An ERC20 item's decimals (0 when the token does not say). */
export async function decimalsOf(config: Config, chainId: number, token: Address): Promise<number> {
  return (await orNull(readContract(config, { chainId, address: token, abi: erc20Abi, functionName: "decimals" }))) ?? 0;
}

/**
 * Why the merchant's wallet cannot hand this item over when a round starts (not owned, too few), or null. `raffle`,
 * when given, names the raffle whose escrow may hold the item now. `holderName` starts the sentences: the connected
 * wallet's "Your wallet", or another admin's address when that admin chose the items (the escrow pulls from it).
 */
export async function holdingProblem(
  config: Config,
  chainId: number,
  merchant: Address,
  item: PrizeItem,
  raffle?: Address,
  holderName = "Your wallet",
): Promise<string | null> {
  const { token, tokenId, amount } = item;
  if (item.kind === "ERC721") {
    const owner = await orNull(readContract(config, { chainId, address: token, abi: ITEM_ERC721_ABI, functionName: "ownerOf", args: [tokenId] }));
    if (owner === null) return `Token #${tokenId} does not exist in this collection.`;
    if (owner.toLowerCase() === merchant.toLowerCase()) return null;
    if (owner.toLowerCase() === raffle?.toLowerCase())
      return `This raffle holds token #${tokenId} in escrow for a round: it comes back to ${holderName === "Your wallet" ? "your wallet" : "that wallet"} when that round's items are returned.`;
    return `${holderName} does not hold token #${tokenId} of this collection: ${owner} does.`;
  }
  if (item.kind === "ERC1155") {
    const held = await orNull(
      readContract(config, { chainId, address: token, abi: ITEM_ERC1155_ABI, functionName: "balanceOf", args: [merchant, tokenId] }),
    );
    if (held === null) return "This token did not say how many the wallet holds.";
    return held >= amount ? null : `${holderName} holds ${held} of item #${tokenId}, fewer than the ${amount} chosen.`;
  }
  const held = await orNull(readContract(config, { chainId, address: token, abi: erc20Abi, functionName: "balanceOf", args: [merchant] }));
  if (held === null) return "This token did not say how much the wallet holds.";
  const decimals = await decimalsOf(config, chainId, token);
  return held >= amount
    ? null
    : `${holderName} holds ${formatUnits(held, decimals)} of this token, less than the ${formatUnits(amount, decimals)} chosen.`;
}

/** The ERC20 amount the raffle must be allowed to pull per token: every ERC20 item of that token, added up. */
function erc20Total(items: PrizeItem[], token: Address): bigint {
  return items
    .filter((item) => item.kind === "ERC20" && item.token.toLowerCase() === token.toLowerCase())
    .reduce((sum, item) => sum + item.amount, 0n);
}

/** Whether the raffle may already pull this item from the merchant when a round starts. */
export async function isApproved(
  config: Config,
  chainId: number,
  merchant: Address,
  raffle: Address,
  item: PrizeItem,
  all: PrizeItem[],
): Promise<boolean> {
  const { token } = item;
  if (item.kind === "ERC20") {
    const allowance = await orNull(
      readContract(config, { chainId, address: token, abi: erc20Abi, functionName: "allowance", args: [merchant, raffle] }),
    );
    return allowance !== null && allowance >= erc20Total(all, token);
  }
  const abi = item.kind === "ERC721" ? ITEM_ERC721_ABI : ITEM_ERC1155_ABI;
  if (await orNull(readContract(config, { chainId, address: token, abi, functionName: "isApprovedForAll", args: [merchant, raffle] }))) return true;
  if (item.kind !== "ERC721") return false;
  const approved = await orNull(
    readContract(config, { chainId, address: token, abi: ITEM_ERC721_ABI, functionName: "getApproved", args: [item.tokenId] }),
  );
  return approved?.toLowerCase() === raffle.toLowerCase();
}

/**
 * The approval transaction for an item: ERC721 and ERC1155 approve the raffle for the collection once
 * (`setApprovalForAll`, as every marketplace asks); ERC20 approves exactly what its items pull, never an unlimited amount.
 */
export function sendApproval(config: Config, chainId: number, raffle: Address, item: PrizeItem, all: PrizeItem[]): Promise<Hex> {
  if (item.kind === "ERC20") {
    return writeContract(config, {
      chainId,
      address: item.token,
      abi: erc20Abi,
      functionName: "approve",
      args: [raffle, erc20Total(all, item.token)],
    });
  }
  const abi = item.kind === "ERC721" ? ITEM_ERC721_ABI : ITEM_ERC1155_ABI;
  return writeContract(config, { chainId, address: item.token, abi, functionName: "setApprovalForAll", args: [raffle, true] });
}

/** The state of one item the merchant offers: whether the wallet holds it and whether the raffle may pull it. */
export interface ItemCheck {
  problem: string | null;
  approved: boolean;
}

export async function checkItems(
  config: Config,
  chainId: number,
  merchant: Address,
  raffle: Address,
  items: PrizeItem[],
  holderName?: string,
): Promise<ItemCheck[]> {
  return Promise.all(
    items.map(async (item) => ({
      problem: await holdingProblem(config, chainId, merchant, item, raffle, holderName),
      approved: await isApproved(config, chainId, merchant, raffle, item, items),
    })),
  );
}

/** The item calls' refusals, as sentences; anything else as the console says it elsewhere. */
export function explainItemError(error: unknown): string {
  const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
  if (reverted instanceof ContractFunctionRevertedError) {
    const { errorName, args } = reverted.data ?? {};
    if (errorName === "ItemNotEscrowed") {
      const position = Number(args?.[0] ?? 1);
      return `The ${prizeName(position - 1)}'s item could not be taken into escrow: your wallet must hold it and have approved the raffle (see Item prizes). The round did not start.`;
    }
    if (errorName === "InvalidItemPrize") {
      return `Item ${Number(args?.[0] ?? 0) + 1} of the list is not a valid prize: one item per position from 1 to 20, an ERC721 of amount 1, an amount above 0, and not this raffle's own tickets.`;
    }
    if (errorName === "UnexpectedRoundStatus") return "This round's items cannot be returned now: the round is still selling or being drawn.";
  }
  return explain(error).replace(" Nothing was charged; please try again.", " Please try again.");
}
