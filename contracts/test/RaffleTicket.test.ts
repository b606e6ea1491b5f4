import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { Interface, MaxUint256, ZeroAddress, parseUnits } from "ethers";

import { RaffleTicketDeployer__factory, RaffleTicket__factory, TicketStatus } from "@raffle/chain";

import { ONE_DAY } from "./support/fixtures";
import {
  PrizeStatus,
  approveExchange,
  buyBundle,
  buyTicket,
  claimPrizes,
  deployWorld,
  endRound,
  purchase,
  refundTickets,
  setRules,
  startErc20Round,
  voucherFor,
  type RaffleWorld,
} from "./support/scenario";

const MAX_UINT120 = 2n ** 120n - 1n;

/** The JSON of an on-chain `data:` token URI, and its attributes by trait type. */
async function metadataOf(world: RaffleWorld, ticketId: bigint) {
  const uri = await world.ticket.tokenURI(ticketId);
  const prefix = "data:application/json;base64,";
  expect(uri.startsWith(prefix), uri).to.equal(true);
  const json = JSON.parse(Buffer.from(uri.slice(prefix.length), "base64").toString("utf8"));
  const traits = Object.fromEntries(json.attributes.map((a: { trait_type: string; value: unknown }) => [a.trait_type, a.value]));
  return { json, traits };
}

