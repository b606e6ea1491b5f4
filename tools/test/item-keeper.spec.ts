import { Wallet } from "ethers";
import { DemoItem721__factory, DemoItems1155__factory, Raffle__factory, TokenType, assetFromChain, localDevPrivateKey } from "@raffle/chain";
import { startHardhatNode, type HardhatNode } from "@raffle/chain/testing";

import { ITEM_WALLET_INDEX, deployDemo, itemKeepers } from "../stack/local-stack";
import type { StackRaffle } from "../stack/stack-file";
import type { ItemKeeper } from "../stack/item-keeper";

/** `getRoundItems`' statuses (ItemStatus). */
const ESCROWED = 1n;
const RETURNED = 3n;

/**
 * The local stack's item raffle as `npm start` deploys it, rotated by the merchant as its worker does (the spec's
 * `endRound` then `startRound`, nothing else), with the stack's item keeper polled by hand in between.
 */
describe("the local stack's item raffle and its item keeper", () => {
  let node: HardhatNode;
  let itemRaffle: StackRaffle;
  let keeper: ItemKeeper;

  beforeAll(async () => {
    node = await startHardhatNode({ wallClock: true });
    const demo = await deployDemo(node.provider, { firstChain: true }, () => undefined);
    itemRaffle = demo.raffles.find((raffle) => raffle.kind === "ITEMS")!;
    [keeper] = itemKeepers([{ provider: node.provider, raffles: demo.raffles }], () => undefined);
  });

  afterAll(async () => {
    await keeper?.stop();
    await node?.stop();
  });

  const merchantRaffle = async () => Raffle__factory.connect(itemRaffle.raffle, await node.provider.getSigner(2));
  const swordOwner = (tokenId: bigint) => DemoItem721__factory.connect(itemRaffle.items!.sword, node.provider).ownerOf(tokenId);
  const nextSwordId = async () => (await (await merchantRaffle()).itemPrizes())[1][0]!.asset.tokenId;
  /** The worker's rotation: endRound, then startRound with the round's own assets (spec §1). */
  const rotate = async () => {
    const raffle = await merchantRaffle();
    await (await raffle.endRound()).wait();
    const info = await raffle.getCurrentRoundInfo();
    // ethers' read-only results cannot be encoded again: the assets are copied first.
    await (await raffle.startRound(assetFromChain(info.ticketAsset), assetFromChain(info.acceptedAsset), info.maxTicket)).wait();
    return (await raffle.getCurrentRoundInfo()).roundId;
  };

  it("escrows the first round's sword and potions from the item wallet, with their metadata on chain", async () => {
    const raffle = await merchantRaffle();
    const [merchant, items] = await raffle.getRoundItems(1n);
    expect(merchant).toBe(new Wallet(localDevPrivateKey(ITEM_WALLET_INDEX)).address);
    expect(merchant).toBe(itemRaffle.items!.wallet);
    expect(items.map((item) => [item.position, Number(item.asset.tokenType), item.asset.tokenId, item.asset.amount, item.status])).toEqual([
      [1n, TokenType.ERC721, 1n, 1n, ESCROWED],
      [2n, TokenType.ERC1155, 1n, 5n, ESCROWED],
    ]);
    expect(await swordOwner(1n)).toBe(itemRaffle.raffle);
    expect(await DemoItems1155__factory.connect(itemRaffle.items!.potions, node.provider).balanceOf(itemRaffle.raffle, 1n)).toBe(5n);
    // The rules: 70% and the sword to the first prize, 30% and the potions to the second; 2 tickets to be drawn.
    const rules = await raffle.roundRules();
    expect([[...rules.prizeShares], rules.minTickets]).toEqual([[7_000n, 3_000n], 2n]);
    // The merchant's own items, to choose from in the console.
    const demoMerchant = await (await node.provider.getSigner(2)).getAddress();
    expect([await swordOwner(2n), await swordOwner(3n)]).toEqual([demoMerchant, demoMerchant]);
    expect(await DemoItems1155__factory.connect(itemRaffle.items!.potions, node.provider).balanceOf(demoMerchant, 1n)).toBe(50n);
  });

  it("sets a sword for the next round, returns a closed round's items, and sets a returned sword again before minting", async () => {
    // Round 1 holds sword #1 (#2 and #3 are the merchant's own): the keeper mints #4 for round 2, so the worker's
    // plain startRound escrows it.
    await keeper.poll();
    expect(await nextSwordId()).toBe(4n);
    expect(keeper.swordsMinted).toBe(1);
    expect(await rotate()).toBe(2n);
    expect(await swordOwner(4n)).toBe(itemRaffle.raffle);

    // Round 1 closed without tickets: its items go back to the item wallet, and round 3 gets sword #1 back.
    await keeper.poll();
    const [, returned] = await (await merchantRaffle()).getRoundItems(1n);
    expect(returned.map((item) => item.status)).toEqual([RETURNED, RETURNED]);
    expect(await nextSwordId()).toBe(1n);
    expect(await swordOwner(1n)).toBe(itemRaffle.items!.wallet);
    expect(keeper.swordsMinted).toBe(1);
    expect(await rotate()).toBe(3n);
    expect(await swordOwner(1n)).toBe(itemRaffle.raffle);
    await keeper.poll();
    expect(await nextSwordId()).toBe(4n);
    expect(keeper.swordsMinted).toBe(1);
    expect(keeper.returnedRounds).toBe(2);
  });

  it("has nothing to do when a stranger returned a closed round's items first, and survives losing its admin role", async () => {
    const raffle = await merchantRaffle();
    const stranger = new Wallet(localDevPrivateKey(15), node.provider);
    // Round 3 holds sword #1; round 4 will hold #4 (set at the last poll). A stranger sends round 3's items home.
    expect(await rotate()).toBe(4n);
    await (await raffle.connect(stranger).returnItems(3n)).wait();
    const returnedBefore = keeper.returnedRounds;
    await keeper.poll();
    expect(keeper.returnedRounds).toBe(returnedBefore);
    expect(await nextSwordId()).toBe(1n);

    // The merchant takes the item wallet's role away: the keeper's setItemPrizes is refused and reported, nothing else
    // breaks (it still returns a closed round's items, as anyone may), and it sets the sword once the role is back.
    const failures: string[] = [];
    const [lonely] = itemKeepers([{ provider: node.provider, raffles: [itemRaffle] }], (message) => failures.push(message));
    await (await raffle.revokeRole(await raffle.DEFAULT_ADMIN_ROLE(), itemRaffle.items!.wallet)).wait();
    await (await raffle.endRound()).wait();
    const info = await raffle.getCurrentRoundInfo();
    await (await raffle.startRound(assetFromChain(info.ticketAsset), assetFromChain(info.acceptedAsset), info.maxTicket)).wait();
    await lonely.poll();
    expect(failures).toContain("item keeper step failed; will retry");
    await (await raffle.grantRole(await raffle.DEFAULT_ADMIN_ROLE(), itemRaffle.items!.wallet)).wait();
    await lonely.poll();
    expect(await swordOwner(await nextSwordId())).toBe(itemRaffle.items!.wallet);
  });

  it("leaves the items alone once the merchant sets its own", async () => {
    const raffle = await merchantRaffle();
    await (await raffle.setItemPrizes([])).wait();
    await rotate();
    await keeper.poll();
    const [merchant, items] = await raffle.itemPrizes();
    expect(merchant).toBe(await (await node.provider.getSigner(2)).getAddress());
    expect(items).toEqual([]);
    // The round just closed, which held sword #1, still sent it home to the item wallet it came from.
    expect(await swordOwner(1n)).toBe(itemRaffle.items!.wallet);
  });
});
