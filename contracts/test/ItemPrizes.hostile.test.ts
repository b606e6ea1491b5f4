import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";

import {
  FeeCharging1155__factory,
  ItemWinnerWallet__factory,
  PausableItem20__factory,
  PausableItem721__factory,
  ReentrantItem721__factory,
} from "@raffle/chain";

import { ONE_DAY } from "./support/fixtures";
import { RoundStatus, approveExchange, buyTicket, claimPrizes, claimPrizesCall, endRound, startErc20Round } from "./support/scenario";
import {
  ItemStatus,
  POTIONS,
  POTION_ID,
  deployItemWorld,
  drawnItemRound,
  erc1155Item,
  erc20Item,
  erc721Item,
  itemStatuses,
  setItems,
  type ItemWorld,
} from "./support/items";

const OnItem = { Accept: 0, Refuse: 1, Reenter: 2, ReenterAndSwallow: 3 } as const;

async function itemWorldFixture() {
  return deployItemWorld();
}

/** The drawn round of `drawnItemRound` (sword, potions, gems) with a contract wallet holding the first prize's ticket. */
async function walletWinnerFixture() {
  const world = await deployItemWorld();
  const [alice, bob, carol, dave] = world.players;
  const drawn = await drawnItemRound(world, [alice!, bob!, carol!, dave!]);
  const first = drawn.winners[0]!;
  const wallet = await new ItemWinnerWallet__factory(first.holder).deploy(world.ticketAddress);
  await (await world.ticket.connect(first.holder).transferFrom(first.holder.address, await wallet.getAddress(), first.ticketId)).wait();
  return { world, wallet, ...drawn };
}

function claimData(world: ItemWorld, roundId: bigint, ticketId: bigint) {
  return claimPrizesCall(world, roundId, ticketId);
}

