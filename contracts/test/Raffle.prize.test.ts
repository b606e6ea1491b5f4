import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, ZeroAddress, ZeroHash, parseUnits } from "ethers";

import { ReentrantToken__factory, ReentrantWinner__factory } from "@raffle/chain";

import { COMMISSION_BPS, DEFAULT_VRF, ONE_DAY, TICKET_PRICE, erc20Price, listPriceToken, nativePrice } from "./support/fixtures";
import {
  PrizeStatus,
  RoundStatus,
  approveExchange,
  buyTicket,
  claimPrizesCall,
  claimRoundPrize,
  deployWorld,
  endRound,
  firstPrizeStatus,
  refundTicket,
  refundTicketsCall,
  startErc20Round,
  startRound,
  type RaffleWorld,
} from "./support/scenario";

const BASIS_POINTS = 10_000n;
const ODD_COMMISSION = 1_234n;
const ODD_PRICE = 10n ** 18n + 7n;
const TIME_LAG = 2n * ONE_DAY;

/** What claiming a one-winner round pays, by the rule: commission = floor(pot * bps / 10_000), prize = pot - commission. */
function split(ticketCount: bigint, price: bigint, commissionBps: bigint) {
  const pot = ticketCount * price;
  const commission = (pot * commissionBps) / BASIS_POINTS;
  return { pot, commission, prize: pot - commission };
}

/** Three tickets (alice, bob, carol) and a draw whose word makes ticket `1 + word % 3` win. */
async function drawnRound(world: RaffleWorld, price: ReturnType<typeof erc20Price>, word: bigint) {
  const [alice, bob, carol] = world.players;
  for (const buyer of [alice, bob, carol]) await buyTicket(world, buyer, price);
  const requestId = await endRound(world);
  await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
  const round = await world.raffle.getRound(1n);
  return { winningTicketId: round.winningTicketId, drawnAt: round.drawnAt };
}

async function erc20DrawnFixture() {
  const world = await deployWorld({ commission: ODD_COMMISSION, timeLagBeforeRelease: TIME_LAG });
  const [alice, bob, carol, dave] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  const price = await startErc20Round(world, 0n, ODD_PRICE);
  const drawn = await drawnRound(world, price, 1n); // bob's ticket 2 wins
  return { world, price, alice, bob, carol, dave, ...drawn, ...split(3n, ODD_PRICE, ODD_COMMISSION) };
}

async function defaultCommissionDrawnFixture() {
  const world = await deployWorld();
  const [alice, bob, carol] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  const price = await startErc20Round(world);
  const drawn = await drawnRound(world, price, 0n); // alice's ticket 1 wins
  return { world, alice, bob, carol, ...drawn };
}

async function nativeDrawnFixture() {
  const world = await deployWorld({ commission: ODD_COMMISSION, timeLagBeforeRelease: TIME_LAG });
  const [alice, bob, carol, dave] = world.players;
  const amount = 10n ** 16n + 3n;
  const price = await startRound(world, nativePrice(amount));
  const drawn = await drawnRound(world, price, 2n); // carol's ticket 3 wins
  return { world, price, alice, bob, carol, dave, ...drawn, ...split(3n, amount, ODD_COMMISSION) };
}

/** Three ERC20 tickets whose randomness never arrives. */
async function erc20DrawingFixture() {
  const world = await deployWorld();
  const [alice, bob, carol, dave] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  const price = await startErc20Round(world);
  for (const buyer of [alice, bob, carol]) await buyTicket(world, buyer, price);
  const requestId = await endRound(world);
  const { endTimestamp } = await world.raffle.getRound(1n);
  return { world, alice, bob, carol, dave, requestId, refundableAt: endTimestamp + BigInt(DEFAULT_VRF.randomnessTimeout) };
}

async function erc20RefundableFixture() {
  const fixture = await erc20DrawingFixture();
  await time.increaseTo(fixture.refundableAt);
  await (await fixture.world.raffle.enableRefunds(1n)).wait();
  return fixture;
}

async function nativeRefundableFixture() {
  const world = await deployWorld();
  const [alice, bob] = world.players;
  const price = await startRound(world, nativePrice());
  for (const buyer of [alice, bob, alice]) await buyTicket(world, buyer, price);
  await endRound(world);
  await time.increase(DEFAULT_VRF.randomnessTimeout);
  await (await world.raffle.enableRefunds(1n)).wait();
  return { world, alice, bob, amount: price.amount };
}

