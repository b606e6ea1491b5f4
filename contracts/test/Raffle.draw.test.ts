import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { anyValue } from "@nomicfoundation/hardhat-chai-matchers/withArgs";
import { AbiCoder, MaxUint256, concat, dataSlice, id, type ContractTransactionResponse } from "ethers";

import type { VRFCoordinatorV2_5Mock } from "@raffle/chain";

import { DEFAULT_VRF, KEY_HASH } from "./support/fixtures";
import { latestTimestamp } from "./support/vouchers";
import {
  PrizeStatus,
  RoundStatus,
  approveExchange,
  buyTicket,
  buyTickets,
  claimRoundPrize,
  deployWorld,
  endRound,
  impersonate,
  mockWord,
  purchase,
  startErc20Round,
  voucherFor,
  winnersOf,
} from "./support/scenario";

/** `extraArgs` of a VRF v2.5 request paid in LINK: the V1 tag followed by abi.encode(ExtraArgsV1(false)). */
const LINK_PAYMENT_EXTRA_ARGS = concat([dataSlice(id("VRF ExtraArgsV1"), 0, 4), AbiCoder.defaultAbiCoder().encode(["tuple(bool)"], [[false]])]);

async function drawFixture() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const [alice, bob, carol, dave] = world.players;
  await approveExchange(world, [alice, bob, carol, dave]);
  const { subscriptionId } = await world.factory.vrfConfig();
  return { world, price, alice, bob, carol, dave, subscriptionId };
}

async function threeTicketsDrawingFixture() {
  const fixture = await drawFixture();
  const { world, price, alice, bob, carol } = fixture;
  const tickets = [await buyTicket(world, alice, price), await buyTicket(world, bob, price), await buyTicket(world, carol, price)];
  const requestId = await endRound(world);
  return { ...fixture, tickets, owners: [alice, bob, carol], requestId };
}

const MANY = 300;

async function manyTicketsDrawingFixture() {
  const fixture = await drawFixture();
  const { world, price, alice, bob, carol, dave } = fixture;
  const owners = await buyTickets(world, [alice, bob, carol, dave], price, MANY);
  const requestId = await endRound(world);
  return { ...fixture, owners, requestId };
}

/** Parses the mock's RandomWordsFulfilled event: the mock never reverts when the consumer does. */
async function fulfilment(vrf: VRFCoordinatorV2_5Mock, tx: Promise<ContractTransactionResponse>) {
  const receipt = await (await tx).wait();
  for (const log of receipt!.logs) {
    const parsed = vrf.interface.parseLog(log);
    if (parsed?.name === "RandomWordsFulfilled") return { success: parsed.args.success as boolean, receipt };
  }
  throw new Error("no RandomWordsFulfilled event");
}