describe("Item prizes: hostile items and winners", () => {
  describe("a winner's contract wallet", () => {
    it("that refuses the ERC721 still gets its share; the item stays claimable and blocks no other winner", async () => {
      const { world, wallet, roundId, winners } = await loadFixture(walletWinnerFixture);
      const [first, second] = winners;
      await (await wallet.setOnItem(OnItem.Refuse, world.address, "0x")).wait();
      const walletAddress = await wallet.getAddress();
      const shareBefore = await world.token.balanceOf(walletAddress);
      await expect(wallet.execute(world.address, claimData(world, roundId, first!.ticketId)))
        .to.emit(world.raffle, "ItemTransferFailed")
        .and.to.emit(world.raffle, "PrizeClaimed");
      expect((await world.token.balanceOf(walletAddress)) - shareBefore).to.equal(first!.amount - first!.amount / 10n);
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
      expect((await itemStatuses(world, roundId))[0]).to.deep.equal([1, ItemStatus.Escrowed]);
      await (await claimPrizes(world, second!.holder, [roundId, second!.ticketId])).wait();
      expect(await world.potions.balanceOf(second!.holder.address, POTION_ID)).to.equal(POTIONS);
      // The wallet accepts later: the same ticket claims the item, and only the item.
      await (await wallet.setOnItem(OnItem.Accept, world.address, "0x")).wait();
      await expect(wallet.execute(world.address, claimData(world, roundId, first!.ticketId)))
        .to.emit(world.raffle, "ItemClaimed")
        .and.not.to.emit(world.raffle, "PrizeClaimed");
      expect(await world.sword.ownerOf(world.swordId)).to.equal(walletAddress);
      await expect(wallet.execute(world.address, claimData(world, roundId, first!.ticketId))).to.be.revertedWithCustomError(
        world.raffle,
        "NoPrizeToClaim",
      );
    });

    it("that never accepts leaves its item to the merchant after the release period", async () => {
      const { world, wallet, roundId, winners } = await loadFixture(walletWinnerFixture);
      await (await wallet.setOnItem(OnItem.Refuse, world.address, "0x")).wait();
      await (await wallet.execute(world.address, claimData(world, roundId, winners[0]!.ticketId))).wait();
      await time.increase(ONE_DAY);
      await (await world.raffle.connect(world.players[7]).returnItems(roundId)).wait();
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.merchant.address);
      await expect(wallet.execute(world.address, claimData(world, roundId, winners[0]!.ticketId))).to.be.revertedWithCustomError(
        world.raffle,
        "NoPrizeToClaim",
      );
    });

    it("that re-enters claimPrizes from onERC721Received is stopped by the guard: refused, or swallowed and paid once", async () => {
      const { world, wallet, roundId, winners } = await loadFixture(walletWinnerFixture);
      const first = winners[0]!;
      const data = claimData(world, roundId, first.ticketId);
      await (await wallet.setOnItem(OnItem.Reenter, world.address, data)).wait();
      await expect(wallet.execute(world.address, data)).to.emit(world.raffle, "ItemTransferFailed");
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
      await (await wallet.setOnItem(OnItem.ReenterAndSwallow, world.address, data)).wait();
      await expect(wallet.execute(world.address, data)).to.emit(world.raffle, "ItemClaimed");
      expect(await world.sword.ownerOf(world.swordId)).to.equal(await wallet.getAddress());
      expect(await wallet.reentrySucceeded()).to.equal(false);
      expect((await wallet.lastFailure()).slice(0, 10)).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
    });

    it("that re-enters returnItems from onERC1155Received cannot send the items home early", async () => {
      const world = await loadFixture(itemWorldFixture);
      const [alice, bob, carol, dave] = world.players;
      const drawn = await drawnItemRound(world, [alice!, bob!, carol!, dave!]);
      const second = drawn.winners[1]!;
      const wallet = await new ItemWinnerWallet__factory(second.holder).deploy(world.ticketAddress);
      await (await world.ticket.connect(second.holder).transferFrom(second.holder.address, await wallet.getAddress(), second.ticketId)).wait();
      await (
        await wallet.setOnItem(OnItem.ReenterAndSwallow, world.address, world.raffle.interface.encodeFunctionData("returnItems", [drawn.roundId]))
      ).wait();
      await (await wallet.execute(world.address, claimData(world, drawn.roundId, second.ticketId))).wait();
      expect(await world.potions.balanceOf(await wallet.getAddress(), POTION_ID)).to.equal(POTIONS);
      expect(await wallet.reentrySucceeded()).to.equal(false);
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
    });
  });

  describe("hostile item tokens", () => {
    it("refuses at escrow an ERC1155 that delivers less than sent (a fee), with ItemNotEscrowed carrying ItemAmountMismatch", async () => {
      const world = await loadFixture(itemWorldFixture);
      const feeToken = await new FeeCharging1155__factory(world.merchant).deploy();
      await (await feeToken.mint(world.merchant.address, 1n, 100n)).wait();
      await (await feeToken.setApprovalForAll(world.address, true)).wait();
      await setItems(world, [[1, erc1155Item(await feeToken.getAddress(), 1n, 50n)]]);
      const mismatch = world.raffle.interface.encodeErrorResult("ItemAmountMismatch", [50n, 49n]);
      await expect(startErc20Round(world)).to.be.revertedWithCustomError(world.raffle, "ItemNotEscrowed").withArgs(1n, mismatch);
      expect(await feeToken.balanceOf(world.address, 1n)).to.equal(0n);
      expect((await world.raffle.getCurrentRoundInfo()).roundId).to.equal(0n);
    });

    it("refuses a round whose ERC721 is paused at start; a pause at claim holds up only that item until it lifts", async () => {
      const world = await loadFixture(itemWorldFixture);
      const pausable = await new PausableItem721__factory(world.merchant).deploy();
      await (await pausable.mint(world.merchant.address)).wait();
      await (await pausable.setApprovalForAll(world.address, true)).wait();
      const sword = erc721Item(await pausable.getAddress(), 1n);
      await setItems(world, [
        [1, sword],
        [2, world.potionAsset],
      ]);
      await (await pausable.setPaused(true)).wait();
      await expect(startErc20Round(world))
        .to.be.revertedWithCustomError(world.raffle, "ItemNotEscrowed")
        .withArgs(1n, pausable.interface.getError("ItemTransfersPaused")!.selector);
      await (await pausable.setPaused(false)).wait();

      const [alice, bob, carol] = world.players;
      await approveExchange(world, [alice!, bob!, carol!]);
      const price = await startErc20Round(world);
      const owners = new Map<bigint, typeof alice>();
      for (const buyer of [alice!, bob!, carol!]) owners.set(await buyTicket(world, buyer, price), buyer);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [3n])).wait();
      const [first, second] = await world.raffle.getWinners(1n);
      await (await pausable.setPaused(true)).wait();
      const firstHolder = owners.get(first!.ticketId)!;
      await expect(claimPrizes(world, firstHolder, [1n, first!.ticketId]))
        .to.emit(world.raffle, "ItemTransferFailed")
        .and.to.emit(world.raffle, "PrizeClaimed");
      await (await claimPrizes(world, owners.get(second!.ticketId)!, [1n, second!.ticketId])).wait();
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      await (await pausable.setPaused(false)).wait();
      await (await claimPrizes(world, firstHolder, [1n, first!.ticketId])).wait();
      expect(await pausable.ownerOf(1n)).to.equal(firstHolder.address);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);
    });

    it("a paused ERC20 item holds up only itself when items go back; the rest return and it follows once unpaused", async () => {
      const world = await loadFixture(itemWorldFixture);
      const gems = await new PausableItem20__factory(world.merchant).deploy();
      await (await gems.mint(world.merchant.address, 1_000n)).wait();
      await (await gems.approve(world.address, 1_000n)).wait();
      await setItems(world, [
        [1, world.swordAsset],
        [2, erc20Item(await gems.getAddress(), 1_000n)],
        [3, world.potionAsset],
      ]);
      await startErc20Round(world);
      await endRound(world);
      await (await gems.setPaused(true)).wait();
      await expect(world.raffle.returnItems(1n))
        .to.emit(world.raffle, "ItemTransferFailed")
        .withArgs(1n, 2n, world.merchant.address, gems.interface.getError("ItemTransfersPaused")!.selector);
      expect(await itemStatuses(world, 1n)).to.deep.equal([
        [1, ItemStatus.Returned],
        [2, ItemStatus.Escrowed],
        [3, ItemStatus.Returned],
      ]);
      await (await gems.setPaused(false)).wait();
      await (await world.raffle.returnItems(1n)).wait();
      expect(await gems.balanceOf(world.merchant.address)).to.equal(1_000n);
    });

    it("an ERC721 that re-enters the raffle while it moves (moveItem at escrow, claimPrizes at the claim) gets nowhere, and the claim pays once", async () => {
      const world = await loadFixture(itemWorldFixture);
      const reentrant = await new ReentrantItem721__factory(world.merchant).deploy();
      await (await reentrant.mint(world.merchant.address)).wait();
      await (await reentrant.setApprovalForAll(world.address, true)).wait();
      const item = erc721Item(await reentrant.getAddress(), 1n);
      await setItems(world, [[1, item]]);
      // At escrow it tries to have the raffle move it straight back to the merchant.
      await (
        await reentrant.setReentry(
          world.address,
          world.raffle.interface.encodeFunctionData("moveItem", [item, world.address, world.merchant.address]),
        )
      ).wait();
      const [alice, bob] = world.players;
      await approveExchange(world, [alice!, bob!]);
      const price = await startErc20Round(world);
      expect(await reentrant.ownerOf(1n)).to.equal(world.address);
      expect(await reentrant.reentriesSucceeded()).to.equal(0n);
      expect((await reentrant.lastFailure()).slice(0, 10)).to.equal(world.raffle.interface.getError("CallerNotSelf")!.selector);
      const ticketA = await buyTicket(world, alice!, price);
      const ticketB = await buyTicket(world, bob!, price);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [0n])).wait();
      const [first] = await world.raffle.getWinners(1n);
      const holder = first!.ticketId === ticketA ? alice! : bob!;
      // At the claim it tries to claim the same ticket again.
      await (await reentrant.setReentry(world.address, claimPrizesCall(world, 1n, first!.ticketId))).wait();
      await expect(claimPrizes(world, holder, [1n, first!.ticketId])).to.emit(world.raffle, "ItemClaimed");
      expect(await reentrant.ownerOf(1n)).to.equal(holder.address);
      expect(await reentrant.reentriesSucceeded()).to.equal(0n);
      expect((await reentrant.lastFailure()).slice(0, 10)).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(ticketB).to.not.equal(0n);
    });
  });
});
