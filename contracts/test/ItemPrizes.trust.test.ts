import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";

import { signRefundIntent } from "@raffle/chain";

import { ONE_DAY } from "./support/fixtures";
import { RoundStatus, approveExchange, buyTicket, claimPrizes, endRound, impersonate, plainAsset, startErc20Round } from "./support/scenario";
import { GEMS, ItemStatus, POTIONS, POTION_ID, deployItemWorld, drawnItemRound, itemStatuses, setItems } from "./support/items";
import { latestTimestamp } from "./support/vouchers";

/** The merchant's raffle with a round of three items under way, a hot round-manager key and a second admin. */
async function escrowedFixture() {
  const world = await deployItemWorld();
  const [, , , , , hotKey, coAdmin, stranger] = world.players;
  await (await world.raffle.grantRole(await world.raffle.ROUND_MANAGER_ROLE(), hotKey!.address)).wait();
  await (await world.raffle.grantRole(await world.raffle.DEFAULT_ADMIN_ROLE(), coAdmin!.address)).wait();
  await setItems(world, [
    [1, world.swordAsset],
    [2, world.potionAsset],
    [3, world.gemAsset],
  ]);
  await startErc20Round(world);
  return { world, hotKey: hotKey!, coAdmin: coAdmin!, stranger: stranger! };
}