/** An ERC20 round priced in a token that re-enters the raffle from `transfer`; bob's ticket wins. */
async function reentrantTokenDrawnFixture() {
  const world = await deployWorld();
  const token = await new ReentrantToken__factory(world.admin).deploy();
  await listPriceToken(world, token);
  const [alice, bob, carol] = world.players;
  for (const buyer of [alice, bob, carol]) {
    await (await token.mint(buyer.address, TICKET_PRICE)).wait();
    await (await token.connect(buyer).approve(await world.exchange.getAddress(), MaxUint256)).wait();
  }
  const price = await startRound(world, erc20Price(await token.getAddress()));
  const drawn = await drawnRound(world, price, 1n);
  return { world, token, alice, bob, carol, ...drawn, ...split(3n, TICKET_PRICE, COMMISSION_BPS) };
}

/** A one-ticket NATIVE round whose winning ticket is held by a contract that reacts to the prize. */
async function contractWinnerFixture() {
  const world = await deployWorld();
  const [alice] = world.players;
  const winner = await new ReentrantWinner__factory(world.admin).deploy();
  const price = await startRound(world, nativePrice());
  const ticketId = await buyTicket(world, alice, price);
  await (await world.ticket.connect(alice).transferFrom(alice.address, await winner.getAddress(), ticketId)).wait();
  await endRound(world); // one ticket: it wins at once
  return { world, winner, ticketId, ...split(1n, price.amount, COMMISSION_BPS) };
}

/** Runs one round at `price` with a ticket per buyer; more than one ticket is drawn with `word`. Returns the winner. */
async function playRound(world: RaffleWorld, price: ReturnType<typeof erc20Price>, buyers: HardhatEthersSigner[], word = 0n) {
  await startRound(world, price);
  const { roundId } = await world.raffle.getCurrentRoundInfo();
  for (const buyer of buyers) await buyTicket(world, buyer, price);
  const requestId = await endRound(world);
  if (requestId !== 0n) await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [word])).wait();
  const { winningTicketId, status } = await world.raffle.getRound(roundId);
  expect(status).to.equal(RoundStatus.Drawn);
  const owner = await world.ticket.ownerOf(winningTicketId);
  return { roundId, winner: buyers.find((buyer) => buyer.address === owner)! };
}

const SECOND_ERC20_PRICE = 5n * 10n ** 18n + 3n;
const ODD_NATIVE_PRICE = 10n ** 16n + 3n;

/**
 * Five rounds of one raffle at a 12.34% commission, all drawn: four in GOLD and NATIVE that are claimed, and a fifth
 * (GOLD, two tickets) left unclaimed so its pot sits next to the accrued commission.
 */
async function severalRoundsFixture() {
  const world = await deployWorld({ commission: ODD_COMMISSION, timeLagBeforeRelease: TIME_LAG });
  const [alice, bob, carol, dave] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  const gold = await world.token.getAddress();
  const claimed = [
    await playRound(world, erc20Price(gold, ODD_PRICE), [alice, bob, carol], 1n),
    await playRound(world, nativePrice(ODD_NATIVE_PRICE), [dave]),
    await playRound(world, erc20Price(gold, SECOND_ERC20_PRICE), [alice]),
    await playRound(world, nativePrice(ODD_NATIVE_PRICE), [bob, dave], 1n),
  ];
  const unclaimed = await playRound(world, erc20Price(gold, TICKET_PRICE), [carol, alice], 0n);
  const erc20Commission = split(3n, ODD_PRICE, ODD_COMMISSION).commission + split(1n, SECOND_ERC20_PRICE, ODD_COMMISSION).commission;
  const nativeCommission = split(1n, ODD_NATIVE_PRICE, ODD_COMMISSION).commission + split(2n, ODD_NATIVE_PRICE, ODD_COMMISSION).commission;
  return { world, gold, alice, bob, carol, dave, claimed, unclaimed, erc20Commission, nativeCommission };
}

