import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress } from "ethers";

import { TokenType, signClaimIntent } from "@raffle/chain";

import { ONE_DAY, TICKET_PRICE } from "./support/fixtures";
import {
  RoundStatus,
  approveExchange,
  assetTuple,
  buyTicket,
  claimPrizes,
  endRound,
  refundTickets,
  setRules,
  startErc20Round,
} from "./support/scenario";
import {
  GEMS,
  ItemStatus,
  POTIONS,
  POTION_ID,
  deployItemWorld,
  drawnItemRound,
  erc1155Item,
  itemStatuses,
  setItems,
  type ItemWorld,
} from "./support/items";
import { latestTimestamp } from "./support/vouchers";

async function itemWorldFixture() {
  return deployItemWorld();
}

async function drawnFixture() {
  const world = await deployItemWorld();
  const [alice, bob, carol, dave] = world.players;
  const drawn = await drawnItemRound(world, [alice, bob, carol, dave]);
  return { world, ...drawn };
}

async function balances(world: ItemWorld, account: string) {
  return {
    sword: (await world.sword.ownerOf(world.swordId)) === account ? 1n : 0n,
    potions: await world.potions.balanceOf(account, POTION_ID),
    gems: await world.gems.balanceOf(account),
  };
}

describe("Item prizes", () => {
  describe("setItemPrizes", () => {
    it("is the merchant's (admin) and records the caller as the merchant the items come from", async () => {
      const world = await loadFixture(itemWorldFixture);
      await expect(world.raffle.connect(world.players[0]).setItemPrizes([{ position: 1, asset: world.swordAsset }])).to.be.revertedWithCustomError(
        world.raffle,
        "AccessControlUnauthorizedAccount",
      );
      await expect(
        world.raffle.setItemPrizes([
          { position: 1, asset: world.swordAsset },
          { position: 2, asset: world.potionAsset },
        ]),
      ).to.emit(world.raffle, "ItemPrizesSet");
      const [merchant, items] = await world.raffle.itemPrizes();
      expect(merchant).to.equal(world.merchant.address);
      expect(items.map((item) => [item.position, assetTuple(item.asset)])).to.deep.equal([
        [1n, assetTuple(world.swordAsset)],
        [2n, assetTuple(world.potionAsset)],
      ]);
    });

    it("refuses malformed items with InvalidItemPrize(index)", async () => {
      const world = await loadFixture(itemWorldFixture);
      const potions = await world.potions.getAddress();
      const bad: [string, { position: number; asset: typeof world.swordAsset }[], number][] = [
        ["position 0", [{ position: 0, asset: world.swordAsset }], 0],
        ["position 21", [{ position: 21, asset: world.swordAsset }], 0],
        [
          "positions not increasing",
          [
            { position: 2, asset: world.swordAsset },
            { position: 2, asset: world.potionAsset },
          ],
          1,
        ],
        ["an ERC721 of amount 2", [{ position: 1, asset: { ...world.swordAsset, amount: 2n } }], 0],
        ["an ERC1155 of amount 0", [{ position: 1, asset: erc1155Item(potions, POTION_ID, 0n) }], 0],
        ["an ERC20 with a token id", [{ position: 1, asset: { ...world.gemAsset, tokenId: 1n } }], 0],
        ["a native amount", [{ position: 1, asset: { tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: 1n } }], 0],
        ["an ERC998", [{ position: 1, asset: { ...world.swordAsset, tokenType: TokenType.ERC998 } }], 0],
        ["the zero token", [{ position: 1, asset: { ...world.gemAsset, token: ZeroAddress } }], 0],
        ["the raffle's own ticket", [{ position: 1, asset: { ...world.swordAsset, token: world.ticketAddress } }], 0],
      ];
      for (const [why, items, index] of bad) {
        await expect(world.raffle.setItemPrizes(items), why).to.be.revertedWithCustomError(world.raffle, "InvalidItemPrize").withArgs(index);
      }
    });
  });

  describe("escrow at startRound", () => {
    it("pulls all three kinds from the merchant inside the spec's startRound, and positions past the shares count as winners", async () => {
      const world = await loadFixture(itemWorldFixture);
      await setItems(world, [
        [1, world.swordAsset],
        [2, world.potionAsset],
        [3, world.gemAsset],
      ]);
      const before = await balances(world, world.merchant.address);
      await startErc20Round(world);
      const raffle = await balances(world, world.address);
      expect(raffle).to.deep.equal({ sword: 1n, potions: POTIONS, gems: GEMS });
      const after = await balances(world, world.merchant.address);
      expect(after).to.deep.equal({ sword: 0n, potions: before.potions - POTIONS, gems: before.gems - GEMS });
      expect(await itemStatuses(world, 1n)).to.deep.equal([
        [1, ItemStatus.Escrowed],
        [2, ItemStatus.Escrowed],
        [3, ItemStatus.Escrowed],
      ]);
      const [merchant] = await world.raffle.getRoundItems(1n);
      expect(merchant).to.equal(world.merchant.address);
      expect((await world.raffle.getRound(1n)).winnersCount).to.equal(3n);
      const info = await world.raffle.getCurrentRoundInfo();
      expect(info.roundId).to.equal(1n);
      expect(info.acceptedAsset.amount).to.equal(TICKET_PRICE);
    });

    it("emits ItemsEscrowed with the round's items and merchant", async () => {
      const world = await loadFixture(itemWorldFixture);
      await setItems(world, [[2, world.potionAsset]]);
      const price = { tokenType: TokenType.ERC20, token: await world.token.getAddress(), tokenId: 0n, amount: TICKET_PRICE };
      await expect(world.raffle.startRound(world.item, price, 0n))
        .to.emit(world.raffle, "ItemsEscrowed")
        .withArgs(1n, world.merchant.address, [[2n, assetTuple(world.potionAsset)]]);
    });

    it("refuses the round with ItemNotEscrowed(position) when an item is not approved or not the merchant's", async () => {
      const world = await loadFixture(itemWorldFixture);
      await (await world.potions.setApprovalForAll(world.address, false)).wait();
      await setItems(world, [
        [1, world.swordAsset],
        [2, world.potionAsset],
      ]);
      await expect(startErc20Round(world))
        .to.be.revertedWithCustomError(world.raffle, "ItemNotEscrowed")
        .withArgs(2n, (reason: string) => reason.length > 2);
      await (await world.potions.setApprovalForAll(world.address, true)).wait();
      await (await world.sword.transferFrom(world.merchant.address, world.players[5].address, world.swordId)).wait();
      await expect(startErc20Round(world))
        .to.be.revertedWithCustomError(world.raffle, "ItemNotEscrowed")
        .withArgs(1n, (reason: string) => reason.length > 2);
      expect((await world.raffle.getCurrentRoundInfo()).roundId).to.equal(0n);
      expect(await world.potions.balanceOf(world.address, POTION_ID)).to.equal(0n);
    });

    it("escrows the same items again at the next startRound without any extra call once they came back", async () => {
      const world = await loadFixture(itemWorldFixture);
      await setRules(world, { minTickets: 5 });
      await setItems(world, [
        [1, world.swordAsset],
        [2, world.potionAsset],
      ]);
      await startErc20Round(world);
      await endRound(world); // no ticket: closed
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Closed);
      await (await world.raffle.connect(world.players[7]).returnItems(1n)).wait();
      await startErc20Round(world);
      expect(await itemStatuses(world, 2n)).to.deep.equal([
        [1, ItemStatus.Escrowed],
        [2, ItemStatus.Escrowed],
      ]);
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
    });
  });

  describe("claims", () => {
    it("sends each winner its item (and the first its share) and a claimed ticket claims nothing more", async () => {
      const { world, roundId, winners } = await loadFixture(drawnFixture);
      const [first, second, third] = winners;
      const gemsBefore = await world.gems.balanceOf(third!.holder.address);
      await expect(claimPrizes(world, first!.holder, [roundId, first!.ticketId]))
        .to.emit(world.raffle, "ItemClaimed")
        .withArgs(roundId, first!.ticketId, first!.holder.address, 1n, assetTuple(world.swordAsset))
        .and.to.emit(world.raffle, "PrizeClaimed");
      expect(await world.sword.ownerOf(world.swordId)).to.equal(first!.holder.address);
      await (await claimPrizes(world, second!.holder, [roundId, second!.ticketId])).wait();
      expect(await world.potions.balanceOf(second!.holder.address, POTION_ID)).to.equal(POTIONS);
      await (await claimPrizes(world, third!.holder, [roundId, third!.ticketId])).wait();
      expect((await world.gems.balanceOf(third!.holder.address)) - gemsBefore).to.equal(GEMS);
      expect(await balances(world, world.address)).to.deep.equal({ sword: 0n, potions: 0n, gems: 0n });
      expect(await itemStatuses(world, roundId)).to.deep.equal([
        [1, ItemStatus.Claimed],
        [2, ItemStatus.Claimed],
        [3, ItemStatus.Claimed],
      ]);
      expect((await world.raffle.getRound(roundId)).status).to.equal(RoundStatus.Claimed);
      for (const winner of winners) {
        await expect(claimPrizes(world, winner.holder, [roundId, winner.ticketId])).to.be.revertedWithCustomError(
          world.raffle,
          "UnexpectedRoundStatus",
        );
      }
    });

    it("pays the ticket's holder at claim time and refuses a second claim of the same ticket with NoPrizeToClaim", async () => {
      const { world, roundId, winners } = await loadFixture(drawnFixture);
      const second = winners[1]!;
      const buyer = world.players[6]!;
      await (await world.ticket.connect(second.holder).transferFrom(second.holder.address, buyer.address, second.ticketId)).wait();
      await expect(claimPrizes(world, second.holder, [roundId, second.ticketId])).to.be.revertedWithCustomError(
        world.raffle,
        "NotTicketOwnerOrApproved",
      );
      await (await claimPrizes(world, buyer, [roundId, second.ticketId])).wait();
      expect(await world.potions.balanceOf(buyer.address, POTION_ID)).to.equal(POTIONS);
      await expect(claimPrizes(world, buyer, [roundId, second.ticketId])).to.be.revertedWithCustomError(world.raffle, "NoPrizeToClaim");
    });

    it("delivers the item on the relayed claimPrizesBySig path to the holder who signed", async () => {
      const { world, roundId, winners } = await loadFixture(drawnFixture);
      const first = winners[0]!;
      const relayer = world.players[7]!;
      const tickets = [{ roundId, ticketId: first.ticketId }];
      const { chainId } = await ethers.provider.getNetwork();
      const exchange = await world.exchange.getAddress();
      const intent = await signClaimIntent(
        first.holder,
        { chainId, exchange, raffle: world.address, holder: first.holder.address, tickets },
        (await latestTimestamp()) + 600n,
      );
      await expect(world.exchange.connect(relayer).claimPrizesBySig(world.address, tickets, first.holder.address, intent.deadline, intent.signature))
        .to.emit(world.raffle, "ItemClaimed")
        .withArgs(roundId, first.ticketId, first.holder.address, 1n, assetTuple(world.swordAsset));
      expect(await world.sword.ownerOf(world.swordId)).to.equal(first.holder.address);
    });

    it("lets a position carry both a share and an item: rules [6000, 4000] with the sword on the second position", async () => {
      const world = await loadFixture(itemWorldFixture);
      const [alice, bob, carol] = world.players;
      await setRules(world, { prizeShares: [6_000, 4_000] });
      await setItems(world, [[2, world.swordAsset]]);
      await approveExchange(world, [alice!, bob!, carol!]);
      const price = await startErc20Round(world);
      const owners = new Map<bigint, typeof alice>();
      for (const buyer of [alice!, bob!, carol!]) owners.set(await buyTicket(world, buyer, price), buyer);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [9n])).wait();
      const [, second] = await world.raffle.getWinners(1n);
      expect(second!.share).to.equal(4_000n);
      const holder = owners.get(second!.ticketId)!;
      const before = await world.token.balanceOf(holder.address);
      await (await claimPrizes(world, holder, [1n, second!.ticketId])).wait();
      expect(await world.sword.ownerOf(world.swordId)).to.equal(holder.address);
      const pot = 3n * TICKET_PRICE;
      const amount = (pot * 4_000n) / 10_000n;
      expect((await world.token.balanceOf(holder.address)) - before).to.equal(amount - amount / 10n);
    });
  });

  describe("returns to the merchant", () => {
    it("returns every item of a refundable round (below its minimum) to the merchant, called by anyone, once", async () => {
      const world = await loadFixture(itemWorldFixture);
      const [alice, stranger] = [world.players[0]!, world.players[7]!];
      await setRules(world, { minTickets: 3 });
      await setItems(world, [
        [1, world.swordAsset],
        [2, world.potionAsset],
        [3, world.gemAsset],
      ]);
      await approveExchange(world, [alice]);
      const price = await startErc20Round(world);
      const ticketId = await buyTicket(world, alice, price);
      const before = await balances(world, world.merchant.address);
      await expect(world.raffle.connect(stranger).returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
      await endRound(world);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Refundable);
      await expect(world.raffle.connect(stranger).returnItems(1n))
        .to.emit(world.raffle, "ItemReturned")
        .withArgs(1n, world.merchant.address, 1n, assetTuple(world.swordAsset));
      expect(await balances(world, world.merchant.address)).to.deep.equal({ sword: 1n, potions: before.potions + POTIONS, gems: before.gems + GEMS });
      expect(await balances(world, world.address)).to.deep.equal({ sword: 0n, potions: 0n, gems: 0n });
      expect(await itemStatuses(world, 1n)).to.deep.equal([
        [1, ItemStatus.Returned],
        [2, ItemStatus.Returned],
        [3, ItemStatus.Returned],
      ]);
      await expect(world.raffle.connect(stranger).returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "NoItemsToReturn").withArgs(1n);
      // The ticket's refund is untouched by the items.
      await expect(refundTickets(world, alice, [1n, ticketId])).to.changeTokenBalance(world.token, alice, TICKET_PRICE);
    });

    it("returns the items of a round whose randomness timed out", async () => {
      const world = await loadFixture(itemWorldFixture);
      const [alice, bob] = world.players;
      await setItems(world, [
        [1, world.swordAsset],
        [2, world.potionAsset],
      ]);
      await approveExchange(world, [alice!, bob!]);
      const price = await startErc20Round(world);
      await buyTicket(world, alice!, price);
      await buyTicket(world, bob!, price);
      await endRound(world);
      await expect(world.raffle.returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
      await time.increase(ONE_DAY);
      await (await world.raffle.enableRefunds(1n)).wait();
      await (await world.raffle.connect(bob!).returnItems(1n)).wait();
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.merchant.address);
      expect(await world.potions.balanceOf(world.address, POTION_ID)).to.equal(0n);
    });

    it("returns unclaimed items only once the release period has passed, and a winner claims until then", async () => {
      const { world, roundId, winners } = await loadFixture(drawnFixture);
      const [first, second] = winners;
      await (await claimPrizes(world, first!.holder, [roundId, first!.ticketId])).wait();
      const { drawnAt } = await world.raffle.getRound(roundId);
      await expect(world.raffle.returnItems(roundId))
        .to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet")
        .withArgs(roundId, drawnAt + ONE_DAY);
      await time.increaseTo(drawnAt + ONE_DAY);
      const merchantPotions = await world.potions.balanceOf(world.merchant.address, POTION_ID);
      await (await world.raffle.connect(world.players[7]).returnItems(roundId)).wait();
      expect(await world.potions.balanceOf(world.merchant.address, POTION_ID)).to.equal(merchantPotions + POTIONS);
      expect(await itemStatuses(world, roundId)).to.deep.equal([
        [1, ItemStatus.Claimed],
        [2, ItemStatus.Returned],
        [3, ItemStatus.Returned],
      ]);
      // The second winner's item is gone; the ticket has only its (empty) share position left to settle.
      await (await claimPrizes(world, second!.holder, [roundId, second!.ticketId])).wait();
      expect(await world.potions.balanceOf(second!.holder.address, POTION_ID)).to.equal(0n);
      await expect(claimPrizes(world, second!.holder, [roundId, second!.ticketId])).to.be.revertedWithCustomError(world.raffle, "NoPrizeToClaim");
    });

    it("returns the items of a released round; releasePrize moves no item", async () => {
      const { world, roundId } = await loadFixture(drawnFixture);
      await time.increase(ONE_DAY);
      await (await world.raffle.releasePrize(roundId)).wait();
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
      await (await world.raffle.connect(world.players[7]).returnItems(roundId)).wait();
      expect(await world.sword.ownerOf(world.swordId)).to.equal(world.merchant.address);
    });
  });
});
