import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { anyValue } from "@nomicfoundation/hardhat-chai-matchers/withArgs";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { keccak256, toBeHex } from "ethers";

import { COMMISSION_BPS, DEFAULT_VRF, TICKET_PRICE, deployPlatform, deployRaffle, ticketAsset } from "./support/fixtures";
import {
  PrizeStatus,
  RoundStatus,
  approveExchange,
  buyBundle,
  buyTicket,
  claimPrizes,
  deployWorld,
  drawWinners,
  endRound,
  impersonate,
  plainAsset,
  purchase,
  refundTickets,
  setRules,
  startErc20Round,
  voucherFor,
  type RaffleWorld,
} from "./support/scenario";

const UNIT = TICKET_PRICE / 10n; // prices below are in tenths of the round's price: "1 for 10, 5 for 45, 10 for 80"
const BUNDLES: [bigint, bigint][] = [
  [5n, 45n * UNIT],
  [10n, 80n * UNIT],
];
const PODIUM = [5_000, 3_000, 2_000];

async function worldFixture() {
  const world = await deployWorld();
  await approveExchange(world, world.players.slice(0, 6));
  return world;
}

async function bundleRoundFixture() {
  const world = await worldFixture();
  await setRules(world, { bundles: BUNDLES });
  const price = await startErc20Round(world);
  return { world, price };
}

async function podiumRoundFixture() {
  const world = await worldFixture();
  await setRules(world, { prizeShares: PODIUM, minTickets: 3, bundles: BUNDLES });
  const price = await startErc20Round(world);
  return { world, price };
}

/** A world whose VRF settings have `callbackGasLimit` (set before its raffle exists, so at once), with twenty prizes
 * and twenty tickets sold, ended: the VRF request id. */
async function twentyOfTwentyAt(gas: bigint | "minimum") {
  const platform = await deployPlatform();
  const current = await platform.factory.vrfConfig();
  const callbackGasLimit = gas === "minimum" ? await platform.factory.MIN_CALLBACK_GAS_LIMIT() : gas;
  await (
    await platform.factory.proposeVrfConfig({
      coordinator: current.coordinator,
      keyHash: current.keyHash,
      subscriptionId: current.subscriptionId,
      callbackGasLimit,
      requestConfirmations: current.requestConfirmations,
      randomnessTimeout: current.randomnessTimeout,
    })
  ).wait();
  const deployed = await deployRaffle(platform);
  const world: RaffleWorld = { ...platform, ...deployed, item: ticketAsset(deployed.ticketAddress) };
  await approveExchange(world, world.players.slice(0, 2));
  await setRules(world, { prizeShares: Array(20).fill(500) as number[] });
  await startErc20Round(world);
  for (const buyer of world.players.slice(0, 2)) await buyBundle(world, buyer, 10n);
  return { world, requestId: await endRound(world) };
}

/** The VRF v2.5 mock's own report of whether the consumer's callback succeeded. */
async function callbackSucceeded(world: RaffleWorld, requestId: bigint, word: bigint): Promise<boolean> {
  const receipt = await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
  for (const log of receipt!.logs) {
    const parsed = world.vrf.interface.parseLog(log);
    if (parsed?.name === "RandomWordsFulfilled") return parsed.args.success as boolean;
  }
  throw new Error("no RandomWordsFulfilled event");
}

/** A word whose twenty-of-twenty draw takes 252 candidates (most words take about 72; each costs about 1,900 gas):
 * the costliest of the first 20,000 words. */
const SLOW_WORD = 14_020n;
const atMinimumCallbackGas = () => twentyOfTwentyAt("minimum");
/** Enough gas by the per-winner estimate for a usual word, not for SLOW_WORD's re-hashes. */
const at400kCallbackGas = () => twentyOfTwentyAt(400_000n);

async function fulfil(world: RaffleWorld, requestId: bigint, word: bigint) {
  await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
}

