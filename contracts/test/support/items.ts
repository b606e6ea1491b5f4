import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, parseUnits } from "ethers";

import {
  TestCollectible__factory,
  TestItems1155__factory,
  TestToken__factory,
  TokenType,
  type AssetStruct,
  type TestCollectible,
  type TestItems1155,
  type TestToken,
} from "@raffle/chain";

import { approveExchange, buyTicket, deployWorld, endRound, startErc20Round, type RaffleWorld } from "./scenario";

export const POTION_ID = 7n;
export const POTIONS = 50n;
export const GEMS = parseUnits("1000", 18);

/** A raffle world whose merchant holds a sword (ERC721), potions (ERC1155) and gems (ERC20), approved to the raffle. */
export interface ItemWorld extends RaffleWorld {
  sword: TestCollectible;
  potions: TestItems1155;
  gems: TestToken;
  swordId: bigint;
  swordAsset: AssetStruct;
  potionAsset: AssetStruct;
  gemAsset: AssetStruct;
}

export async function deployItemWorld(config: Partial<{ commission: bigint; timeLagBeforeRelease: bigint }> = {}) {
  const world = await deployWorld(config);
  const { merchant } = world;
  const sword = await new TestCollectible__factory(merchant).deploy("Legendary Sword", "SWORD", merchant.address);
  const potions = await new TestItems1155__factory(merchant).deploy();
  const gems = await new TestToken__factory(merchant).deploy("Gems", "GEM", merchant.address);
  await (await sword.mint(merchant.address)).wait();
  await (await potions.mint(merchant.address, POTION_ID, POTIONS * 10n)).wait();
  await (await gems.mint(merchant.address, GEMS * 10n)).wait();
  await (await sword.setApprovalForAll(world.address, true)).wait();
  await (await potions.setApprovalForAll(world.address, true)).wait();
  await (await gems.approve(world.address, MaxUint256)).wait();
  const itemWorld: ItemWorld = {
    ...world,
    sword,
    potions,
    gems,
    swordId: 1n,
    swordAsset: erc721Item(await sword.getAddress(), 1n),
    potionAsset: erc1155Item(await potions.getAddress(), POTION_ID, POTIONS),
    gemAsset: erc20Item(await gems.getAddress(), GEMS),
  };
  return itemWorld;
}

export function erc721Item(token: string, tokenId: bigint): AssetStruct {
  return { tokenType: TokenType.ERC721, token, tokenId, amount: 1n };
}

export function erc1155Item(token: string, tokenId: bigint, amount: bigint): AssetStruct {
  return { tokenType: TokenType.ERC1155, token, tokenId, amount };
}

export function erc20Item(token: string, amount: bigint): AssetStruct {
  return { tokenType: TokenType.ERC20, token, tokenId: 0n, amount };
}

/** Sets the items rounds started from now on escrow, as `caller` (the merchant by default); positions count from 1. */
export async function setItems(world: RaffleWorld, items: [number, AssetStruct][], caller: HardhatEthersSigner = world.merchant) {
  await (await world.raffle.connect(caller).setItemPrizes(items.map(([position, asset]) => ({ position, asset })))).wait();
}

/**
 * Sword on the first prize (with the whole pot), potions on the second, gems on the third: a round of `buyers.length`
 * tickets (one each, in order) drawn with `word`. Returns the winning ticket ids and their holders, first prize first.
 */
export async function drawnItemRound(world: ItemWorld, buyers: HardhatEthersSigner[], word = 5n) {
  await setItems(world, [
    [1, world.swordAsset],
    [2, world.potionAsset],
    [3, world.gemAsset],
  ]);
  await approveExchange(world, buyers);
  const price = await startErc20Round(world);
  const ticketOwner = new Map<bigint, HardhatEthersSigner>();
  for (const buyer of buyers) ticketOwner.set(await buyTicket(world, buyer, price), buyer);
  const requestId = await endRound(world);
  await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
  const roundId = (await world.raffle.getCurrentRoundInfo()).roundId;
  const winners = (await world.raffle.getWinners(roundId)).map((winner) => ({
    ticketId: winner.ticketId,
    holder: ticketOwner.get(winner.ticketId)!,
    amount: winner.amount,
  }));
  return { roundId, price, winners };
}

/** Where each of round `roundId`'s items is, first prize first, as [position, status]. */
export async function itemStatuses(world: RaffleWorld, roundId: bigint): Promise<[number, number][]> {
  const [, items] = await world.raffle.getRoundItems(roundId);
  return items.map((item) => [Number(item.position), Number(item.status)]);
}

export const ItemStatus = { None: 0, Escrowed: 1, Claimed: 2, Returned: 3 } as const;