/** `ticketState` as [roundId, tier, price, status, won, position]. */
async function stateOf(world: RaffleWorld, ticketId: bigint) {
  const state = await world.ticket.ticketState(ticketId);
  return [state.roundId, state.tier, state.price, Number(state.status), state.won, state.position];
}

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
        await expect(ticket.metadataChanged(1n, 1n)).to.be.revertedWithCustomError(ticket, "CallerNotRaffle").withArgs(caller.address);
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

  describe("state and metadata (ERC-4906)", () => {
    it("tells open, won with the prize unclaimed, lost and prize claimed, in its view, its JSON and its events", async () => {
      const { world, price, alice, bob, carol } = await loadFixture(ticketFixture);
      for (const buyer of [alice, bob, alice]) await buyTicket(world, buyer, price);
      expect(await stateOf(world, 2n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.Open, false, 0n]);
      const open = await metadataOf(world, 2n);
      expect(open.json.name).to.equal("Raffle Ticket #2");
      expect(open.json.description).to.equal(`Ticket 2 of round 1 of raffle ${world.address.toLowerCase()}.`);
      expect(open.json.image).to.equal(undefined);
      let { traits } = open;
      expect(traits).to.deep.equal({ Status: "Open", Round: 1, "Price tier": 0, "Price paid": String(price.amount) });

      // The draw announces the round's whole range in one event; word 1 makes ticket 1 + (1 mod 3) = 2 the winner.
      const requestId = await endRound(world);
      await expect(world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n]))
        .to.emit(world.ticket, "BatchMetadataUpdate")
        .withArgs(1n, 3n);
      expect(await stateOf(world, 2n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.Won, true, 0n]);
      ({ traits } = await metadataOf(world, 2n));
      expect([traits.Status, traits["Winner position"]]).to.deep.equal(["Won, prize unclaimed", 1]);
      for (const loser of [1n, 3n]) {
        expect(await stateOf(world, loser)).to.deep.equal([1n, 0n, price.amount, TicketStatus.Lost, false, 0n]);
        ({ traits } = await metadataOf(world, loser));
        expect([traits.Status, traits["Winner position"]]).to.deep.equal(["Lost", undefined]);
      }

      // Sold on, the winning ticket keeps its state: the prize goes with it, and its claim shows on the ticket.
      await (await world.ticket.connect(bob).transferFrom(bob.address, carol.address, 2n)).wait();
      expect(await stateOf(world, 2n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.Won, true, 0n]);
      await expect(claimPrizes(world, bob, [1n, 2n])).to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved");
      const claim = claimPrizes(world, carol, [1n, 2n]);
      await expect(claim).to.emit(world.ticket, "MetadataUpdate").withArgs(2n);
      await expect(claim).not.to.emit(world.ticket, "BatchMetadataUpdate");
      expect(await stateOf(world, 2n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.PrizeClaimed, true, 0n]);
      ({ traits } = await metadataOf(world, 2n));
      expect([traits.Status, traits["Winner position"]]).to.deep.equal(["Prize claimed", 1]);
    });

    it("tells refundable and refunded, with the bundle tier and price a refund pays, after a draw that timed out", async () => {
      const { world, price, alice, bob } = await loadFixture(ticketFixture);
      await endRound(world);
      const bundlePrice = parseUnits("27", 18);
      await setRules(world, { bundles: [[3n, bundlePrice]] });
      await startErc20Round(world);
      const bundleFirst = await buyBundle(world, alice, 3n);
      const single = await buyTicket(world, bob, price);
      await endRound(world);
      await time.increase(ONE_DAY);
      // The round turns refundable as a whole: one event over its range.
      await expect(world.raffle.enableRefunds(2n)).to.emit(world.ticket, "BatchMetadataUpdate").withArgs(bundleFirst, single);
      const perTicket = bundlePrice / 3n;
      expect(await stateOf(world, bundleFirst + 1n)).to.deep.equal([2n, 1n, perTicket, TicketStatus.Refundable, false, 0n]);
      expect((await metadataOf(world, single)).traits.Status).to.equal("Refundable");

      // A refund burns the ticket and announces it; the view and the JSON still answer, with what was paid back.
      const refund = refundTickets(world, alice, [2n, bundleFirst + 1n]);
      await expect(refund)
        .to.emit(world.ticket, "MetadataUpdate")
        .withArgs(bundleFirst + 1n);
      await expect(refund)
        .to.emit(world.raffle, "TicketRefunded")
        .withArgs(2n, bundleFirst + 1n, alice.address, perTicket);
      expect(await stateOf(world, bundleFirst + 1n)).to.deep.equal([2n, 1n, perTicket, TicketStatus.Refunded, false, 0n]);
      const { traits } = await metadataOf(world, bundleFirst + 1n);
      expect(traits).to.deep.equal({ Status: "Refunded", Round: 2, "Price tier": 1, "Price paid": String(perTicket) });
      expect(await stateOf(world, single)).to.deep.equal([2n, 0n, price.amount, TicketStatus.Refundable, false, 0n]);
    });

    it("announces a round below its minimum and a release of unclaimed prizes over the round's range", async () => {
      const { world, price, alice, bob } = await loadFixture(ticketFixture);
      // Round 1: two tickets, one drawn winner left unclaimed until the merchant releases the prize.
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [0n])).wait();
      await time.increase(ONE_DAY);
      await expect(world.raffle.releasePrize(1n)).to.emit(world.ticket, "BatchMetadataUpdate").withArgs(1n, 2n);
      expect(await stateOf(world, 1n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.PrizeReleased, true, 0n]);
      expect((await metadataOf(world, 1n)).traits.Status).to.equal("Prize released");
      expect(await stateOf(world, 2n)).to.deep.equal([1n, 0n, price.amount, TicketStatus.Lost, false, 0n]);

      // Round 2 needs three tickets and sells one: ending it makes the round refundable, announced at once.
      await setRules(world, { minTickets: 3 });
      await startErc20Round(world);
      const lone = await buyTicket(world, alice, price);
      await expect(world.raffle.endRound()).to.emit(world.ticket, "MetadataUpdate").withArgs(lone);
      expect(await stateOf(world, lone)).to.deep.equal([2n, 0n, price.amount, TicketStatus.Refundable, false, 0n]);
    });

    it("builds valid JSON from a hostile base URI, and answers nothing for a ticket never minted", async () => {
      const { world, price, alice } = await loadFixture(ticketFixture);
      const ticketId = await buyTicket(world, alice, price);
      const hostile = 'https://x.test/"},{"trait_type":"Status","value":"Won, prize unclaimed"}],"a":"\\\n/';
      await expect(world.ticket.connect(world.merchant).setBaseURI(hostile)).to.emit(world.ticket, "BatchMetadataUpdate").withArgs(1n, MaxUint256);
      const { json, traits } = await metadataOf(world, ticketId);
      expect(json.image).to.equal(`${hostile}${ticketId}`);
      expect(traits.Status).to.equal("Open");
      expect(json.attributes).to.have.length(4);

      for (const missing of [0n, 42n]) {
        await expect(world.ticket.ticketState(missing)).to.be.revertedWithCustomError(world.ticket, "TicketDoesNotExist").withArgs(missing);
        await expect(world.ticket.tokenURI(missing)).to.be.revertedWithCustomError(world.ticket, "TicketDoesNotExist").withArgs(missing);
      }
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