/** Ten tickets over four buyers (a bundle of 5 for alice, then singles and a pair), ended and drawn with `word`. */
async function drawnPodium(world: RaffleWorld, word: bigint) {
  const [alice, bob, carol, dave] = world.players;
  await buyBundle(world, alice, 5n);
  await buyBundle(world, bob, 2n);
  for (const buyer of [carol, dave, carol]) await buyTicket(world, buyer, plainAsset(await world.raffle.priceOf(1n)));
  const { roundId } = await world.raffle.getCurrentRoundInfo();
  const requestId = await endRound(world);
  await fulfil(world, requestId, word);
  return roundId;
}

async function tokenBalance(world: RaffleWorld, who: HardhatEthersSigner) {
  return world.token.balanceOf(who.address);
}

/** The player holding `ticketId`. */
async function holderOf(world: RaffleWorld, ticketId: bigint): Promise<HardhatEthersSigner> {
  const owner = await world.ticket.ownerOf(ticketId);
  const holder = world.players.find((player) => player.address === owner);
  if (!holder) throw new Error(`ticket ${ticketId} is held by ${owner}, not a player`);
  return holder;
}

describe("Raffle round rules and several winners", () => {
  describe("round rules", () => {
    it("starts with one winner taking the pot, no minimum, no cap and no bundles", async () => {
      const world = await loadFixture(worldFixture);
      const rules = await world.raffle.roundRules();
      expect(rules.prizeShares).to.deep.equal([10_000n]);
      expect(rules.minTickets).to.equal(0n);
      expect(rules.maxTicketsPerWallet).to.equal(0n);
      expect(rules.bundles).to.deep.equal([]);
    });

    it("lets only the raffle's admin set them", async () => {
      const world = await loadFixture(worldFixture);
      const [alice] = world.players;
      const managerRole = await world.raffle.ROUND_MANAGER_ROLE();
      await (await world.raffle.grantRole(managerRole, alice.address)).wait();
      const rules = { prizeShares: [10_000], minTickets: 0, maxTicketsPerWallet: 0, bundles: [] };
      await expect(world.raffle.connect(alice).setRoundRules(rules))
        .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
        .withArgs(alice.address, await world.raffle.DEFAULT_ADMIN_ROLE());
    });

    it("refuses prize shares that are empty, too many, zero or not summing to 10,000", async () => {
      const world = await loadFixture(worldFixture);
      const cases: [number[], number, number][] = [
        [[], 0, 0],
        [Array(21).fill(500) as number[], 21, 10_500],
        [[5_000, 4_999], 2, 9_999],
        [[10_000, 0], 2, 10_000],
      ];
      for (const [prizeShares, count, sum] of cases) {
        await expect(setRules(world, { prizeShares })).to.be.revertedWithCustomError(world.raffle, "InvalidPrizeShares").withArgs(count, sum);
      }
      await setRules(world, { prizeShares: Array(20).fill(500) as number[] });
      expect((await world.raffle.roundRules()).prizeShares).to.have.length(20);
    });

    it("refuses bundles of one ticket, out of order, not dividing evenly, dearer per ticket, too big or too many", async () => {
      const world = await loadFixture(worldFixture);
      const cases: [[bigint, bigint][], number][] = [
        [[[1n, 10n]], 0],
        [
          [
            [5n, 45n],
            [5n, 40n],
          ],
          1,
        ],
        [
          [
            [10n, 80n],
            [5n, 40n],
          ],
          1,
        ],
        [[[3n, 25n]], 0],
        [
          [
            [5n, 40n],
            [10n, 90n],
          ],
          1,
        ],
        [[[5n, 0n]], 0],
        [[[101n, 101n]], 0],
        [Array.from({ length: 6 }, (_, i) => [BigInt(i + 2), BigInt(i + 2)] as [bigint, bigint]), 5],
      ];
      for (const [bundles, index] of cases) {
        await expect(
          setRules(world, { bundles }),
          JSON.stringify(bundles, (_, v) => (typeof v === "bigint" ? String(v) : v)),
        )
          .to.be.revertedWithCustomError(world.raffle, "InvalidBundle")
          .withArgs(index);
      }
    });

    it("fixes the rules in force into each round: a change reaches the next round, never the running one", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: PODIUM, minTickets: 3 });
      await expect(startErc20Round(world)).to.not.be.reverted;
      await setRules(world, { prizeShares: [10_000], maxTicketsPerWallet: 2 });
      expect((await world.raffle.getRoundRules(1n)).prizeShares).to.deep.equal([5_000n, 3_000n, 2_000n]);
      expect((await world.raffle.getRound(1n)).winnersCount).to.equal(3n);
      expect((await world.raffle.roundRules()).maxTicketsPerWallet).to.equal(2n);
      // The running round keeps no cap: a third ticket for one buyer still sells.
      const [alice] = world.players;
      await buyBundle(world, alice, 3n);
      await endRound(world);
      const tx = startErc20Round(world);
      await expect(tx).to.not.be.reverted;
      const rules = await world.raffle.getRoundRules(2n);
      expect(rules.prizeShares).to.deep.equal([10_000n]);
      expect(rules.maxTicketsPerWallet).to.equal(2n);
    });

    it("emits the rules a round plays by when it starts", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: PODIUM, minTickets: 3, bundles: BUNDLES });
      const price = { tokenType: 1, token: await world.token.getAddress(), tokenId: 0n, amount: TICKET_PRICE };
      await expect(world.raffle.connect(world.merchant).startRound(world.item, price, 0n))
        .to.emit(world.raffle, "RoundRulesApplied")
        .withArgs(1n, 1n, [
          [5_000n, 3_000n, 2_000n],
          3n,
          0n,
          [
            [5n, 45n * UNIT],
            [10n, 80n * UNIT],
          ],
        ]);
    });

    it("refuses a round whose bundles cost more per ticket than its price, or whose cap is below its minimum", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { bundles: [[5n, 5n * (TICKET_PRICE + 1n)]] });
      await expect(startErc20Round(world)).to.be.revertedWithCustomError(world.raffle, "BundleAboveRoundPrice").withArgs(0);
      await setRules(world, { prizeShares: PODIUM, minTickets: 5 });
      await expect(startErc20Round(world, 4n)).to.be.revertedWithCustomError(world.raffle, "MaxTicketBelowMinimum").withArgs(4n, 5n);
      await expect(startErc20Round(world, 5n)).to.not.be.reverted;
    });
  });

  describe("many tickets in one purchase", () => {
    it("prices a quantity at the per-ticket price of the largest bundle not above it", async () => {
      const { world } = await loadFixture(bundleRoundFixture);
      const expected: Record<number, bigint> = { 1: 10n, 3: 30n, 4: 40n, 5: 45n, 7: 63n, 9: 81n, 10: 80n, 12: 96n, 100: 800n };
      for (const [quantity, tenths] of Object.entries(expected)) {
        expect((await world.raffle.priceOf(BigInt(quantity))).amount, `quantity ${quantity}`).to.equal(tenths * UNIT);
      }
      await expect(world.raffle.priceOf(0n)).to.be.revertedWithCustomError(world.raffle, "InvalidQuantity").withArgs(0n, 100n);
      await expect(world.raffle.priceOf(101n)).to.be.revertedWithCustomError(world.raffle, "InvalidQuantity").withArgs(101n, 100n);
    });

    it("mints consecutive tickets to the buyer in one purchase and takes the bundle's price", async () => {
      const { world } = await loadFixture(bundleRoundFixture);
      const [alice] = world.players;
      const before = await tokenBalance(world, alice);
      const price = plainAsset(await world.raffle.priceOf(7n));
      const voucher = await voucherFor(world, alice, price, { item: { ...world.item, amount: 7n }, externalId: 42n });
      await expect(purchase(world, alice, voucher))
        .to.emit(world.raffle, "TicketsPurchased")
        .withArgs(1n, alice.address, 1n, 7n, 63n * UNIT, 42n);
      expect(before - (await tokenBalance(world, alice))).to.equal(63n * UNIT);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(7n);
      for (let id = 1n; id <= 7n; id += 1n) expect(await world.ticket.ownerOf(id)).to.equal(alice.address);
      const round = await world.raffle.getRound(1n);
      expect(round.ticketCount).to.equal(7n);
      expect(round.pot).to.equal(63n * UNIT);
    });

    it("refuses a price other than the rules give for the quantity", async () => {
      const { world } = await loadFixture(bundleRoundFixture);
      const [alice] = world.players;
      const single = plainAsset(await world.raffle.priceOf(1n));
      for (const amount of [single.amount * 5n, 45n * UNIT - 1n, 45n * UNIT + 1n]) {
        const voucher = await voucherFor(world, alice, { ...single, amount }, { item: { ...world.item, amount: 5n } });
        await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
      }
    });

    it("refuses 0 or more than 100 tickets in one purchase", async () => {
      const { world } = await loadFixture(bundleRoundFixture);
      const [alice] = world.players;
      for (const quantity of [0n, 101n]) {
        const voucher = await voucherFor(
          world,
          alice,
          { ...(await startPrice(world)), amount: quantity * TICKET_PRICE },
          { item: { ...world.item, amount: quantity } },
        );
        await expect(purchase(world, alice, voucher))
          .to.be.revertedWithCustomError(world.raffle, "InvalidQuantity")
          .withArgs(quantity, 100n);
      }
    });

    it("refuses a purchase of more tickets than the round has left, and sells the exact rest", async () => {
      const world = await loadFixture(worldFixture);
      await startErc20Round(world, 10n);
      const [alice, bob] = world.players;
      await buyBundle(world, alice, 7n);
      const price = plainAsset(await world.raffle.priceOf(4n));
      const voucher = await voucherFor(world, bob, price, { item: { ...world.item, amount: 4n } });
      await expect(purchase(world, bob, voucher))
        .to.be.revertedWithCustomError(world.raffle, "RoundFull")
        .withArgs(10n, 3n);
      await buyBundle(world, bob, 3n);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(10n);
    });

    it("caps the tickets one wallet buys in a round, whoever else buys and whatever it transfers away", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { maxTicketsPerWallet: 3 });
      await startErc20Round(world);
      const [alice, bob] = world.players;
      const first = await buyBundle(world, alice, 2n);
      await (await world.ticket.connect(alice).transferFrom(alice.address, bob.address, first)).wait();
      await buyTicket(world, alice, plainAsset(await world.raffle.priceOf(1n)));
      const price = plainAsset(await world.raffle.priceOf(1n));
      await expect(purchase(world, alice, await voucherFor(world, alice, price)))
        .to.be.revertedWithCustomError(world.raffle, "WalletLimitReached")
        .withArgs(alice.address, 3n, 1n, 3n);
      await expect(
        purchase(world, bob, await voucherFor(world, bob, plainAsset(await world.raffle.priceOf(3n)), { item: { ...world.item, amount: 3n } })),
      ).to.emit(world.raffle, "TicketsPurchased");
      await expect(purchase(world, bob, await voucherFor(world, bob, price))).to.be.revertedWithCustomError(world.raffle, "WalletLimitReached");
    });
  });

  describe("minimum tickets and refunds", () => {
    it("refunds every ticket of a round below its minimum at once, without asking randomness", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const [alice, bob] = world.players;
      await buyTicket(world, alice, plainAsset(await world.raffle.priceOf(1n)));
      await buyTicket(world, bob, plainAsset(await world.raffle.priceOf(1n)));
      const tx = world.raffle.connect(world.merchant).endRound();
      await expect(tx).to.emit(world.raffle, "MinimumNotReached").withArgs(1n, 2n, 3n);
      await expect(tx).to.emit(world.raffle, "RoundRefundable").withArgs(1n);
      await expect(tx).to.not.emit(world.factory, "DrawRequested");
      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Refundable);
      expect(round.vrfRequestId).to.equal(0n);
      const before = await tokenBalance(world, bob);
      await (await refundTickets(world, bob, [1n, 2n])).wait();
      expect((await tokenBalance(world, bob)) - before).to.equal(TICKET_PRICE);
    });

    it("refunds a round with fewer tickets than winners even without a minimum", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: PODIUM });
      await startErc20Round(world);
      await buyBundle(world, world.players[0], 2n);
      await expect(world.raffle.connect(world.merchant).endRound()).to.emit(world.raffle, "MinimumNotReached").withArgs(1n, 2n, 3n);
    });

    it("pays each ticket back what it paid, bundle or single, in one call across rounds, and only once", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const [alice] = world.players;
      await buyBundle(world, alice, 2n); // tickets 1-2 at 10 each; round 1 ends below its minimum of 3
      await endRound(world);
      await startErc20Round(world);
      await buyBundle(world, alice, 5n); // tickets 3-7 at 9 each (the bundle of 5 for 45)
      const requestId = await endRound(world);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await (await world.raffle.enableRefunds(2n)).wait();
      expect(requestId).to.not.equal(0n);

      const tickets: [bigint, bigint][] = [
        [1n, 1n],
        [1n, 2n],
        [2n, 3n],
        [2n, 7n],
      ];
      const before = await tokenBalance(world, alice);
      const tx = refundTickets(world, alice, ...tickets);
      await expect(tx)
        .to.emit(world.raffle, "TicketRefunded")
        .withArgs(2n, 3n, alice.address, 9n * UNIT);
      await expect(tx)
        .to.emit(world.raffle, "TicketRefunded")
        .withArgs(1n, 1n, alice.address, 10n * UNIT);
      expect((await tokenBalance(world, alice)) - before).to.equal(2n * 10n * UNIT + 2n * 9n * UNIT);
      await expect(refundTickets(world, alice, [2n, 3n])).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
      // The rest of round 2 comes back too, so the raffle ends holding nothing of either round.
      await (await refundTickets(world, alice, [2n, 4n], [2n, 5n], [2n, 6n])).wait();
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
    });

    it("refuses a ticket named with the wrong round, an empty batch and a batch above 100", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const [alice] = world.players;
      await buyBundle(world, alice, 2n);
      await endRound(world);
      await expect(refundTickets(world, alice, [1n, 3n]))
        .to.be.revertedWithCustomError(world.raffle, "TicketNotInRound")
        .withArgs(1n, 3n);
      await expect(refundTickets(world, alice)).to.be.revertedWithCustomError(world.raffle, "InvalidBatchSize").withArgs(0n, 100n);
      const many = Array.from({ length: 101 }, () => [1n, 1n] as [bigint, bigint]);
      await expect(refundTickets(world, alice, ...many))
        .to.be.revertedWithCustomError(world.raffle, "InvalidBatchSize")
        .withArgs(101n, 100n);
    });
  });

  describe("several winners", () => {
    it("draws distinct tickets of the round from one word by the README's rule and records them", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const word = 0xfeedn;
      const roundId = await drawnPodium(world, word);
      const round = await world.raffle.getRound(roundId);
      const expected = drawWinners(word, round.firstTicketId, round.ticketCount, 3);
      const winners = await world.raffle.getWinners(roundId);
      expect(winners.map((winner) => winner.ticketId)).to.deep.equal(expected);
      expect(new Set(expected).size).to.equal(3);
      expect(round.status).to.equal(RoundStatus.Drawn);
      expect(round.randomWord).to.equal(word);
      expect(round.winningTicketId).to.equal(expected[0]);
      expect((await world.raffle.getCurrentRoundInfo()).prizeNumber).to.equal(expected[0]);
    });

    it("emits the word and every winner", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const [alice] = world.players;
      await buyBundle(world, alice, 10n);
      const requestId = await endRound(world);
      const tx = world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [7n]);
      await expect(tx).to.emit(world.raffle, "RandomnessReceived").withArgs(1n, 7n);
      await expect(tx)
        .to.emit(world.raffle, "WinnersDrawn")
        .withArgs(1n, 7n, drawWinners(7n, 1n, 10n, 3));
    });

    it("re-hashes past a ticket already drawn instead of taking its neighbour", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: PODIUM });
      await startErc20Round(world);
      await buyBundle(world, world.players[0], 3n);
      // A word whose first two candidates are the same ticket: the second position must come from a later hash.
      let word = 1n;
      while (word % 3n !== BigInt(keccak256(toBeHex(word, 32))) % 3n) word += 1n;
      const requestId = await endRound(world);
      await fulfil(world, requestId, word);
      const ids = (await world.raffle.getWinners(1n)).map((winner) => winner.ticketId);
      expect(ids).to.deep.equal(drawWinners(word, 1n, 3n, 3));
      expect([...ids].sort()).to.deep.equal([1n, 2n, 3n]);
    });

    it("splits the pot by shares to the last unit, the first prize taking the rounding", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const roundId = await drawnPodium(world, 12345n);
      const { pot } = await world.raffle.getRound(roundId);
      expect(pot).to.equal(45n * UNIT + 20n * UNIT + 30n * UNIT);
      const winners = await world.raffle.getWinners(roundId);
      expect(winners.map((winner) => winner.share)).to.deep.equal([5_000n, 3_000n, 2_000n]);
      expect(winners[1].amount).to.equal((pot * 3_000n) / 10_000n);
      expect(winners[2].amount).to.equal((pot * 2_000n) / 10_000n);
      expect(winners.reduce((sum, winner) => sum + winner.amount, 0n)).to.equal(pot);
      expect(winners.every((winner) => Number(winner.status) === PrizeStatus.Unclaimed)).to.equal(true);
    });

    it("pays each winner its share less commission, once, and closes the round when all are claimed", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const roundId = await drawnPodium(world, 99n);
      const winners = await world.raffle.getWinners(roundId);
      for (const [position, winner] of winners.entries()) {
        const signer = await holderOf(world, winner.ticketId);
        const before = await tokenBalance(world, signer);
        const commission = (winner.amount * COMMISSION_BPS) / 10_000n;
        await expect(claimPrizes(world, signer, [roundId, winner.ticketId]))
          .to.emit(world.raffle, "PrizeClaimed")
          .withArgs(roundId, winner.ticketId, signer.address, winner.amount - commission, commission);
        expect((await tokenBalance(world, signer)) - before).to.equal(winner.amount - commission);
        await expect(claimPrizes(world, signer, [roundId, winner.ticketId])).to.be.revertedWithCustomError(
          world.raffle,
          position === 2 ? "UnexpectedRoundStatus" : "NoPrizeToClaim",
        );
      }
      expect((await world.raffle.getRound(roundId)).status).to.equal(RoundStatus.Claimed);
      const statuses = (await world.raffle.getWinners(roundId)).map((winner) => Number(winner.status));
      expect(statuses).to.deep.equal([PrizeStatus.Claimed, PrizeStatus.Claimed, PrizeStatus.Claimed]);
    });

    it("refuses a ticket that did not win, and a winner claimed by someone who neither owns nor is approved", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const roundId = await drawnPodium(world, 5n);
      const winners = (await world.raffle.getWinners(roundId)).map((winner) => winner.ticketId);
      const loser = [...Array(10).keys()].map((i) => BigInt(i + 1)).find((id) => !winners.includes(id))!;
      const loserOwner = await holderOf(world, loser);
      await expect(claimPrizes(world, loserOwner, [roundId, loser]))
        .to.be.revertedWithCustomError(world.raffle, "NoPrizeToClaim")
        .withArgs(roundId, loser);
      const stranger = world.players[7];
      await expect(claimPrizes(world, stranger, [roundId, winners[0]]))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(winners[0], stranger.address);
    });

    it("claims prizes of several rounds in one call", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: [6_000, 4_000] });
      const [alice] = world.players;
      for (let round = 0; round < 2; round += 1) {
        await startErc20Round(world);
        await buyBundle(world, alice, 2n);
        const requestId = await endRound(world);
        await fulfil(world, requestId, BigInt(round + 11));
      }
      const tickets: [bigint, bigint][] = [];
      for (const roundId of [1n, 2n]) {
        for (const winner of await world.raffle.getWinners(roundId)) tickets.push([roundId, winner.ticketId]);
      }
      const before = await tokenBalance(world, alice);
      await (await claimPrizes(world, alice, ...tickets)).wait();
      const pots = 4n * TICKET_PRICE;
      expect((await tokenBalance(world, alice)) - before).to.equal(pots - (pots * COMMISSION_BPS) / 10_000n);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);
      expect((await world.raffle.getRound(2n)).status).to.equal(RoundStatus.Claimed);
    });

    it("releases only the unclaimed prizes after the time lag, and then refuses their claims", async () => {
      const { world } = await loadFixture(podiumRoundFixture);
      const roundId = await drawnPodium(world, 3n);
      const winners = await world.raffle.getWinners(roundId);
      const first = await holderOf(world, winners[0].ticketId);
      await (await claimPrizes(world, first, [roundId, winners[0].ticketId])).wait();
      await expect(world.raffle.connect(world.merchant).releasePrize(roundId)).to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet");
      await time.increase(24 * 60 * 60);
      const before = await world.token.balanceOf(world.merchant.address);
      await expect(world.raffle.connect(world.merchant).releasePrize(roundId))
        .to.emit(world.raffle, "PrizeReleased")
        .withArgs(roundId, world.merchant.address, winners[1].amount + winners[2].amount);
      expect((await world.token.balanceOf(world.merchant.address)) - before).to.equal(winners[1].amount + winners[2].amount);
      const statuses = (await world.raffle.getWinners(roundId)).map((winner) => Number(winner.status));
      expect(statuses).to.deep.equal([PrizeStatus.Claimed, PrizeStatus.Released, PrizeStatus.Released]);
      const second = await holderOf(world, winners[1].ticketId);
      await expect(claimPrizes(world, second, [roundId, winners[1].ticketId]))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(roundId, RoundStatus.Released);
      // Claimed + released + commission left to withdraw = the pot: nothing stays behind.
      const accrued = await world.raffle.accruedCommission(await world.token.getAddress());
      expect(await world.token.balanceOf(world.address)).to.equal(accrued);
    });

    it("leaves twenty winners to finishDraw when the callback cannot afford them, and anyone finishes it", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: Array(20).fill(500) as number[] });
      await startErc20Round(world);
      for (const buyer of world.players.slice(0, 3)) await buyBundle(world, buyer, 10n);
      const requestId = await endRound(world);
      const coordinator = await impersonate(await world.vrf.getAddress());
      await (await world.factory.connect(coordinator).rawFulfillRandomWords(requestId, [777n], { gasLimit: 150_000 })).wait();
      let round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.WinnersPending);
      expect(round.randomWord).to.equal(777n);
      expect(await world.raffle.getWinners(1n)).to.deep.equal([]);
      // The word arrived in time: the round can no longer be turned into refunds.
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await expect(world.raffle.enableRefunds(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");

      const stranger = world.players[7];
      await expect(world.raffle.connect(stranger).finishDraw(1n)).to.emit(world.raffle, "WinnersDrawn").withArgs(1n, 777n, anyValue);
      round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.Drawn);
      const ids = (await world.raffle.getWinners(1n)).map((winner) => winner.ticketId);
      expect(ids).to.deep.equal(drawWinners(777n, 1n, 30n, 20));
      await expect(world.raffle.finishDraw(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
    });

    it("draws twenty winners within the callback at the platform's default callback gas", async () => {
      const world = await loadFixture(worldFixture);
      await setRules(world, { prizeShares: Array(20).fill(500) as number[] });
      await startErc20Round(world);
      for (const buyer of world.players.slice(0, 2)) await buyBundle(world, buyer, 10n);
      const requestId = await endRound(world);
      await fulfil(world, requestId, 2n ** 255n + 1n);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      expect((await world.raffle.getWinners(1n)).map((winner) => winner.ticketId)).to.deep.equal(drawWinners(2n ** 255n + 1n, 1n, 20n, 20));
    });
  });

  describe("a word that arrived is always recorded", () => {
    it("keeps the word at the lowest callback gas limit allowed, twenty winners over twenty tickets, for finishDraw", async () => {
      const { world, requestId } = await loadFixture(atMinimumCallbackGas);
      expect(await callbackSucceeded(world, requestId, SLOW_WORD)).to.equal(true);
      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.WinnersPending);
      expect(round.randomWord).to.equal(SLOW_WORD);
      await expect(world.raffle.connect(world.players[7]).finishDraw(1n)).to.emit(world.raffle, "WinnersDrawn");
      const ids = (await world.raffle.getWinners(1n)).map((winner) => winner.ticketId);
      expect(ids).to.deep.equal(drawWinners(SLOW_WORD, 1n, 20n, 20));
    });

    it("keeps the word when the inline draw runs out of gas: the draw alone is undone, finishDraw draws", async () => {
      const { world, requestId } = await loadFixture(at400kCallbackGas);
      expect(await callbackSucceeded(world, requestId, SLOW_WORD)).to.equal(true);
      const round = await world.raffle.getRound(1n);
      expect(round.status).to.equal(RoundStatus.WinnersPending);
      expect(round.randomWord).to.equal(SLOW_WORD);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await expect(world.raffle.enableRefunds(1n)).to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus");
      await (await world.raffle.finishDraw(1n)).wait();
      expect((await world.raffle.getWinners(1n)).map((winner) => winner.ticketId)).to.deep.equal(drawWinners(SLOW_WORD, 1n, 20n, 20));
    });

    it("never reverts once the word is recorded, whatever gas the callback gets from the minimum up", async () => {
      const { world } = await loadFixture(at400kCallbackGas);
      const minimum = await world.factory.MIN_CALLBACK_GAS_LIMIT();
      for (let gas = minimum; gas <= 700_000n; gas += 25_000n) {
        const { world: fresh, requestId } = await loadFixture(at400kCallbackGas);
        const coordinator = await impersonate(await fresh.vrf.getAddress());
        // The callback's own gas is what the coordinator forwards; the transaction adds its intrinsic cost.
        await (await fresh.factory.connect(coordinator).rawFulfillRandomWords(requestId, [SLOW_WORD], { gasLimit: gas + 25_000n })).wait();
        const round = await fresh.raffle.getRound(1n);
        expect(round.randomWord, `callback gas ${gas}`).to.equal(SLOW_WORD);
        expect([RoundStatus.WinnersPending, RoundStatus.Drawn]).to.include(Number(round.status));
      }
    });

    it("draws a usual word inline at the same gas", async () => {
      const { world, requestId } = await loadFixture(at400kCallbackGas);
      expect(await callbackSucceeded(world, requestId, 777n)).to.equal(true);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      expect((await world.raffle.getWinners(1n)).map((winner) => winner.ticketId)).to.deep.equal(drawWinners(777n, 1n, 20n, 20));
    });

    it("lets only the raffle itself run the inline draw", async () => {
      const { world } = await loadFixture(at400kCallbackGas);
      const [alice] = world.players;
      await expect(world.raffle.connect(alice).drawInCallback(1n))
        .to.be.revertedWithCustomError(world.raffle, "CallerNotSelf")
        .withArgs(alice.address);
    });

    it("refuses VRF settings with a callback gas limit too low to record a word", async () => {
      const { factory } = await loadFixture(deployPlatform);
      const minimum = await factory.MIN_CALLBACK_GAS_LIMIT();
      const current = await factory.vrfConfig();
      const settings = {
        coordinator: current.coordinator,
        keyHash: current.keyHash,
        subscriptionId: current.subscriptionId,
        requestConfirmations: current.requestConfirmations,
        randomnessTimeout: current.randomnessTimeout,
      };
      for (const low of [1n, 5_000n, minimum - 1n]) {
        await expect(factory.proposeVrfConfig({ ...settings, callbackGasLimit: low }))
          .to.be.revertedWithCustomError(factory, "VrfCallbackGasTooLow")
          .withArgs(low, minimum);
      }
      await expect(factory.proposeVrfConfig({ ...settings, callbackGasLimit: minimum })).to.emit(factory, "VrfConfigSet");
    });
  });

  describe("roundOfTicket", () => {
    it("finds each ticket's round across rounds, an empty one included, and 0 for ids never sold", async () => {
      const world = await loadFixture(worldFixture);
      const [alice] = world.players;
      await startErc20Round(world);
      await buyBundle(world, alice, 3n); // 1-3
      await endRound(world);
      await startErc20Round(world); // round 2 sells nothing
      await endRound(world);
      await startErc20Round(world);
      await buyBundle(world, alice, 2n); // 4-5
      const expected: [bigint, bigint][] = [
        [0n, 0n],
        [1n, 1n],
        [3n, 1n],
        [4n, 3n],
        [5n, 3n],
        [6n, 0n],
      ];
      for (const [ticketId, roundId] of expected) expect(await world.raffle.roundOfTicket(ticketId), `ticket ${ticketId}`).to.equal(roundId);
    });
  });
});

async function startPrice(world: RaffleWorld) {
  return plainAsset((await world.raffle.getCurrentRoundInfo()).acceptedAsset);
}
