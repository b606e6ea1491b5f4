import { expect } from "chai";
import { time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, ZeroAddress, ZeroHash, parseEther } from "ethers";

import { GasBurningCoordinator__factory, SwitchableFeeToken__factory, VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";
import { DEFAULT_VRF, ONE_DAY, deployRaffle, erc20Price, listPriceToken, nativePrice, ticketAsset } from "./support/fixtures";
import {
  RoundStatus,
  buyTicket,
  deployWorld,
  endRound,
  purchase,
  refundTicket,
  startErc20Round,
  startRound,
  voucherFor,
  type RaffleWorld,
} from "./support/scenario";
import { latestTimestamp } from "./support/vouchers";

/**
 * The second audit's liveness findings, one `describe` each (contracts/TRUST.md, "Liveness"): every round with tickets
 * reaches a state where every ticket is paid, within a time no role can extend.
 */

/** A round of `world` with two native 1-wei tickets, bought by two players. */
async function twoTicketRound(world: RaffleWorld, buyers: HardhatEthersSigner[]) {
  const price = await startRound(world, nativePrice(1n));
  for (const buyer of buyers.slice(0, 2)) await (await purchase(world, buyer, await voucherFor(world, buyer, price))).wait();
  return (await world.raffle.getCurrentRoundInfo()).roundId;
}

/** Refunds every ticket of a refundable round to its buyer and checks the raffle holds nothing of it afterwards. */
async function refundAll(world: RaffleWorld, roundId: bigint, owners: HardhatEthersSigner[]) {
  const round = await world.raffle.getRound(roundId);
  expect(round.status).to.equal(RoundStatus.Refundable);
  for (let i = 0n; i < round.ticketCount; i += 1n) {
    const ticketId = round.firstTicketId + i;
    await expect(refundTicket(world, owners[Number(i)], ticketId)).to.emit(world.raffle, "TicketRefunded");
  }
}

/** Deploys `count` more raffles of the world's merchant and returns the last. */
async function deployMany(world: RaffleWorld, count: number) {
  for (let i = 1; i < count; i += 1) await deployRaffle(world);
  return deployRaffle(world);
}

/** A second VRF mock whose funded subscription is owned by the factory (the factory its consumer), proposed. */
async function proposeSecondCoordinator(world: RaffleWorld) {
  const vrf = await new VRFCoordinatorV2_5Mock__factory(world.admin).deploy(parseEther("0.1"), 1_000_000_000n, parseEther("0.004"));
  const receipt = await (await vrf.createSubscription()).wait();
  const subId = receipt!.logs.map((log) => vrf.interface.parseLog(log)).find((p) => p?.name === "SubscriptionCreated")!.args.subId as bigint;
  await (await vrf.fundSubscription(subId, parseEther("1000"))).wait();
  await (await vrf.addConsumer(subId, await world.factory.getAddress())).wait();
  await (await world.factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: await vrf.getAddress(), subscriptionId: subId })).wait();
  return vrf;
}