describe("Raffle prizes and refunds", () => {
  describe("claimPrizes", () => {
    it("pays the pot less commission to the winner and keeps the commission accrued in the raffle, to the wei", async () => {
      const { world, bob, winningTicketId, pot, commission, prize } = await loadFixture(erc20DrawnFixture);
      expect(winningTicketId).to.equal(2n);
      expect(commission + prize).to.equal(pot);
      expect(commission).to.equal(370_200_000_000_000_002n); // 3 * (1e18 + 7) * 1234 / 10000, floored
      const token = await world.token.getAddress();
      expect(await world.raffle.accruedCommission(token)).to.equal(0n);

      const tx = claimRoundPrize(world, bob, 1n);
      // Pulled, not pushed: the beneficiary (the merchant) receives nothing at claim time.
      await expect(tx).to.changeTokenBalances(world.token, [bob, world.merchant, world.raffle], [prize, 0n, -prize]);
      await expect(tx).to.emit(world.raffle, "PrizeClaimed").withArgs(1n, 2n, bob.address, prize, commission);
      await expect(tx).not.to.emit(world.raffle, "CommissionWithdrawn");
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);
      expect(await world.token.balanceOf(world.address)).to.equal(commission);
      expect(await world.raffle.accruedCommission(token)).to.equal(commission);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(0n);
    });

    it("takes exactly 10% of a 30 GOLD pot at the default commission", async () => {
      const { world, alice } = await loadFixture(defaultCommissionDrawnFixture);
      await expect(claimRoundPrize(world, alice, 1n)).to.changeTokenBalances(
        world.token,
        [alice, world.merchant, world.raffle],
        [parseUnits("27", 18), 0n, -parseUnits("27", 18)],
      );
      expect(await world.raffle.accruedCommission(await world.token.getAddress())).to.equal(parseUnits("3", 18));
      expect(await world.token.balanceOf(world.address)).to.equal(parseUnits("3", 18));
    });

    it("pays a NATIVE pot the same way, accruing the commission under address(0)", async () => {
      const { world, carol, winningTicketId, commission, prize } = await loadFixture(nativeDrawnFixture);
      const tx = claimRoundPrize(world, carol, 1n);
      await expect(tx).to.changeEtherBalances([carol, world.merchant, world.raffle], [prize, 0n, -prize]);
      await expect(tx).to.emit(world.raffle, "PrizeClaimed").withArgs(1n, winningTicketId, carol.address, prize, commission);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(commission);
      expect(await world.raffle.accruedCommission(await world.token.getAddress())).to.equal(0n);
      expect(await ethers.provider.getBalance(world.address)).to.equal(commission);
    });

    it("can be claimed only once", async () => {
      const { world, bob } = await loadFixture(erc20DrawnFixture);
      await (await claimRoundPrize(world, bob, 1n)).wait();
      await expect(claimRoundPrize(world, bob, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Claimed);
      const { commission } = split(3n, ODD_PRICE, ODD_COMMISSION);
      expect(await world.token.balanceOf(world.address)).to.equal(commission);
      expect(await world.raffle.accruedCommission(await world.token.getAddress())).to.equal(commission);
    });

    it("rejects anyone who neither owns the winning ticket nor is approved for it", async () => {
      const { world, alice, carol, winningTicketId } = await loadFixture(erc20DrawnFixture);
      for (const caller of [alice, carol, world.merchant]) {
        await expect(claimRoundPrize(world, caller, 1n))
          .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
          .withArgs(winningTicketId, caller.address);
      }
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
    });

    it("lets an operator approved for the ticket claim, paying the owner", async () => {
      const { world, bob, dave, winningTicketId, prize, commission } = await loadFixture(erc20DrawnFixture);
      await expect(world.ticket.connect(bob).approve(dave.address, winningTicketId))
        .to.emit(world.ticket, "Approval")
        .withArgs(bob.address, dave.address, winningTicketId);
      const tx = claimRoundPrize(world, dave, 1n);
      await expect(tx).to.changeTokenBalances(world.token, [bob, dave, world.merchant, world.raffle], [prize, 0n, 0n, -prize]);
      await expect(tx).to.emit(world.raffle, "PrizeClaimed").withArgs(1n, winningTicketId, bob.address, prize, commission);
      expect(await world.raffle.accruedCommission(await world.token.getAddress())).to.equal(commission);
    });

    it("lets an operator approved for all of the owner's tickets claim, paying the owner", async () => {
      const { world, bob, dave, prize } = await loadFixture(erc20DrawnFixture);
      await expect(world.ticket.connect(bob).setApprovalForAll(dave.address, true))
        .to.emit(world.ticket, "ApprovalForAll")
        .withArgs(bob.address, dave.address, true);
      await expect(claimRoundPrize(world, dave, 1n)).to.changeTokenBalances(world.token, [bob, dave], [prize, 0n]);
    });

    it("pays whoever holds the winning ticket at claim time", async () => {
      const { world, bob, dave, winningTicketId, prize } = await loadFixture(erc20DrawnFixture);
      await (await world.ticket.connect(bob).transferFrom(bob.address, dave.address, winningTicketId)).wait();
      await expect(claimRoundPrize(world, bob, 1n))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(winningTicketId, bob.address);
      await expect(claimRoundPrize(world, dave, 1n)).to.changeTokenBalance(world.token, dave, prize);
    });

    it("accrues the commission whoever the beneficiary is; withdrawCommission then pays the beneficiary the merchant set", async () => {
      const { world, bob, dave, commission } = await loadFixture(erc20DrawnFixture);
      await (await world.raffle.setBeneficiary(dave.address)).wait();
      await expect(claimRoundPrize(world, bob, 1n)).to.changeTokenBalances(world.token, [dave, world.merchant], [0n, 0n]);
      await expect(world.raffle.withdrawCommission(await world.token.getAddress())).to.changeTokenBalances(
        world.token,
        [dave, world.merchant, world.raffle],
        [commission, 0n, -commission],
      );
    });

    for (const bps of [0n, 3_000n]) {
      it(`handles a ${bps} bps commission exactly`, async () => {
        const world = await deployWorld({ commission: bps });
        const [alice, bob, carol] = world.players;
        await approveExchange(world, [alice, bob, carol]);
        const price = await startErc20Round(world, 0n, ODD_PRICE);
        await drawnRound(world, price, 2n);
        const { commission, prize, pot } = split(3n, ODD_PRICE, bps);
        expect(commission).to.equal(bps === 0n ? 0n : 900_000_000_000_000_006n); // 3 * (1e18 + 7) * 0.3, floored
        await expect(claimRoundPrize(world, carol, 1n)).to.changeTokenBalances(
          world.token,
          [carol, world.merchant, world.raffle],
          [prize, 0n, -prize],
        );
        expect(prize + commission).to.equal(pot);
        expect(await world.raffle.commission()).to.equal(bps);
        expect(await world.raffle.accruedCommission(await world.token.getAddress())).to.equal(commission);
        expect(await world.token.balanceOf(world.address)).to.equal(commission);
        const withdrawal = world.raffle.withdrawCommission(await world.token.getAddress());
        if (commission === 0n) {
          await expect(withdrawal)
            .to.be.revertedWithCustomError(world.raffle, "NothingToWithdraw")
            .withArgs(await world.token.getAddress());
        } else {
          await expect(withdrawal).to.changeTokenBalances(world.token, [world.merchant, world.raffle], [commission, -commission]);
        }
      });
    }

    it("rejects rounds that are not drawn: unknown, active, drawing", async () => {
      const { world, alice } = await loadFixture(erc20DrawingFixture);
      await expect(claimRoundPrize(world, alice, 99n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(99n, RoundStatus.None);
      await expect(claimRoundPrize(world, alice, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Drawing);
      await startErc20Round(world);
      await expect(claimRoundPrize(world, alice, 2n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(2n, RoundStatus.Active);
    });
  });

  describe("withdrawCommission", () => {
    it("pays exactly the commission of every claimed round, per token, and leaves unclaimed pots alone", async () => {
      const { world, gold, claimed, unclaimed, erc20Commission, nativeCommission } = await loadFixture(severalRoundsFixture);
      // Each round's commission is floored on its own: 0.370200000000000002 + 0.617 GOLD, 0.001234 + 0.002468 ETH.
      expect(erc20Commission).to.equal(987_200_000_000_000_002n);
      expect(nativeCommission).to.equal(3_702_000_000_000_000n);
      expect(split(3n, ODD_NATIVE_PRICE, ODD_COMMISSION).commission).to.equal(3_702_000_000_000_001n); // not pooled
      for (const { roundId, winner } of claimed) await (await claimRoundPrize(world, winner, roundId)).wait();

      const unclaimedPot = 2n * TICKET_PRICE;
      expect(await world.raffle.accruedCommission(gold)).to.equal(erc20Commission);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(nativeCommission);
      expect(await world.token.balanceOf(world.address)).to.equal(erc20Commission + unclaimedPot);
      expect(await ethers.provider.getBalance(world.address)).to.equal(nativeCommission);

      const erc20Tx = world.raffle.withdrawCommission(gold);
      await expect(erc20Tx).to.changeTokenBalances(world.token, [world.merchant, world.raffle], [erc20Commission, -erc20Commission]);
      await expect(erc20Tx).to.emit(world.raffle, "CommissionWithdrawn").withArgs(gold, world.merchant.address, erc20Commission);
      expect(await world.raffle.accruedCommission(gold)).to.equal(0n);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(nativeCommission);

      const nativeTx = world.raffle.withdrawCommission(ZeroAddress);
      await expect(nativeTx).to.changeEtherBalances([world.merchant, world.raffle], [nativeCommission, -nativeCommission]);
      await expect(nativeTx).to.emit(world.raffle, "CommissionWithdrawn").withArgs(ZeroAddress, world.merchant.address, nativeCommission);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(0n);
      expect(await ethers.provider.getBalance(world.address)).to.equal(0n);

      // Only the unclaimed pot is left, and its winner still gets exactly the prize.
      expect(await world.token.balanceOf(world.address)).to.equal(unclaimedPot);
      const last = split(2n, TICKET_PRICE, ODD_COMMISSION);
      await expect(claimRoundPrize(world, unclaimed.winner, unclaimed.roundId)).to.changeTokenBalances(
        world.token,
        [unclaimed.winner, world.raffle],
        [last.prize, -last.prize],
      );
      expect(await world.raffle.accruedCommission(gold)).to.equal(last.commission);
      expect(await world.token.balanceOf(world.address)).to.equal(last.commission);
    });

    it("reverts NothingToWithdraw when nothing accrued, and again right after a withdrawal", async () => {
      const { world, bob, commission } = await loadFixture(erc20DrawnFixture);
      const gold = await world.token.getAddress();
      for (const token of [gold, ZeroAddress]) {
        await expect(world.raffle.withdrawCommission(token)).to.be.revertedWithCustomError(world.raffle, "NothingToWithdraw").withArgs(token);
      }
      await (await claimRoundPrize(world, bob, 1n)).wait();
      await expect(world.raffle.withdrawCommission(ZeroAddress))
        .to.be.revertedWithCustomError(world.raffle, "NothingToWithdraw")
        .withArgs(ZeroAddress);
      await expect(world.raffle.withdrawCommission(gold)).to.changeTokenBalance(world.token, world.merchant, commission);
      await expect(world.raffle.withdrawCommission(gold)).to.be.revertedWithCustomError(world.raffle, "NothingToWithdraw").withArgs(gold);
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
    });

    it("accrues nothing for a released pot: the beneficiary already got all of it", async () => {
      const { world, drawnAt, pot } = await loadFixture(nativeDrawnFixture);
      await time.increaseTo(drawnAt + TIME_LAG);
      await expect(world.raffle.releasePrize(1n)).to.changeEtherBalances([world.merchant, world.raffle], [pot, -pot]);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(0n);
      await expect(world.raffle.withdrawCommission(ZeroAddress))
        .to.be.revertedWithCustomError(world.raffle, "NothingToWithdraw")
        .withArgs(ZeroAddress);
    });

    it("is admin-only, even for the beneficiary, a round manager and the winner", async () => {
      const { world, bob, dave, commission } = await loadFixture(erc20DrawnFixture);
      const gold = await world.token.getAddress();
      await (await claimRoundPrize(world, bob, 1n)).wait();
      await (await world.raffle.grantRole(await world.raffle.ROUND_MANAGER_ROLE(), dave.address)).wait();
      await (await world.raffle.setBeneficiary(dave.address)).wait();
      for (const caller of [dave, bob]) {
        await expect(world.raffle.connect(caller).withdrawCommission(gold))
          .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, ZeroHash);
      }
      expect(await world.raffle.accruedCommission(gold)).to.equal(commission);
    });

    it("pays the beneficiary current at withdrawal time, never the calling admin", async () => {
      const { world, bob, carol, dave, commission } = await loadFixture(erc20DrawnFixture);
      const gold = await world.token.getAddress();
      await (await claimRoundPrize(world, bob, 1n)).wait(); // accrued while the merchant was beneficiary
      await (await world.raffle.setBeneficiary(dave.address)).wait();
      await (await world.raffle.grantRole(ZeroHash, carol.address)).wait();

      const tx = world.raffle.connect(carol).withdrawCommission(gold);
      await expect(tx).to.changeTokenBalances(world.token, [dave, world.merchant, carol, world.raffle], [commission, 0n, 0n, -commission]);
      await expect(tx).to.emit(world.raffle, "CommissionWithdrawn").withArgs(gold, dave.address, commission);
    });

    it("cannot be re-entered from the payout's token transfer", async () => {
      const { world, token, bob, commission } = await loadFixture(reentrantTokenDrawnFixture);
      await (await claimRoundPrize(world, bob, 1n)).wait();
      const tokenAddress = await token.getAddress();
      // Even an admin token is stopped by the guard, before NothingToWithdraw could answer.
      await (await world.raffle.grantRole(ZeroHash, tokenAddress)).wait();
      const payload = world.raffle.interface.encodeFunctionData("withdrawCommission", [tokenAddress]);
      await (await token.arm(world.address, payload, 2 /* Transfer */, true)).wait();

      await expect(world.raffle.withdrawCommission(tokenAddress)).to.changeTokenBalances(
        token,
        [world.merchant, world.raffle],
        [commission, -commission],
      );
      expect(await token.attacked()).to.equal(true);
      expect(await token.reentrySucceeded()).to.equal(false);
      expect(await token.reentryRevertData()).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await token.balanceOf(world.address)).to.equal(0n);
    });

    it("cannot be blocked by a beneficiary that refuses ether: the winner still claims, only the withdrawal waits", async () => {
      const { world, carol, dave, winningTicketId, prize, commission } = await loadFixture(nativeDrawnFixture);
      const refuser = await new ReentrantWinner__factory(world.admin).deploy();
      await (await refuser.setMode(3 /* Reject */)).wait();
      await (await world.raffle.setBeneficiary(await refuser.getAddress())).wait();

      // The former attack: a merchant sets a beneficiary that refuses payment. The claim no longer pays it.
      const claim = claimRoundPrize(world, carol, 1n);
      await expect(claim).to.changeEtherBalances([carol, refuser, world.raffle], [prize, 0n, -prize]);
      await expect(claim).to.emit(world.raffle, "PrizeClaimed").withArgs(1n, winningTicketId, carol.address, prize, commission);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);

      await expect(world.raffle.withdrawCommission(ZeroAddress)).to.be.revertedWith("ReentrantWinner: no ether");
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(commission);
      expect(await ethers.provider.getBalance(world.address)).to.equal(commission);

      await (await world.raffle.setBeneficiary(dave.address)).wait();
      const withdrawal = world.raffle.withdrawCommission(ZeroAddress);
      await expect(withdrawal).to.changeEtherBalances([dave, refuser, world.raffle], [commission, 0n, -commission]);
      await expect(withdrawal).to.emit(world.raffle, "CommissionWithdrawn").withArgs(ZeroAddress, dave.address, commission);
      expect(await refuser.receivedCount()).to.equal(0n);
    });
  });

  describe("releasePrize", () => {
    it("releases an unclaimed pot to the beneficiary exactly timeLagBeforeRelease after the draw", async () => {
      const { world, bob, drawnAt, pot } = await loadFixture(erc20DrawnFixture);
      const releasableAt = drawnAt + TIME_LAG;
      expect(await world.raffle.timeLagBeforeRelease()).to.equal(TIME_LAG);

      await expect(world.raffle.releasePrize(1n)).to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet").withArgs(1n, releasableAt);
      await time.setNextBlockTimestamp(releasableAt - 1n);
      await expect(world.raffle.releasePrize(1n)).to.be.revertedWithCustomError(world.raffle, "PrizeNotReleasableYet").withArgs(1n, releasableAt);

      await time.setNextBlockTimestamp(releasableAt);
      const tx = world.raffle.releasePrize(1n);
      await expect(tx).to.changeTokenBalances(world.token, [world.merchant, world.raffle], [pot, -pot]);
      await expect(tx).to.emit(world.raffle, "PrizeReleased").withArgs(1n, world.merchant.address, pot);
      const released = await world.raffle.getRound(1n);
      expect(released.status).to.equal(RoundStatus.Released);
      expect(await firstPrizeStatus(world, 1n)).to.equal(PrizeStatus.Released);

      await expect(claimRoundPrize(world, bob, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Released);
      await expect(world.raffle.releasePrize(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Released);
    });

    it("pays the current beneficiary and lets the winner claim until the release happens", async () => {
      const { world, bob, dave, drawnAt, prize } = await loadFixture(erc20DrawnFixture);
      await time.increaseTo(drawnAt + TIME_LAG + ONE_DAY);
      await (await world.raffle.setBeneficiary(dave.address)).wait();
      // Late but not released: the winner still gets the prize.
      await expect(claimRoundPrize(world, bob, 1n)).to.changeTokenBalance(world.token, bob, prize);
      await expect(world.raffle.releasePrize(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Claimed);
    });

    it("pays a released NATIVE pot to the beneficiary that was set", async () => {
      const { world, dave, drawnAt, pot } = await loadFixture(nativeDrawnFixture);
      await (await world.raffle.setBeneficiary(dave.address)).wait();
      await time.increaseTo(drawnAt + TIME_LAG);
      await expect(world.raffle.releasePrize(1n)).to.changeEtherBalances([dave, world.raffle], [pot, -pot]);
    });

    it("is admin-only, even for the winner and a round manager", async () => {
      const { world, bob, dave, drawnAt } = await loadFixture(erc20DrawnFixture);
      await (await world.raffle.grantRole(await world.raffle.ROUND_MANAGER_ROLE(), dave.address)).wait();
      await time.increaseTo(drawnAt + TIME_LAG);
      for (const caller of [bob, dave]) {
        await expect(world.raffle.connect(caller).releasePrize(1n))
          .to.be.revertedWithCustomError(world.raffle, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, await world.raffle.DEFAULT_ADMIN_ROLE());
      }
    });

    it("rejects a round still waiting for randomness", async () => {
      const { world } = await loadFixture(erc20DrawingFixture);
      await time.increase(TIME_LAG * 10n);
      await expect(world.raffle.releasePrize(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Drawing);
    });
  });

  describe("refunds after a VRF timeout", () => {
    it("opens refunds only once endTimestamp + randomnessTimeout is reached; anyone may open them", async () => {
      const { world, dave, refundableAt } = await loadFixture(erc20DrawingFixture);
      await expect(world.raffle.connect(dave).enableRefunds(1n))
        .to.be.revertedWithCustomError(world.raffle, "RandomnessNotTimedOut")
        .withArgs(1n, refundableAt);
      await time.setNextBlockTimestamp(refundableAt - 1n);
      await expect(world.raffle.connect(dave).enableRefunds(1n))
        .to.be.revertedWithCustomError(world.raffle, "RandomnessNotTimedOut")
        .withArgs(1n, refundableAt);

      await time.setNextBlockTimestamp(refundableAt);
      await expect(world.raffle.connect(dave).enableRefunds(1n)).to.emit(world.raffle, "RoundRefundable").withArgs(1n);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Refundable);
      await expect(world.raffle.enableRefunds(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Refundable);
    });

    it("refuses to open refunds for rounds that are not waiting for randomness", async () => {
      const { world, bob } = await loadFixture(erc20DrawnFixture);
      await time.increase(ONE_DAY * 30n);
      await expect(world.raffle.enableRefunds(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Drawn);
      await expect(refundTicket(world, bob, 2n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Drawn);
    });

    it("burns the ticket and pays its price back to its owner, once", async () => {
      const { world, bob } = await loadFixture(erc20RefundableFixture);
      const tx = refundTicket(world, bob, 2n);
      await expect(tx).to.changeTokenBalances(world.token, [bob, world.raffle], [TICKET_PRICE, -TICKET_PRICE]);
      await expect(tx).to.emit(world.raffle, "TicketRefunded").withArgs(1n, 2n, bob.address, TICKET_PRICE);
      await expect(tx).to.emit(world.ticket, "Transfer").withArgs(bob.address, ZeroAddress, 2n);

      await expect(world.ticket.ownerOf(2n)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
      await expect(refundTicket(world, bob, 2n)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
      expect(await world.token.balanceOf(world.address)).to.equal(2n * TICKET_PRICE);
    });

    it("refunds only the owner or an approved operator, always paying the owner", async () => {
      const { world, alice, carol, dave } = await loadFixture(erc20RefundableFixture);
      await expect(refundTicket(world, dave, 1n))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(1n, dave.address);
      await expect(refundTicket(world, carol, 1n))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(1n, carol.address);

      await (await world.ticket.connect(alice).approve(dave.address, 1n)).wait();
      const tx = refundTicket(world, dave, 1n);
      await expect(tx).to.changeTokenBalances(world.token, [alice, dave], [TICKET_PRICE, 0n]);
      await expect(tx).to.emit(world.raffle, "TicketRefunded").withArgs(1n, 1n, alice.address, TICKET_PRICE);
    });

    it("returns the whole pot once every ticket is refunded, and never pays a prize", async () => {
      const { world, alice, bob, carol, requestId } = await loadFixture(erc20RefundableFixture);
      for (const [holder, ticketId] of [
        [alice, 1n],
        [bob, 2n],
        [carol, 3n],
      ] as const) {
        await expect(refundTicket(world, holder, ticketId)).to.changeTokenBalance(world.token, holder, TICKET_PRICE);
      }
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(0n);

      // Late randomness changes nothing.
      await expect(world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).not.to.emit(world.raffle, "WinnersDrawn");
      await expect(claimRoundPrize(world, alice, 1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Refundable);
      await expect(world.raffle.releasePrize(1n))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Refundable);
    });

    it("refunds NATIVE prices in ether", async () => {
      const { world, alice, bob, amount } = await loadFixture(nativeRefundableFixture);
      await expect(refundTicket(world, alice, 3n)).to.changeEtherBalances([alice, world.raffle], [amount, -amount]);
      await expect(refundTicket(world, bob, 2n))
        .to.emit(world.raffle, "TicketRefunded")
        .withArgs(1n, 2n, bob.address, amount);
      expect(await world.raffle.runner!.provider!.getBalance(world.address)).to.equal(amount);
    });

    it("does not refund tickets of an active round", async () => {
      const { world, alice } = await loadFixture(erc20RefundableFixture);
      const price = await startErc20Round(world);
      const ticketId = await buyTicket(world, alice, price);
      await expect(refundTicket(world, alice, ticketId))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(2n, RoundStatus.Active);
    });
  });

  describe("reentrancy", () => {
    it("fails a claim whose ERC20 price token re-enters claimPrizes from transfer", async () => {
      const { world, token, bob } = await loadFixture(reentrantTokenDrawnFixture);
      const payload = claimPrizesCall(world, 1n, 2n);
      await (await token.arm(world.address, payload, 2 /* Transfer */, false)).wait();
      await expect(claimRoundPrize(world, bob, 1n)).to.be.revertedWithCustomError(world.raffle, "ReentrancyGuardReentrantCall");
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      expect(await token.balanceOf(world.address)).to.equal(3n * TICKET_PRICE);
    });

    it("pays exactly once when the token swallows its failed re-entry", async () => {
      const { world, token, bob, pot, prize, commission } = await loadFixture(reentrantTokenDrawnFixture);
      const payload = claimPrizesCall(world, 1n, 2n);
      await (await token.arm(world.address, payload, 2 /* Transfer */, true)).wait();
      await expect(claimRoundPrize(world, bob, 1n)).to.changeTokenBalances(token, [bob, world.merchant, world.raffle], [prize, 0n, -prize]);
      expect(prize + commission).to.equal(pot);
      expect(await world.raffle.accruedCommission(await token.getAddress())).to.equal(commission);
      expect(await token.balanceOf(world.address)).to.equal(commission);
      expect(await token.attacked()).to.equal(true);
      expect(await token.reentrySucceeded()).to.equal(false);
      expect(await token.reentryRevertData()).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
    });

    it("blocks a re-entry into refundTickets from the refund's own transfer", async () => {
      const world = await deployWorld();
      const token = await new ReentrantToken__factory(world.admin).deploy();
      await listPriceToken(world, token);
      const [alice] = world.players;
      await (await token.mint(alice.address, 2n * TICKET_PRICE)).wait();
      await (await token.connect(alice).approve(await world.exchange.getAddress(), MaxUint256)).wait();
      const price = await startRound(world, erc20Price(await token.getAddress()));
      await buyTicket(world, alice, price);
      await buyTicket(world, alice, price);
      await endRound(world);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await (await world.raffle.enableRefunds(1n)).wait();
      // The token is approved for alice's tickets, so only the guard stops it refunding ticket 2 mid-refund.
      await (await world.ticket.connect(alice).setApprovalForAll(await token.getAddress(), true)).wait();
      await (await token.arm(world.address, refundTicketsCall(world, 1n, 2n), 2, true)).wait();

      await expect(refundTicket(world, alice, 1n)).to.changeTokenBalance(token, alice, TICKET_PRICE);
      expect(await token.reentrySucceeded()).to.equal(false);
      expect(await token.reentryRevertData()).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await world.ticket.ownerOf(2n)).to.equal(alice.address);
      expect(await token.balanceOf(world.address)).to.equal(TICKET_PRICE);
    });

    it("fails a NATIVE claim by a winner contract that re-enters claimPrizes on receipt", async () => {
      const { world, winner, ticketId } = await loadFixture(contractWinnerFixture);
      await (await winner.setMode(1 /* Reenter */)).wait();
      await expect(winner.claim(world.address, 1n, ticketId)).to.be.revertedWithCustomError(world.raffle, "ReentrancyGuardReentrantCall");
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      expect(await world.raffle.runner!.provider!.getBalance(await winner.getAddress())).to.equal(0n);
    });

    it("pays a re-entering winner contract once when it swallows the failed re-entry", async () => {
      const { world, winner, ticketId, prize, commission, pot } = await loadFixture(contractWinnerFixture);
      await (await winner.setMode(2 /* ReenterAndSwallow */)).wait();
      const tx = winner.claim(world.address, 1n, ticketId);
      await expect(tx).to.changeEtherBalances([winner, world.merchant, world.raffle], [prize, 0n, -prize]);
      expect(prize + commission).to.equal(pot);
      expect(await world.raffle.accruedCommission(ZeroAddress)).to.equal(commission);
      await expect(tx)
        .to.emit(world.raffle, "PrizeClaimed")
        .withArgs(1n, ticketId, await winner.getAddress(), prize, commission);
      expect(await winner.receivedCount()).to.equal(1n);
      expect(await winner.reentrySucceeded()).to.equal(false);
      expect(await winner.reentryRevertData()).to.equal(world.raffle.interface.getError("ReentrancyGuardReentrantCall")!.selector);
    });

    it("leaves the pot of a winner that refuses ether releasable to the beneficiary after the lag", async () => {
      const { world, winner, ticketId, pot } = await loadFixture(contractWinnerFixture);
      await (await winner.setMode(3 /* Reject */)).wait();
      await expect(winner.claim(world.address, 1n, ticketId)).to.be.revertedWith("ReentrantWinner: no ether");
      const { drawnAt } = await world.raffle.getRound(1n);
      await time.increaseTo(drawnAt + ONE_DAY);
      await expect(world.raffle.releasePrize(1n)).to.changeEtherBalances([world.merchant, world.raffle], [pot, -pot]);
    });
  });
});