describe("Raffle draw (endRound and VRF fulfilment)", () => {
  describe("endRound with 0 tickets", () => {
    it("closes the round with no winner and no VRF request", async () => {
      const { world } = await loadFixture(drawFixture);
      const tx = world.raffle.endRound();
      await expect(tx).to.emit(world.raffle, "RoundEnded").withArgs(1n, 0n, 0n);
      await expect(tx).not.to.emit(world.raffle, "WinnersDrawn");
      await expect(tx).not.to.emit(world.vrf, "RandomWordsRequested");

      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Closed);
      expect(round.winningTicketId).to.equal(0n);
      expect(round.vrfRequestId).to.equal(0n);
      expect(round.drawnAt).to.equal(0n);
      expect((await world.raffle.getCurrentRoundInfo()).prizeNumber).to.equal(0n);
      await expect(claimRoundPrize(world, world.merchant, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Closed);
      await expect(world.raffle.enableRefunds(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Closed);
    });
  });

  describe("endRound with 1 ticket", () => {
    it("makes the only ticket win at once, flags it, and asks no randomness", async () => {
      const { world, price, alice } = await loadFixture(drawFixture);
      const ticketId = await buyTicket(world, alice, price);
      const tx = world.raffle.endRound();
      await expect(tx).to.emit(world.raffle, "RoundEnded").withArgs(1n, 1n, 0n);
      await expect(tx).to.emit(world.raffle, "WinnersDrawn").withArgs(1n, 0n, [ticketId]);
      await expect(tx).not.to.emit(world.raffle, "RandomnessReceived");
      await expect(tx).not.to.emit(world.vrf, "RandomWordsRequested");

      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Drawn);
      expect(round.winningTicketId).to.equal(ticketId);
      expect(round.drawnAt).to.equal(await latestTimestamp());
      expect((await world.raffle.getCurrentRoundInfo()).prizeNumber).to.equal(ticketId);
      // Flagged: the round's only winner, its prize unclaimed.
      expect(await winnersOf(world, 1n)).to.deep.equal([[ticketId, PrizeStatus.Unclaimed]]);
    });
  });

  describe("endRound with many tickets", () => {
    it("asks the coordinator for one word with the raffle's VRF settings and waits in Drawing", async () => {
      const { world, price, alice, bob, subscriptionId } = await loadFixture(drawFixture);
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      const tx = world.raffle.endRound();
      await expect(tx)
        .to.emit(world.vrf, "RandomWordsRequested")
        .withArgs(
          KEY_HASH,
          1n,
          anyValue,
          subscriptionId,
          DEFAULT_VRF.requestConfirmations,
          DEFAULT_VRF.callbackGasLimit,
          1n,
          LINK_PAYMENT_EXTRA_ARGS,
          await world.factory.getAddress(),
        );
      await expect(tx)
        .to.emit(world.factory, "DrawRequested")
        .withArgs(world.address, 1n, await world.vrf.getAddress(), 1n);
      await expect(tx).to.emit(world.raffle, "RoundEnded").withArgs(1n, 2n, 1n);
      await expect(tx).not.to.emit(world.raffle, "WinnersDrawn");

      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Drawing);
      expect(round.vrfRequestId).to.equal(1n);
      expect(round.coordinator).to.equal(await world.vrf.getAddress());
      expect(round.refundableAt).to.equal((await latestTimestamp()) + BigInt(DEFAULT_VRF.randomnessTimeout));
      expect(round.winningTicketId).to.equal(0n);
      expect((await world.raffle.getCurrentRoundInfo()).prizeNumber).to.equal(0n);
      await expect(purchase(world, alice, await voucherFor(world, alice, price))).to.be.revertedWithCustomError(world.raffle, "NoActiveRound");
      await expect(claimRoundPrize(world, world.merchant, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Drawing);
    });

    it("records winner = firstTicketId + word % ticketCount when the coordinator answers", async () => {
      const { world, tickets, owners, requestId } = await loadFixture(threeTicketsDrawingFixture);
      const word = mockWord(requestId);
      const round = await world.raffle.getRound(1n);
      const winner = round.firstTicketId + (word % round.ticketCount);
      expect(tickets).to.include(winner);

      const tx = world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress());
      await expect(tx).to.emit(world.raffle, "WinnersDrawn").withArgs(1n, word, [winner]);
      await expect(tx).to.emit(world.raffle, "RandomnessReceived").withArgs(1n, word);
      await expect(tx).to.emit(world.vrf, "RandomWordsFulfilled").withArgs(requestId, requestId, anyValue, anyValue, false, true, false);

      const drawn = await world.raffle.getRound(1n);
      expect(drawn.status).to.equal(RoundStatus.Drawn);
      expect(drawn.winningTicketId).to.equal(winner);
      expect(drawn.drawnAt).to.equal(await latestTimestamp());
      expect((await world.raffle.getCurrentRoundInfo()).prizeNumber).to.equal(winner);
      expect(drawn.randomWord).to.equal(word);
      // The winner alone holds a prize; no other ticket is among the winners.
      expect(await winnersOf(world, 1n)).to.deep.equal([[winner, PrizeStatus.Unclaimed]]);
      expect(await world.ticket.ownerOf(winner)).to.equal(owners[Number(winner - round.firstTicketId)].address);
    });

    it("uses the override word exactly: words 0, 1 and 2 hit tickets 1, 2 and 3", async () => {
      for (const word of [0n, 1n, 2n, 3n, 5n]) {
        const { world, requestId } = await loadFixture(threeTicketsDrawingFixture);
        await expect(world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word]))
          .to.emit(world.raffle, "WinnersDrawn")
          .withArgs(1n, word, [1n + (word % 3n)]);
      }
    });
  });

  describe(`a fair draw over ${MANY} tickets (more than 256)`, () => {
    const cases: Array<[string, bigint]> = [
      ["word 0 -> the first ticket", 0n],
      [`word ${MANY - 1} -> the last ticket`, BigInt(MANY - 1)],
      ["word 256 -> index 256 (no uint8 truncation)", 256n],
      ["word 2^255 + 299", 2n ** 255n + 299n],
      ["a 2^255-sized word that lands on the last ticket", 2n ** 255n - (2n ** 255n % BigInt(MANY)) + BigInt(MANY - 1)],
      ["word 2^256 - 1", MaxUint256],
      ["a word equal to the ticket count wraps to the first ticket", BigInt(MANY)],
    ];
    for (const [name, word] of cases) {
      it(name, async () => {
        const { world, owners, requestId } = await loadFixture(manyTicketsDrawingFixture);
        const round = await world.raffle.getRound(1n);
        expect(round.ticketCount).to.equal(BigInt(MANY));
        const index = word % BigInt(MANY);
        const winner = round.firstTicketId + index;

        const { success } = await fulfilment(
          world.vrf,
          world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word]),
        );
        expect(success).to.equal(true);
        const drawn = await world.raffle.getRound(1n);
        expect(drawn.status).to.equal(RoundStatus.Drawn);
        expect(drawn.winningTicketId).to.equal(winner);
        expect(await world.ticket.ownerOf(winner)).to.equal(owners[Number(index)].address);
        expect(winner - drawn.firstTicketId + 1n).to.equal(index + 1n); // its serial in the round
        expect(await world.raffle.roundOfTicket(winner)).to.equal(1n);
      });
    }

    it("reaches indexes above 255 that a uint8 index could never reach", async () => {
      const { world, requestId } = await loadFixture(manyTicketsDrawingFixture);
      // A word with the top bit set whose residue is 280.
      const word = 2n ** 255n - (2n ** 255n % BigInt(MANY)) + 280n;
      const index = word % BigInt(MANY);
      expect(index).to.be.greaterThan(255n); // the case is only meaningful if it does
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
      const winning = (await world.raffle.getRound(1n)).winningTicketId;
      expect(winning).to.equal(1n + index);
      expect(winning).not.to.equal(1n + (index % 256n));
    });

    it("maps arbitrary full-width words by modulo over the whole ticket range", async () => {
      for (let i = 0; i < 8; i += 1) {
        const { world, requestId } = await loadFixture(manyTicketsDrawingFixture);
        const word = BigInt(ethers.keccak256(ethers.toUtf8Bytes(`word-${i}`)));
        await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
        expect((await world.raffle.getRound(1n)).winningTicketId).to.equal(1n + (word % BigInt(MANY)));
      }
    });
  });

  describe("rawFulfillRandomWords (on the factory, the one VRF consumer) and fulfillDraw", () => {
    it("reverts with UnknownVrfRequest for any caller but the coordinator the round asked", async () => {
      const { world, alice, requestId } = await loadFixture(threeTicketsDrawingFixture);
      for (const caller of [alice, world.merchant, world.admin]) {
        await expect(world.factory.connect(caller).rawFulfillRandomWords(requestId, [1n]))
          .to.be.revertedWithCustomError(world.factory, "UnknownVrfRequest")
          .withArgs(caller.address, requestId);
      }
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
    });

    it("lets only the factory deliver a word to the raffle", async () => {
      const { world, alice, requestId } = await loadFixture(threeTicketsDrawingFixture);
      const coordinator = await impersonate(await world.vrf.getAddress());
      for (const caller of [alice, world.merchant, world.admin, coordinator]) {
        await expect(world.raffle.connect(caller).fulfillDraw(1n, requestId, 1n))
          .to.be.revertedWithCustomError(world.raffle, "CallerNotFactory")
          .withArgs(caller.address);
      }
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
    });

    it("refuses a request id it never sent, and ignores an empty word list without reverting", async () => {
      const { world, requestId } = await loadFixture(threeTicketsDrawingFixture);
      const coordinatorAddress = await world.vrf.getAddress();
      const coordinator = await impersonate(coordinatorAddress);
      const asCoordinator = world.factory.connect(coordinator);
      await expect(asCoordinator.rawFulfillRandomWords(requestId + 100n, [7n]))
        .to.be.revertedWithCustomError(world.factory, "UnknownVrfRequest")
        .withArgs(coordinatorAddress, requestId + 100n);
      await expect(asCoordinator.rawFulfillRandomWords(0n, [7n])).to.be.revertedWithCustomError(world.factory, "UnknownVrfRequest");
      await expect(asCoordinator.rawFulfillRandomWords(requestId, [])).not.to.emit(world.raffle, "WinnersDrawn");
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);

      await expect(asCoordinator.rawFulfillRandomWords(requestId, [7n]))
        .to.emit(world.raffle, "WinnersDrawn")
        .withArgs(1n, 7n, [1n + (7n % 3n)]);
    });

    it("ignores a duplicate answer: the first word decides", async () => {
      const { world, requestId } = await loadFixture(threeTicketsDrawingFixture);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [0n])).wait();
      const coordinator = await impersonate(await world.vrf.getAddress());
      await expect(world.factory.connect(coordinator).rawFulfillRandomWords(requestId, [2n])).not.to.emit(world.raffle, "WinnersDrawn");
      const round = await world.raffle.getRound(1n);
      expect(round.winningTicketId).to.equal(1n);
      expect(round.randomWord).to.equal(0n);
      expect(await winnersOf(world, 1n)).to.deep.equal([[1n, PrizeStatus.Unclaimed]]);
    });

    it("ignores a late answer once the round became refundable", async () => {
      const { world, requestId } = await loadFixture(threeTicketsDrawingFixture);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await expect(world.raffle.enableRefunds(1n)).to.emit(world.raffle, "RoundRefundable").withArgs(1n);

      const tx = world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress());
      await expect(tx).not.to.emit(world.raffle, "WinnersDrawn");
      const { success } = await fulfilment(world.vrf, tx);
      expect(success).to.equal(true); // ignored, not reverted
      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Refundable);
      expect(round.winningTicketId).to.equal(0n);
      expect(round.randomWord).to.equal(0n);
      expect(await world.raffle.getWinners(1n)).to.deep.equal([]);
    });

    it("keeps the requests of two rounds apart, whatever order they are answered in", async () => {
      const { world, price, alice, bob, carol, requestId } = await loadFixture(threeTicketsDrawingFixture);
      await startErc20Round(world);
      await buyTicket(world, alice, price); // ticket 4
      await buyTicket(world, bob, price); // ticket 5
      await buyTicket(world, carol, price); // ticket 6
      await buyTicket(world, carol, price); // ticket 7
      const secondRequest = await endRound(world);
      expect(secondRequest).not.to.equal(requestId);

      await expect(world.vrf.fulfillRandomWordsWithOverride(secondRequest, await world.factory.getAddress(), [6n]))
        .to.emit(world.raffle, "WinnersDrawn")
        .withArgs(2n, 6n, [4n + (6n % 4n)]);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
      await expect(world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [6n]))
        .to.emit(world.raffle, "WinnersDrawn")
        .withArgs(1n, 6n, [1n + (6n % 3n)]);
      expect((await world.raffle.getRound(2n)).winningTicketId).to.equal(6n);
      expect((await world.raffle.getRound(1n)).winningTicketId).to.equal(1n);
    });
  });
});