describe("Item prizes: what no role can do with an escrowed item", () => {
  it("no one but the raffle itself can call moveItem: merchant, round manager, platform admin, the Exchange, anyone", async () => {
    const { world, hotKey, coAdmin, stranger } = await loadFixture(escrowedFixture);
    const exchange = await impersonate(await world.exchange.getAddress());
    const factory = await impersonate(await world.factory.getAddress());
    for (const caller of [world.merchant, coAdmin, hotKey, world.admin, exchange, factory, stranger]) {
      await expect(world.raffle.connect(caller).moveItem(world.swordAsset, world.address, caller.address))
        .to.be.revertedWithCustomError(world.raffle, "CallerNotSelf")
        .withArgs(caller.address);
    }
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
  });

  it("the merchant cannot take items back from a round that can still pay its winners", async () => {
    const { world } = await loadFixture(escrowedFixture);
    await expect(world.raffle.returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
    const buyers = world.players.slice(0, 3);
    await approveExchange(world, buyers);
    const price = plainAsset((await world.raffle.getCurrentRoundInfo()).acceptedAsset);
    for (const buyer of buyers) await buyTicket(world, buyer, price);
    await endRound(world);
    expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
    // Drawing: the winners may still come.
    await expect(world.raffle.returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
    expect(await world.potions.balanceOf(world.address, POTION_ID)).to.equal(POTIONS);
  });

  it("returned items go only to the merchant they came from, whoever calls, whatever the admins changed since", async () => {
    const { world, hotKey, coAdmin, stranger } = await loadFixture(escrowedFixture);
    await endRound(world); // no ticket: closed
    await (await world.raffle.connect(coAdmin).setBeneficiary(coAdmin.address)).wait();
    await (await world.raffle.connect(coAdmin).setItemPrizes([])).wait();
    expect((await world.raffle.itemPrizes())[0]).to.equal(coAdmin.address);
    await (await world.raffle.connect(stranger).returnItems(1n)).wait();
    for (const caller of [hotKey, coAdmin]) {
      await expect(world.raffle.connect(caller).returnItems(1n)).to.be.revertedWithCustomError(world.raffle, "NoItemsToReturn");
    }
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.merchant.address);
    expect(await world.potions.balanceOf(world.merchant.address, POTION_ID)).to.equal(POTIONS * 10n);
    for (const account of [stranger, hotKey, coAdmin]) {
      expect(await world.potions.balanceOf(account.address, POTION_ID)).to.equal(0n);
      expect(await world.gems.balanceOf(account.address)).to.equal(0n);
    }
  });

  it("an admin or round manager can only escrow its own items, never those the merchant approved to the raffle", async () => {
    const { world, hotKey, coAdmin } = await loadFixture(escrowedFixture);
    await endRound(world);
    await (await world.raffle.returnItems(1n)).wait();
    await expect(world.raffle.connect(hotKey).setItemPrizes([{ position: 1, asset: world.swordAsset }])).to.be.revertedWithCustomError(
      world.raffle,
      "AccessControlUnauthorizedAccount",
    );
    await expect(world.raffle.connect(world.admin).setItemPrizes([{ position: 1, asset: world.swordAsset }])).to.be.revertedWithCustomError(
      world.raffle,
      "AccessControlUnauthorizedAccount",
    );
    // The co-admin names the merchant's sword: it is pulled from the co-admin, who does not hold it.
    await (await world.raffle.connect(coAdmin).setItemPrizes([{ position: 1, asset: world.swordAsset }])).wait();
    await expect(
      world.raffle.connect(hotKey).startRound(world.item, plainAsset((await world.raffle.getRound(1n)).price), 0n),
    ).to.be.revertedWithCustomError(world.raffle, "ItemNotEscrowed");
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.merchant.address);
  });

  it("releasePrize moves no item, and a winner's item waits out the release period", async () => {
    const world = await deployItemWorld();
    const [alice, bob, carol, dave] = world.players;
    const { roundId } = await drawnItemRound(world, [alice!, bob!, carol!, dave!]);
    await expect(world.raffle.returnItems(roundId)).to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet");
    await time.increase(ONE_DAY);
    await (await world.raffle.releasePrize(roundId)).wait();
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
    expect(await world.potions.balanceOf(world.address, POTION_ID)).to.equal(POTIONS);
  });

  it("the platform admin's and the merchant's other powers move no escrowed item: a drawn round's items still reach its winners", async () => {
    const world = await deployItemWorld();
    const [alice, bob, carol, dave] = world.players;
    const { roundId, winners } = await drawnItemRound(world, [alice!, bob!, carol!, dave!]);
    const escrowedGems = await world.gems.balanceOf(world.address);
    // The platform admin: the Exchange paused, the merchant's role revoked.
    await (await world.exchange.connect(world.admin).pause()).wait();
    await (await world.factory.connect(world.admin).revokeRole(await world.factory.MERCHANT_ROLE(), world.merchant.address)).wait();
    // The merchant: its raffle paused, the beneficiary moved to itself, the items of later rounds cleared.
    await (await world.raffle.pause()).wait();
    await (await world.raffle.setBeneficiary(world.merchant.address)).wait();
    await (await world.raffle.setItemPrizes([])).wait();
    await expect(world.raffle.returnItems(roundId)).to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet");
    expect(await itemStatuses(world, roundId)).to.deep.equal([
      [1, ItemStatus.Escrowed],
      [2, ItemStatus.Escrowed],
      [3, ItemStatus.Escrowed],
    ]);
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
    expect(await world.gems.balanceOf(world.address)).to.equal(escrowedGems);
    // Every winner still claims its item, straight from the raffle, with all of the above in force.
    for (const winner of winners) await (await claimPrizes(world, winner.holder, [roundId, winner.ticketId])).wait();
    expect(await itemStatuses(world, roundId)).to.deep.equal([
      [1, ItemStatus.Claimed],
      [2, ItemStatus.Claimed],
      [3, ItemStatus.Claimed],
    ]);
    expect(await world.sword.ownerOf(world.swordId)).to.equal(winners[0]!.holder.address);
    expect(await world.potions.balanceOf(winners[1]!.holder.address, POTION_ID)).to.equal(POTIONS);
    expect(await world.gems.balanceOf(world.address)).to.equal(escrowedGems - GEMS);
  });

  it("a relayer with a holder's signature made for a refund cannot claim the holder's item with it", async () => {
    const world = await deployItemWorld();
    const [alice, bob, carol, dave] = world.players;
    const { roundId, winners } = await drawnItemRound(world, [alice!, bob!, carol!, dave!]);
    const first = winners[0]!;
    const relayer = world.players[7]!;
    const tickets = [{ roundId, ticketId: first.ticketId }];
    const { chainId } = await ethers.provider.getNetwork();
    const exchange = await world.exchange.getAddress();
    const refund = await signRefundIntent(
      first.holder,
      { chainId, exchange, raffle: world.address, holder: first.holder.address, tickets },
      (await latestTimestamp()) + 600n,
    );
    await expect(world.exchange.connect(relayer).claimPrizesBySig(world.address, tickets, first.holder.address, refund.deadline, refund.signature))
      .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
      .withArgs(first.holder.address);
    expect(await world.sword.ownerOf(world.swordId)).to.equal(world.address);
  });

  it("refuses tokens pushed to it: an ERC1155 transfer (UnsolicitedItem) or a safe ERC721 transfer", async () => {
    const { world, stranger } = await loadFixture(escrowedFixture);
    await (await world.potions.mint(stranger.address, POTION_ID, 5n)).wait();
    await expect(world.potions.connect(stranger).safeTransferFrom(stranger.address, world.address, POTION_ID, 5n, "0x"))
      .to.be.revertedWithCustomError(world.raffle, "UnsolicitedItem")
      .withArgs(stranger.address);
    await expect(
      world.potions.connect(stranger).safeBatchTransferFrom(stranger.address, world.address, [POTION_ID], [5n], "0x"),
    ).to.be.revertedWithCustomError(world.raffle, "UnsolicitedItem");
    await (await world.sword.mint(stranger.address)).wait();
    await expect(world.sword.connect(stranger)["safeTransferFrom(address,address,uint256)"](stranger.address, world.address, 2n)).to.be.reverted;
    expect(await world.raffle.supportsInterface("0x4e2312e0")).to.equal(true);
  });
});