describe("liveness: every round ends and every ticket is paid", () => {
  describe("finding 1: the subscription's 100-consumer cap", () => {
    it("deploys and draws the 101st and the 1,000th raffle: raffles are not consumers, the factory is the only one", async () => {
      const world = await deployWorld();
      const hundredFirst = await deployMany(world, 100);
      expect(await world.factory.raffleCount()).to.equal(101n);
      const { subscriptionId } = await world.factory.vrfConfig();
      const [, , , , consumers] = await world.vrf.getSubscription(subscriptionId);
      expect(consumers).to.deep.equal([await world.factory.getAddress()]);

      for (const deployed of [hundredFirst, await deployMany(world, 1_000 - 101)]) {
        const target = { ...world, ...deployed, item: ticketAsset(deployed.ticketAddress) };
        await twoTicketRound(target, world.players);
        const requestId = await endRound(target);
        await expect(world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).to.emit(target.raffle, "WinnersDrawn");
      }
      expect(await world.factory.raffleCount()).to.equal(1_000n);
    });
  });

  describe("finding 2: a refused draw", () => {
    it("refuses a zero budget and delays any cut by VRF_CONFIG_DELAY", async () => {
      const world = await deployWorld();
      const floor = await world.factory.MIN_DRAWS_PER_DAY();
      await expect(world.factory.setDrawsPerDay(0n)).to.be.revertedWithCustomError(world.factory, "DrawBudgetBelowFloor").withArgs(0n, floor);
      const before = await world.factory.drawsPerDay();
      const cut = world.factory.setDrawsPerDay(floor);
      const effectiveAt = (await latestTimestamp()) + 1n + (await world.factory.VRF_CONFIG_DELAY());
      await expect(cut).to.emit(world.factory, "DrawBudgetSet").withArgs(ZeroAddress, floor, effectiveAt);
      expect(await world.factory.drawsPerDay()).to.equal(before);
      await time.increaseTo(effectiveAt);
      expect(await world.factory.drawsPerDay()).to.equal(floor);
      // A raise applies at once.
      await (await world.factory.setDrawsPerDay(before)).wait();
      expect(await world.factory.drawsPerDay()).to.equal(before);
    });

    it("lets anyone end an overdue round after the merchant spent its own budget: the round is refunded", async () => {
      const world = await deployWorld();
      const floor = await world.factory.MIN_DRAWS_PER_DAY();
      await (await world.factory.setMerchantDrawsPerDay(world.merchant.address, floor)).wait();
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      const [alice, bob] = world.players;
      const victim = await twoTicketRound(world, [alice, bob]);
      const spender = await deployRaffle(world);
      const other = { ...world, ...spender, item: ticketAsset(spender.ticketAddress) };
      // Thirty days later, the merchant spends the day's whole budget on its other raffle first.
      await time.increase(await world.raffle.MAX_ROUND_DURATION());
      const dayStart = ((await latestTimestamp()) / ONE_DAY + 1n) * ONE_DAY;
      await time.increaseTo(dayStart);
      for (let i = 0n; i < floor; i += 1n) {
        await twoTicketRound(other, [alice, bob]);
        await endRound(other);
      }
      const ended = world.raffle.connect(alice).endRound();
      await expect(ended).to.emit(world.raffle, "DrawRefused");
      await expect(ended).to.emit(world.raffle, "RoundRefundable").withArgs(victim);
      await refundAll(world, victim, [alice, bob]);
    });

    it("refuses VRF settings the coordinator would refuse", async () => {
      const world = await deployWorld();
      const burner = await new GasBurningCoordinator__factory(world.admin).deploy();
      const bounded = { ...DEFAULT_VRF, coordinator: await burner.getAddress(), subscriptionId: 1n };
      await expect(world.factory.proposeVrfConfig({ ...bounded, requestConfirmations: 201 }))
        .to.be.revertedWithCustomError(world.factory, "VrfConfirmationsOutOfRange")
        .withArgs(201, 3, 200);
      await expect(world.factory.proposeVrfConfig({ ...bounded, requestConfirmations: 2 }))
        .to.be.revertedWithCustomError(world.factory, "VrfConfirmationsOutOfRange")
        .withArgs(2, 3, 200);
      await expect(world.factory.proposeVrfConfig({ ...bounded, callbackGasLimit: 2_500_001 }))
        .to.be.revertedWithCustomError(world.factory, "VrfCallbackGasTooHigh")
        .withArgs(2_500_001, 2_500_000);
      await expect(world.factory.proposeVrfConfig({ ...bounded, keyHash: ZeroHash })).to.be.revertedWithCustomError(
        world.factory,
        "InvalidVrfConfig",
      );
      const mock = await world.vrf.getAddress();
      await expect(world.factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: mock, subscriptionId: 999n }))
        .to.be.revertedWithCustomError(world.factory, "VrfSubscriptionUnusable")
        .withArgs(999n);
      const ownSub = await (await world.vrf.createSubscription()).wait();
      const subId = ownSub!.logs.map((log) => world.vrf.interface.parseLog(log)).find((p) => p?.name === "SubscriptionCreated")!.args.subId as bigint;
      await expect(world.factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: mock, subscriptionId: subId }))
        .to.be.revertedWithCustomError(world.factory, "VrfSubscriptionUnusable")
        .withArgs(subId);
    });

    it("turns a coordinator that burns every request's gas into refunds, never into a frozen round", async () => {
      const world = await deployWorld();
      const burner = await new GasBurningCoordinator__factory(world.admin).deploy();
      await (await world.factory.proposeVrfConfig({ ...DEFAULT_VRF, coordinator: await burner.getAddress(), subscriptionId: 1n })).wait();
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      const [alice, bob] = world.players;
      const roundId = await twoTicketRound(world, [alice, bob]);
      await expect(world.raffle.endRound({ gasLimit: 400_000 })).to.be.revertedWithCustomError(world.raffle, "NotEnoughGasForDraw");
      expect((await world.raffle.getRound(roundId)).status).to.equal(RoundStatus.Active);
      const receipt = await (await world.raffle.endRound({ gasLimit: 1_000_000 })).wait();
      expect(receipt!.gasUsed).to.be.lessThan(1_000_000n);
      await refundAll(world, roundId, [alice, bob]);
    });
  });

  describe("finding 3: a change of settings and the tickets already sold", () => {
    it("draws a round with the settings in force when it started, even after a new coordinator applies", async () => {
      const world = await deployWorld();
      const [alice, bob] = world.players;
      const before = await twoTicketRound(world, [alice, bob]);
      const next = await proposeSecondCoordinator(world);
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      const requestId = await endRound(world);
      expect((await world.raffle.getRound(before)).coordinator).to.equal(await world.vrf.getAddress());
      await expect(world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).to.emit(world.raffle, "WinnersDrawn");
      const after = await twoTicketRound(world, [alice, bob]);
      await endRound(world);
      expect((await world.raffle.getRound(after)).coordinator).to.equal(await next.getAddress());
      expect((await world.raffle.getRound(after)).vrfVersion).to.equal((await world.raffle.getRound(before)).vrfVersion + 1n);
    });

    it("refunds a round whose own settings' subscription the platform retired", async () => {
      const world = await deployWorld();
      const [alice, bob] = world.players;
      const roundId = await twoTicketRound(world, [alice, bob]);
      const old = await world.factory.vrfConfig();
      await proposeSecondCoordinator(world);
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      await expect(world.factory.cancelVrfSubscription(old.coordinator, old.subscriptionId, world.admin.address)).to.emit(
        world.vrf,
        "SubscriptionCanceled",
      );
      const ended = world.raffle.endRound();
      await expect(ended).to.emit(world.raffle, "DrawRefused");
      await refundAll(world, roundId, [alice, bob]);
      const current = await world.factory.vrfConfig();
      await expect(world.factory.cancelVrfSubscription(current.coordinator, current.subscriptionId, world.admin.address))
        .to.be.revertedWithCustomError(world.factory, "VrfSubscriptionInUse")
        .withArgs(current.subscriptionId);
    });
  });

  describe("finding 4: a raffle deployed while a subscription change is pending", () => {
    it("draws on the new subscription once the change applies, with no consumer to add", async () => {
      const world = await deployWorld();
      const next = await proposeSecondCoordinator(world);
      const late = await deployRaffle(world);
      const target = { ...world, ...late, item: ticketAsset(late.ticketAddress) };
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      await twoTicketRound(target, world.players);
      const requestId = await endRound(target);
      await expect(next.fulfillRandomWords(requestId, await world.factory.getAddress())).to.emit(target.raffle, "WinnersDrawn");
    });
  });

  describe("finding 5: a listed token that switches on a fee mid-round", () => {
    it("refuses the short purchase, so every refund of the round is paid in full", async () => {
      const world = await deployWorld();
      const token = await new SwitchableFeeToken__factory(world.admin).deploy();
      await listPriceToken(world, token);
      const amount = 1_000n;
      const price = await startRound(world, erc20Price(await token.getAddress(), amount));
      const [alice, bob, carol] = world.players;
      for (const buyer of [alice, bob, carol]) {
        await (await token.mint(buyer.address, amount * 2n)).wait();
        await (await token.connect(buyer).approve(await world.exchange.getAddress(), MaxUint256)).wait();
      }
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      await (await token.setFeeOn(true)).wait();
      await expect(purchase(world, carol, await voucherFor(world, carol, price)))
        .to.be.revertedWithCustomError(world.exchange, "PaymentShort")
        .withArgs(amount, amount - amount / 100n);
      await endRound(world);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await (await world.raffle.enableRefunds(1n)).wait();
      await (await token.setFeeOn(false)).wait();
      await refundAll(world, 1n, [alice, bob]);
      expect(await token.balanceOf(world.address)).to.equal(0n);
    });
  });

  describe("finding 6: per-merchant levers", () => {
    it("stops a revoked merchant's new rounds and still ends and draws the rounds it sold", async () => {
      const world = await deployWorld();
      const [alice, bob] = world.players;
      const sold = await twoTicketRound(world, [alice, bob]);
      await (await world.factory.revokeRole(await world.factory.MERCHANT_ROLE(), world.merchant.address)).wait();
      const requestId = await endRound(world);
      await expect(world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).to.emit(world.raffle, "WinnersDrawn");
      expect((await world.raffle.getRound(sold)).status).to.equal(RoundStatus.Drawn);
      await expect(startErc20Round(world)).to.be.revertedWithCustomError(world.factory, "MerchantNotActive").withArgs(world.merchant.address);
    });

    it("throttles one merchant with a budget of its own, leaving the others on the default", async () => {
      const world = await deployWorld();
      const floor = await world.factory.MIN_DRAWS_PER_DAY();
      const other = world.players[7];
      await (await world.factory.setMerchantDrawsPerDay(world.merchant.address, floor)).wait();
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      expect(await world.factory.drawsPerDayOf(world.merchant.address)).to.equal(floor);
      expect(await world.factory.drawsPerDayOf(other.address)).to.equal(await world.factory.DEFAULT_DRAWS_PER_DAY());
      await expect(world.factory.connect(world.merchant).setMerchantDrawsPerDay(world.merchant.address, 10_000n)).to.be.revertedWithCustomError(
        world.factory,
        "AccessControlUnauthorizedAccount",
      );
    });
  });

  describe("finding 7: proposals expire", () => {
    it("refuses to apply a proposal past VRF_PROPOSAL_WINDOW after its notice", async () => {
      const world = await deployWorld();
      await proposeSecondCoordinator(world);
      const effectiveAt = await world.factory.pendingVrfEffectiveAt();
      const expiredAt = effectiveAt + (await world.factory.VRF_PROPOSAL_WINDOW());
      await time.increaseTo(expiredAt + 1n);
      await expect(world.factory.applyVrfConfig()).to.be.revertedWithCustomError(world.factory, "VrfConfigProposalExpired").withArgs(expiredAt);
    });
  });
});
