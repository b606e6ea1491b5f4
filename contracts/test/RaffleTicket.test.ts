import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { Interface, MaxUint256, ZeroAddress } from "ethers";

import { RaffleTicketDeployer__factory, RaffleTicket__factory } from "@raffle/chain";

import {
  PrizeStatus,
  approveExchange,
  buyTicket,
  claimPrizes,
  deployWorld,
  endRound,
  purchase,
  startErc20Round,
  voucherFor,
} from "./support/scenario";

const MAX_UINT120 = 2n ** 120n - 1n;

async function ticketFixture() {
  const world = await deployWorld();
  const [alice, bob, carol] = world.players;
  await approveExchange(world, [alice, bob]);
  const price = await startErc20Round(world);
  return { world, price, alice, bob, carol };
}

describe("RaffleTicket", () => {
  it("belongs to its raffle and carries the factory-given name and symbol", async () => {
    const { world } = await loadFixture(ticketFixture);
    expect(await world.ticket.raffle()).to.equal(world.address);
    expect(await world.raffle.ticketContract()).to.equal(world.ticketAddress);
    expect(await world.ticket.name()).to.equal("Raffle Ticket");
    expect(await world.ticket.symbol()).to.equal("TICKET");
  });

  describe("raffle-only writes", () => {
    it("rejects mintTicket, setPrizeStatus and burn from anyone but the raffle with CallerNotRaffle", async () => {
      const { world, price, alice } = await loadFixture(ticketFixture);
      await buyTicket(world, alice, price);
      // v2 mints in batches (mintTickets) and keeps prize status in the raffle: v1's mintTicket and setPrizeStatus
      // are gone from the ticket, so a call to either reverts for everyone, and mintTickets and burn are raffle-only.
      const v1 = new Interface([
        "function mintTicket(address to, uint256 roundId, uint256 serial, uint256 externalId, uint256 data)",
        "function setPrizeStatus(uint256 ticketId, uint8 status)",
      ]);
      const callers = [alice, world.merchant, world.admin];
      for (const caller of callers) {
        const ticket = world.ticket.connect(caller);
        await expect(ticket.mintTickets(caller.address, 1n, 0))
          .to.be.revertedWithCustomError(ticket, "CallerNotRaffle")
          .withArgs(caller.address);
        await expect(ticket.burn(1n)).to.be.revertedWithCustomError(ticket, "CallerNotRaffle").withArgs(caller.address);
        for (const data of [
          v1.encodeFunctionData("mintTicket", [caller.address, 99n, 1n, 1n, 1n]),
          v1.encodeFunctionData("setPrizeStatus", [1n, PrizeStatus.Unclaimed]),
        ]) {
          await expect(caller.sendTransaction({ to: world.ticketAddress, data })).to.be.reverted;
        }
      }
      expect(await world.ticket.ownerOf(1n)).to.equal(alice.address);
      expect(await world.ticket.nextTicketId()).to.equal(2n);
      await expect(world.ticket.ownerOf(99n)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
    });

    it("makes whoever deploys it through RaffleTicketDeployer its only raffle", async () => {
      const { world, alice } = await loadFixture(ticketFixture);
      const deployer = await new RaffleTicketDeployer__factory(world.admin).deploy();
      const address = await deployer.connect(alice).deployTicket.staticCall("Own", "OWN");
      await (await deployer.connect(alice).deployTicket("Own", "OWN")).wait();
      const own = RaffleTicket__factory.connect(address, alice);
      expect(await own.raffle()).to.equal(alice.address);
      await expect(own.mintTickets(alice.address, 1n, 0))
        .to.emit(own, "Transfer")
        .withArgs(ZeroAddress, alice.address, 1n);
      await expect(own.connect(world.merchant).burn(1n)).to.be.revertedWithCustomError(own, "CallerNotRaffle").withArgs(world.merchant.address);
    });
  });

  describe("ids and data", () => {
    it("numbers tickets from 1 and records round, serial, external id and prize flag", async () => {
      const { world, price, alice, bob } = await loadFixture(ticketFixture);
      const first = await buyTicket(world, alice, price, { externalId: 11n });
      const voucher = await voucherFor(world, bob, price, { externalId: 12n });
      // The external id travels in the purchase event (the ticket no longer stores it).
      await expect(purchase(world, bob, voucher))
        .to.emit(world.raffle, "TicketsPurchased")
        .withArgs(1n, bob.address, 2n, 1n, price.amount, 12n);
      expect(first).to.equal(1n);
      expect(await world.ticket.nextTicketId()).to.equal(3n);

      // Round and serial follow from the round's id range; the prize flag is the raffle's winners' status.
      expect(await world.raffle.roundOfTicket(2n)).to.equal(1n);
      expect(await world.raffle.roundOfTicket(1n)).to.equal(1n);
      expect(await world.raffle.roundOfTicket(3n)).to.equal(0n);
      const round = await world.raffle.getRound(1n);
      expect(2n - round.firstTicketId + 1n).to.equal(2n);
      expect(await world.raffle.getWinners(1n)).to.deep.equal([]);
      expect(await world.ticket.tierOf(2n)).to.equal(0n);
      await expect(world.ticket.tierOf(3n)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
    });

    it("flags the winning ticket as the prize among the raffle's winners", async () => {
      const { world, price, alice, bob } = await loadFixture(ticketFixture);
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      const requestId = await endRound(world);
      await expect(world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n]))
        .to.emit(world.raffle, "WinnersDrawn")
        .withArgs(1n, 1n, [2n]);
      let [winner] = await world.raffle.getWinners(1n);
      expect([winner.ticketId, winner.status]).to.deep.equal([2n, BigInt(PrizeStatus.Unclaimed)]);

      // Claimed, the raffle says so, so the ticket cannot be sold as if it carried the pot.
      await (await claimPrizes(world, bob, [1n, 2n])).wait();
      [winner] = await world.raffle.getWinners(1n);
      expect([winner.ticketId, winner.status]).to.deep.equal([2n, BigInt(PrizeStatus.Claimed)]);
    });

    it("carries an external id up to 2^256 - 1 exactly into TicketsPurchased", async () => {
      const { world, price, alice } = await loadFixture(ticketFixture);
      // v1 stored 120 bits on the ticket and rejected more (ExternalIdTooLarge); v2 stores nothing, and the event
      // carries the voucher's whole uint256.
      for (const [index, externalId] of [MAX_UINT120, MAX_UINT120 + 1n, MaxUint256].entries()) {
        const voucher = await voucherFor(world, alice, price, { externalId });
        await expect(purchase(world, alice, voucher))
          .to.emit(world.raffle, "TicketsPurchased")
          .withArgs(1n, alice.address, BigInt(index + 1), 1n, price.amount, externalId);
      }
      expect(await world.ticket.balanceOf(alice.address)).to.equal(3n);
    });

    it("is a normal transferable ERC721", async () => {
      const { world, price, alice, bob } = await loadFixture(ticketFixture);
      const ticketId = await buyTicket(world, alice, price);
      await expect(world.ticket.connect(alice).transferFrom(alice.address, bob.address, ticketId))
        .to.emit(world.ticket, "Transfer")
        .withArgs(alice.address, bob.address, ticketId);
      expect(await world.ticket.ownerOf(ticketId)).to.equal(bob.address);
      expect(await world.raffle.roundOfTicket(ticketId)).to.equal(1n);
    });
  });

  describe("metadata", () => {
    it("has no token URI until the raffle admin sets a base URI", async () => {
      const { world, price, alice } = await loadFixture(ticketFixture);
      const ticketId = await buyTicket(world, alice, price);
      expect(await world.ticket.tokenURI(ticketId)).to.equal("");

      await expect(world.ticket.connect(world.merchant).setBaseURI("https://example.test/tickets/"))
        .to.emit(world.ticket, "BatchMetadataUpdate")
        .withArgs(1n, MaxUint256);
      expect(await world.ticket.tokenURI(ticketId)).to.equal(`https://example.test/tickets/${ticketId}`);
      await expect(world.ticket.tokenURI(42n)).to.be.revertedWithCustomError(world.ticket, "URIQueryForNonexistentToken");
    });

    it("rejects setBaseURI from anyone who is not a raffle admin, including a round manager", async () => {
      const { world, alice, carol } = await loadFixture(ticketFixture);
      await (await world.raffle.grantRole(await world.raffle.ROUND_MANAGER_ROLE(), carol.address)).wait();
      for (const caller of [alice, carol, world.admin]) {
        await expect(world.ticket.connect(caller).setBaseURI("ipfs://evil/"))
          .to.be.revertedWithCustomError(world.ticket, "CallerNotRaffleAdmin")
          .withArgs(caller.address);
      }
      await (await world.raffle.grantRole(await world.raffle.DEFAULT_ADMIN_ROLE(), carol.address)).wait();
      await expect(world.ticket.connect(carol).setBaseURI("ipfs://good/")).to.emit(world.ticket, "BatchMetadataUpdate");
    });
  });

  describe("supportsInterface", () => {
    it("reports ERC165, ERC721, ERC721Metadata and ERC4906, and nothing else", async () => {
      const { world } = await loadFixture(ticketFixture);
      for (const interfaceId of ["0x01ffc9a7", "0x80ac58cd", "0x5b5e139f", "0x49064906"]) {
        expect(await world.ticket.supportsInterface(interfaceId), interfaceId).to.equal(true);
      }
      for (const interfaceId of ["0xffffffff", "0x780e9d63", "0x7965db0b", "0x00000000"]) {
        expect(await world.ticket.supportsInterface(interfaceId), interfaceId).to.equal(false);
      }
    });
  });
});
