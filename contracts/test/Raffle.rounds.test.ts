import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { ZeroAddress } from "ethers";

import { TokenType } from "@raffle/chain";

import { TICKET_PRICE, deployRaffle, erc20Price, nativePrice, ticketAsset } from "./support/fixtures";
import { latestTimestamp } from "./support/vouchers";
import {
  RoundStatus,
  approveExchange,
  assetTuple,
  buyTicket,
  deployWorld,
  plainAsset,
  purchase,
  startErc20Round,
  voucherFor,
} from "./support/scenario";

const MAX_UINT32 = 2n ** 32n - 1n;

async function freshRaffleFixture() {
  const world = await deployWorld();
  const [alice, bob, hotKey] = world.players;
  await approveExchange(world, [alice, bob]);
  return { world, alice, bob, hotKey };
}

async function activeRoundFixture() {
  const fixture = await freshRaffleFixture();
  const price = await startErc20Round(fixture.world, 10n);
  return { ...fixture, price };
}

describe("Raffle rounds", () => {
  describe("getCurrentRoundInfo", () => {
    it("is all zero before the first round", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const info = await world.raffle.getCurrentRoundInfo();
      expect(info.roundId).to.equal(0n);
      expect(info.startTimestamp).to.equal(0n);
      expect(info.endTimestamp).to.equal(0n);
      expect(info.maxTicket).to.equal(0n);
      expect(info.prizeNumber).to.equal(0n);
      expect(assetTuple(info.acceptedAsset)).to.deep.equal([0n, ZeroAddress, 0n, 0n]);
      expect(assetTuple(info.ticketAsset)).to.deep.equal([0n, ZeroAddress, 0n, 0n]);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.None);
    });

    it("reports the active round's fields after startRound", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const price = erc20Price(await world.token.getAddress());
      await (await world.raffle.startRound(world.item, price, 25n)).wait();
      const startedAt = await latestTimestamp();

      const info = await world.raffle.getCurrentRoundInfo();
      expect(info.roundId).to.equal(1n);
      expect(info.startTimestamp).to.equal(startedAt);
      expect(info.endTimestamp).to.equal(0n);
      expect(info.maxTicket).to.equal(25n);
      expect(info.prizeNumber).to.equal(0n);
      expect(assetTuple(info.acceptedAsset)).to.deep.equal(assetTuple(price));
      expect(assetTuple(info.ticketAsset)).to.deep.equal(assetTuple(ticketAsset(world.ticketAddress)));
      expect(assetTuple(await world.raffle.ticketAsset())).to.deep.equal(assetTuple(world.item));
    });

    it("reports endTimestamp and keeps the round's assets after endRound", async () => {
      const { world, alice, price } = await loadFixture(activeRoundFixture);
      const ticketId = await buyTicket(world, alice, price);
      await time.increase(60);
      await (await world.raffle.endRound()).wait();
      const endedAt = await latestTimestamp();

      const info = await world.raffle.getCurrentRoundInfo();
      expect(info.roundId).to.equal(1n);
      expect(info.endTimestamp).to.equal(endedAt);
      expect(info.endTimestamp).to.be.greaterThan(info.startTimestamp);
      expect(info.prizeNumber).to.equal(ticketId); // one ticket wins at once
      expect(info.maxTicket).to.equal(10n);
      expect(assetTuple(info.acceptedAsset)).to.deep.equal(assetTuple(price));
    });
  });

  describe("startRound", () => {
    it("opens round 1 and emits RoundStarted(roundId, ticket, price, maxTicket, firstTicketId)", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const price = nativePrice();
      await expect(world.raffle.startRound(world.item, price, 0n))
        .to.emit(world.raffle, "RoundStarted")
        .withArgs(1n, assetTuple(world.item), assetTuple(price), 0n, 1n);
      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Active);
      expect(round.firstTicketId).to.equal(1n);
      expect(round.maxTicket).to.equal(0n);
      expect(round.ticketCount).to.equal(0n);
      expect(assetTuple(round.price)).to.deep.equal(assetTuple(price));
    });

    it("reverts with RoundStillActive while a round is active", async () => {
      const { world, price } = await loadFixture(activeRoundFixture);
      await expect(world.raffle.startRound(world.item, price, 0n))
        .to.be.revertedWithCustomError(world.raffle, "RoundStillActive")
        .withArgs(1n);
      expect((await world.raffle.getCurrentRoundInfo()).roundId).to.equal(1n);
    });

    it("follows the automation flow: endRound, then startRound with the returned assets and maxTicket", async () => {
      const { world, alice, bob, price } = await loadFixture(activeRoundFixture);
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);

      const info = await world.raffle.getCurrentRoundInfo();
      expect(info.endTimestamp).to.equal(0n);
      await (await world.raffle.endRound()).wait();
      // Round 1 is still waiting for randomness: that must not block round 2.
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
      await expect(world.raffle.startRound(plainAsset(info.ticketAsset), plainAsset(info.acceptedAsset), info.maxTicket))
        .to.emit(world.raffle, "RoundStarted")
        .withArgs(2n, assetTuple(world.item), assetTuple(price), 10n, 3n);

      const next = await world.raffle.getCurrentRoundInfo();
      expect(next.roundId).to.equal(2n);
      expect(next.endTimestamp).to.equal(0n);
      expect(assetTuple(next.acceptedAsset)).to.deep.equal(assetTuple(info.acceptedAsset));
      expect(next.maxTicket).to.equal(info.maxTicket);
    });

    it("continues ticket ids across rounds and restarts serials at 1", async () => {
      const { world, alice, bob, price } = await loadFixture(activeRoundFixture);
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      await (await world.raffle.endRound()).wait();
      await startErc20Round(world);
      await expect(purchase(world, bob, await voucherFor(world, bob, price, { externalId: 5n })))
        .to.emit(world.raffle, "TicketsPurchased")
        .withArgs(2n, bob.address, 3n, 1n, price.amount, 5n);
      // Ticket 3 is round 2's first: serial = id - the round's firstTicketId + 1 = 1.
      const round = await world.raffle.getRound(2n);
      expect(round.firstTicketId).to.equal(3n);
      expect([await world.raffle.roundOfTicket(3n), 3n - round.firstTicketId + 1n]).to.deep.equal([2n, 1n]);
      expect(await world.raffle.roundOfTicket(2n)).to.equal(1n);
    });

    it("rejects a ticket asset that is not one token of this raffle's ticket contract", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const other = await deployRaffle(world);
      const price = erc20Price(await world.token.getAddress());
      const bad = [
        ticketAsset(other.ticketAddress),
        { ...world.item, tokenType: TokenType.ERC1155 },
        { ...world.item, tokenType: TokenType.ERC20 },
        { ...world.item, tokenId: 1n },
        { ...world.item, amount: 2n },
        { ...world.item, amount: 0n },
      ];
      for (const ticket of bad) {
        await expect(world.raffle.startRound(ticket, price, 0n)).to.be.revertedWithCustomError(world.raffle, "InvalidTicketAsset");
      }
    });

    it("rejects prices that cannot be paid or could overflow the pot", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const token = await world.token.getAddress();
      const bad = [
        erc20Price(token, 0n),
        erc20Price(token, 2n ** 96n),
        erc20Price(token, 2n ** 128n),
        { ...erc20Price(token), tokenId: 1n },
        { ...nativePrice(), token },
        nativePrice(0n),
        { tokenType: TokenType.ERC721, token: world.ticketAddress, tokenId: 0n, amount: 1n },
        { tokenType: TokenType.ERC998, token, tokenId: 0n, amount: 1n },
        { tokenType: TokenType.ERC1155, token, tokenId: 0n, amount: 1n },
      ];
      for (const price of bad) {
        await expect(world.raffle.startRound(world.item, price, 0n)).to.be.revertedWithCustomError(world.raffle, "InvalidPriceAsset");
      }
      // An ERC20 must be on the platform's list; an account without code or the zero address never is.
      for (const unlisted of [world.merchant.address, ZeroAddress, world.ticketAddress]) {
        await expect(world.raffle.startRound(world.item, erc20Price(unlisted), 0n))
          .to.be.revertedWithCustomError(world.raffle, "PriceTokenNotAllowed")
          .withArgs(unlisted);
      }
      await expect(world.raffle.startRound(world.item, erc20Price(token, 2n ** 96n - 1n), 0n)).to.emit(world.raffle, "RoundStarted");
    });

    it("caps maxTicket at 2^32 - 1 with MaxTicketTooLarge", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      const price = nativePrice();
      await expect(world.raffle.startRound(world.item, price, MAX_UINT32 + 1n))
        .to.be.revertedWithCustomError(world.raffle, "MaxTicketTooLarge")
        .withArgs(MAX_UINT32 + 1n);
      await (await world.raffle.startRound(world.item, price, MAX_UINT32)).wait();
      expect((await world.raffle.getCurrentRoundInfo()).maxTicket).to.equal(MAX_UINT32);
    });

    it("treats maxTicket 0 as no cap", async () => {
      const { world, alice } = await loadFixture(freshRaffleFixture);
      const price = await startErc20Round(world, 0n);
      for (let i = 0; i < 12; i += 1) await buyTicket(world, alice, price);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(12n);
    });

    it("is reserved to ROUND_MANAGER_ROLE, which the merchant can grant to a hot key", async () => {
      const { world, alice, hotKey } = await loadFixture(freshRaffleFixture);
      const role = await world.raffle.ROUND_MANAGER_ROLE();
      const price = nativePrice();
      await expect(world.raffle.connect(alice).startRound(world.item, price, 0n))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, role);

      await (await world.raffle.grantRole(role, hotKey.address)).wait();
      await expect(world.raffle.connect(hotKey).startRound(world.item, price, 0n)).to.emit(world.raffle, "RoundStarted");
      await expect(world.raffle.connect(hotKey).endRound()).to.emit(world.raffle, "RoundEnded");
    });
  });

  describe("endRound", () => {
    it("reverts with NoActiveRound before the first round and after the round ended", async () => {
      const { world } = await loadFixture(freshRaffleFixture);
      await expect(world.raffle.endRound()).to.be.revertedWithCustomError(world.raffle, "NoActiveRound");
      await startErc20Round(world);
      await (await world.raffle.endRound()).wait();
      await expect(world.raffle.endRound()).to.be.revertedWithCustomError(world.raffle, "NoActiveRound");
    });

    it("is reserved to ROUND_MANAGER_ROLE until the round has been open MAX_ROUND_DURATION, then open to anyone", async () => {
      const { world, alice } = await loadFixture(activeRoundFixture);
      const overdueAt = (await world.raffle.getRound(1n)).startTimestamp + (await world.raffle.MAX_ROUND_DURATION());
      await expect(world.raffle.connect(alice).endRound()).to.be.revertedWithCustomError(world.raffle, "RoundNotOverdue").withArgs(1n, overdueAt);
      await time.increaseTo(overdueAt - 10n);
      await expect(world.raffle.connect(alice).endRound()).to.be.revertedWithCustomError(world.raffle, "RoundNotOverdue");
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Active);
      await time.increaseTo(overdueAt);
      // A merchant that never ends its round cannot hold its players' money: anyone can end it once overdue.
      await expect(world.raffle.connect(alice).endRound()).to.emit(world.raffle, "RoundEnded");
    });

    it("freezes purchases at once", async () => {
      const { world, alice, price } = await loadFixture(activeRoundFixture);
      const voucher = await voucherFor(world, alice, price);
      await (await world.raffle.endRound()).wait();
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "NoActiveRound");
    });

    it("records the ticket count and end time in getRound", async () => {
      const { world, alice, bob, price } = await loadFixture(activeRoundFixture);
      for (const buyer of [alice, bob, alice]) await buyTicket(world, buyer, price);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(3n); // live while active
      await (await world.raffle.endRound()).wait();
      const round = await world.raffle.getRound(1n);
      expect(round.ticketCount).to.equal(3n);
      expect(round.endTimestamp).to.equal(await latestTimestamp());
    });
  });

  describe("printTicket", () => {
    it("can only be called by the Exchange", async () => {
      const { world, alice, price } = await loadFixture(activeRoundFixture);
      for (const caller of [alice, world.merchant, world.admin]) {
        await expect(world.raffle.connect(caller).printTicket(caller.address, world.item, price, 1n))
          .to.be.revertedWithCustomError(world.raffle, "CallerNotExchange")
          .withArgs(caller.address);
      }
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(0n);
    });
  });

  describe("pause and unpause", () => {
    it("lets the admin pause and unpause with Paused/Unpaused events", async () => {
      const { world, alice, price } = await loadFixture(activeRoundFixture);
      const { raffle, merchant } = world;
      await expect(raffle.unpause()).to.be.revertedWithCustomError(raffle, "RaffleNotPaused");
      await expect(raffle.pause()).to.emit(raffle, "Paused").withArgs(merchant.address);
      expect(await raffle.paused()).to.equal(true);
      await expect(raffle.pause()).to.be.revertedWithCustomError(raffle, "RafflePaused");
      await expect(purchase(world, alice, await voucherFor(world, alice, price))).to.be.revertedWithCustomError(raffle, "RafflePaused");
      await expect(raffle.unpause()).to.emit(raffle, "Unpaused").withArgs(merchant.address);
      expect(await raffle.paused()).to.equal(false);
      await expect(raffle.unpause()).to.be.revertedWithCustomError(raffle, "RaffleNotPaused");
    });

    it("is admin-only: neither players nor a round-manager-only hot key can pause", async () => {
      const { world, alice, hotKey } = await loadFixture(activeRoundFixture);
      await (await world.raffle.grantRole(await world.raffle.ROUND_MANAGER_ROLE(), hotKey.address)).wait();
      const adminRole = await world.raffle.DEFAULT_ADMIN_ROLE();
      for (const caller of [alice, hotKey]) {
        await expect(world.raffle.connect(caller).pause())
          .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, adminRole);
      }
      await (await world.raffle.pause()).wait();
      await expect(world.raffle.connect(hotKey).unpause())
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(hotKey.address, adminRole);
    });

    it("stays paused across rounds and still lets the merchant end and start rounds", async () => {
      const { world, alice, price } = await loadFixture(activeRoundFixture);
      await (await world.raffle.pause()).wait();
      await expect(world.raffle.endRound()).to.emit(world.raffle, "RoundEnded");
      await startErc20Round(world);
      expect(await world.raffle.paused()).to.equal(true);
      await expect(purchase(world, alice, await voucherFor(world, alice, price))).to.be.revertedWithCustomError(world.raffle, "RafflePaused");
      await (await world.raffle.unpause()).wait();
      await expect(purchase(world, alice, await voucherFor(world, alice, price)))
        .to.emit(world.raffle, "TicketsPurchased")
        .withArgs(2n, alice.address, 1n, 1n, price.amount, 1n);
      expect(await world.token.balanceOf(world.address)).to.equal(TICKET_PRICE);
    });
  });
});
