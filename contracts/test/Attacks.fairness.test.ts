import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, Wallet, parseEther } from "ethers";

import {
  BlocklistToken__factory,
  FeeOnTransferToken__factory,
  NoReturnToken__factory,
  ShortDeliveryToken__factory,
  TestCollectible__factory,
  TokenType,
  VRFCoordinatorV2_5Mock__factory,
  type AssetStruct,
} from "@raffle/chain";
import { DEFAULT_VRF, ONE_DAY, deployRaffle, erc20Price, listPriceToken, nativePrice, ticketAsset } from "./support/fixtures";
import {
  PrizeStatus,
  RoundStatus,
  approveExchange,
  buyBundle,
  buyTicket,
  claimPrizes,
  claimRoundPrize,
  plainAsset,
  refundTickets,
  setRules,
  deployWorld,
  endRound,
  impersonate,
  purchase,
  refundTicket,
  startErc20Round,
  startRound,
  voucherFor,
  winnersOf,
  type RaffleWorld,
} from "./support/scenario";
import { latestTimestamp } from "./support/vouchers";

/**
 * The fairness and solvency attacks of the contract review, each replayed against the contracts: every one must now
 * fail with the custom error that names it, or be handled so that every refund and prize is paid. The table printed
 * at the end is what the README's trust model cites.
 */
const report: Array<{ attack: string; outcome: string }> = [];

type ErrorSource = { interface: { getError(name: string): unknown } };

async function refused(attack: string, action: Promise<unknown>, contract: ErrorSource, error: string) {
  await expect(action).to.be.revertedWithCustomError(contract as never, error);
  report.push({ attack, outcome: `reverts ${error}` });
}

function handled(attack: string, outcome: string) {
  report.push({ attack, outcome });
}

/** A raffle with an ERC20 round and three players approved, ready to be drawn. */
async function drawingWorld() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const [alice, bob, carol] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  for (const buyer of [alice, bob, carol]) await buyTicket(world, buyer, price);
  const requestId = await endRound(world);
  return { world, price, alice, bob, carol, requestId };
}

/** A second, real VRF coordinator with a funded subscription owned by the factory, offered to the factory. */
async function secondCoordinator(world: RaffleWorld) {
  const vrf = await new VRFCoordinatorV2_5Mock__factory(world.admin).deploy(parseEther("0.1"), 1_000_000_000n, parseEther("0.004"));
  const receipt = await (await vrf.createSubscription()).wait();
  const subId = receipt!.logs.map((log) => vrf.interface.parseLog(log)).find((p) => p?.name === "SubscriptionCreated")!.args.subId as bigint;
  await (await vrf.fundSubscription(subId, parseEther("1000"))).wait();
  await (await vrf.addConsumer(subId, await world.factory.getAddress())).wait();
  return { vrf, config: { ...DEFAULT_VRF, coordinator: await vrf.getAddress(), subscriptionId: subId } };
}

/** Starts a round priced in `token` (listed by the platform) and has `buyers` each buy one ticket. */
async function roundInToken(
  world: RaffleWorld,
  token: { getAddress(): Promise<string>; mint(to: string, amount: bigint): Promise<unknown> },
  buyers: HardhatEthersSigner[],
  amount = 1_000n,
): Promise<AssetStruct> {
  await listPriceToken(world, token);
  const price = await startRound(world, erc20Price(await token.getAddress(), amount));
  const erc20 = token as unknown as { connect(s: HardhatEthersSigner): { approve(a: string, v: bigint): Promise<{ wait(): Promise<unknown> }> } };
  for (const buyer of buyers) {
    await ((await token.mint(buyer.address, amount)) as { wait(): Promise<unknown> }).wait();
    await (await erc20.connect(buyer).approve(await world.exchange.getAddress(), MaxUint256)).wait();
    await buyTicket(world, buyer, price);
  }
  return price;
}

describe("attacks on fairness and the pot (contract review catalogue)", () => {
  after(() => {
    console.table(report);
    expect(report.length).to.be.at.least(30);
  });

  describe("the draw", () => {
    it("a merchant answering its own draw", async () => {
      const { world, requestId } = await loadFixture(drawingWorld);
      await refused(
        "merchant calls the factory's rawFulfillRandomWords with a word of its choice",
        world.factory.connect(world.merchant).rawFulfillRandomWords(requestId, [0n]),
        world.factory,
        "UnknownVrfRequest",
      );
      await refused(
        "merchant delivers a word straight to its raffle's fulfillDraw",
        world.raffle.connect(world.merchant).fulfillDraw(1n, requestId, 0n),
        world.raffle,
        "CallerNotFactory",
      );
      const stranger = await impersonate(Wallet.createRandom().address);
      await refused(
        "a contract posing as a coordinator answers",
        world.factory.connect(stranger).rawFulfillRandomWords(requestId, [0n]),
        world.factory,
        "UnknownVrfRequest",
      );
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
    });

    it("a merchant setting its own coordinator", async () => {
      const { world } = await loadFixture(drawingWorld);
      const ownCoordinator = { ...DEFAULT_VRF, coordinator: world.merchant.address };
      await refused(
        "merchant proposes its own coordinator on the factory",
        world.factory.connect(world.merchant).proposeVrfConfig(ownCoordinator),
        world.factory,
        "AccessControlUnauthorizedAccount",
      );
      handled("merchant looks for a VRF setter on its raffle", "none exists (ABI checked in Raffle.admin.test)");
    });

    it("the platform swapping the coordinator while a round waits", async () => {
      const { world, requestId } = await loadFixture(drawingWorld);
      const { vrf: next, config } = await secondCoordinator(world);
      await (await world.factory.proposeVrfConfig(config)).wait();
      await refused(
        "platform applies a new coordinator before the notice ends",
        world.factory.applyVrfConfig(),
        world.factory,
        "VrfConfigNotYetEffective",
      );
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      const coordinator = await impersonate(await next.getAddress());
      await refused(
        "the new coordinator answers a round the old one was asked",
        world.factory.connect(coordinator).rawFulfillRandomWords(requestId, [0n]),
        world.factory,
        "UnknownVrfRequest",
      );
      expect((await world.raffle.getRound(1n)).coordinator).to.equal(await world.vrf.getAddress());
      const price = await startErc20Round(world);
      for (const buyer of [world.players[0], world.players[1]]) await buyTicket(world, buyer, price);
      await endRound(world);
      expect((await world.raffle.getRound(2n)).coordinator).to.equal(await next.getAddress());
      handled("a round drawn after the change", "uses the new coordinator; the earlier round keeps the one it asked");
    });

    it("a dead coordinator with a timeout of decades", async () => {
      const { world } = await loadFixture(drawingWorld);
      const { subscriptionId } = await world.factory.vrfConfig();
      const tooLong = { ...DEFAULT_VRF, coordinator: await world.vrf.getAddress(), subscriptionId, randomnessTimeout: 7n * ONE_DAY + 1n };
      await refused("platform sets a randomness timeout above 7 days", world.factory.proposeVrfConfig(tooLong), world.factory, "InvalidVrfConfig");
      const refundableAt = (await world.raffle.getRound(1n)).refundableAt;
      await (await world.factory.proposeVrfConfig({ ...tooLong, randomnessTimeout: 7n * ONE_DAY })).wait();
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      await (await world.factory.applyVrfConfig()).wait();
      expect((await world.raffle.getRound(1n)).refundableAt).to.equal(refundableAt);
      await expect(world.raffle.enableRefunds(1n)).to.emit(world.raffle, "RoundRefundable");
      handled("a longer timeout set after endRound", "does not move the round's refundableAt (fixed when it asked)");
    });

    it("a loser racing a late answer with enableRefunds", async () => {
      const { world, requestId } = await loadFixture(drawingWorld);
      const { refundableAt } = await world.raffle.getRound(1n);
      await refused("enableRefunds before the round's refundableAt", world.raffle.enableRefunds(1n), world.raffle, "RandomnessNotTimedOut");
      // The answer lands at refundableAt with nobody having called enableRefunds: it is ignored all the same, so
      // seeing it in the mempool and racing it changes nothing.
      await time.setNextBlockTimestamp(refundableAt);
      await (await world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).wait();
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawing);
      await expect(world.raffle.enableRefunds(1n)).to.emit(world.raffle, "RoundRefundable");
      handled("a VRF answer mined at or after refundableAt", "ignored whoever calls enableRefunds: time alone decides");
    });

    it("refunds opened after an answer in time", async () => {
      const { world, requestId } = await loadFixture(drawingWorld);
      const { refundableAt } = await world.raffle.getRound(1n);
      await time.setNextBlockTimestamp(refundableAt - 1n);
      await expect(world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).to.emit(world.raffle, "WinnersDrawn");
      await refused(
        "enableRefunds on a round drawn one second before its timeout",
        world.raffle.enableRefunds(1n),
        world.raffle,
        "UnexpectedRoundStatus",
      );
    });

    it("a merchant running the shared subscription dry", async () => {
      const world = await deployWorld();
      const floor = await world.factory.MIN_DRAWS_PER_DAY();
      await refused(
        "the platform sets a budget under the floor",
        world.factory.setMerchantDrawsPerDay(world.merchant.address, floor - 1n),
        world.factory,
        "DrawBudgetBelowFloor",
      );
      await (await world.factory.setMerchantDrawsPerDay(world.merchant.address, floor)).wait();
      await time.increase(await world.factory.VRF_CONFIG_DELAY());
      expect(await world.factory.drawsPerDayOf(world.merchant.address)).to.equal(floor);
      const second = await deployRaffle(world);
      const other = { ...world, ...second, item: ticketAsset(second.ticketAddress) };
      const [alice, bob] = world.players;
      // Pin the clock to the start of a day, so every draw below falls in one UTC day.
      const nextDay = ((await latestTimestamp()) / ONE_DAY + 1n) * ONE_DAY;
      await time.increaseTo(nextDay);
      const twoTicketRound = async (target: RaffleWorld) => {
        const price = await startRound(target, nativePrice(1n));
        for (const buyer of [alice, bob]) await (await purchase(target, buyer, await voucherFor(target, buyer, price))).wait();
      };
      for (let draw = 0n; draw < floor; draw += 1n) {
        const target = draw % 2n === 0n ? world : other;
        await twoTicketRound(target);
        expect(await endRound(target)).to.not.equal(0n);
      }
      expect(await world.factory.drawsUsedToday(world.merchant.address)).to.equal(floor);
      await twoTicketRound(world);
      const over = world.raffle.endRound();
      await expect(over).to.emit(world.raffle, "DrawRefused");
      await expect(over).not.to.emit(world.vrf, "RandomWordsRequested");
      const roundId = (await world.raffle.getCurrentRoundInfo()).roundId;
      expect((await world.raffle.getRound(roundId)).status).to.equal(RoundStatus.Refundable);
      handled(
        `a ${floor + 1n}th 1-wei, 2-ticket draw in a day over a ${floor}-draw budget (across the merchant's raffles)`,
        "asks no randomness: the round is refundable at once, its tickets paid back in full",
      );
      const refunded = await refundTicket(world, alice, (await world.raffle.getRound(roundId)).firstTicketId);
      await expect(refunded).to.emit(world.raffle, "TicketRefunded");
    });

    it("a merchant never ending a round", async () => {
      const world = await deployWorld();
      const price = await startErc20Round(world);
      const [alice, bob] = world.players;
      await approveExchange(world, [alice, bob]);
      await buyTicket(world, alice, price);
      await buyTicket(world, bob, price);
      await refused("a stranger ends a round that is not overdue", world.raffle.connect(alice).endRound(), world.raffle, "RoundNotOverdue");
      await time.increase(await world.raffle.MAX_ROUND_DURATION());
      const ended = world.raffle.connect(alice).endRound();
      await expect(ended).to.emit(world.vrf, "RandomWordsRequested");
      const { vrfRequestId } = await world.raffle.getRound(1n);
      await expect(world.vrf.fulfillRandomWords(vrfRequestId, await world.factory.getAddress())).to.emit(world.raffle, "WinnersDrawn");
      handled("a 2-ticket round left open for MAX_ROUND_DURATION", "anyone may end it; the platform's coordinator draws it");
    });
  });

  describe("the pot", () => {
    it("price tokens that would leave the raffle owing more than it holds", async () => {
      const world = await deployWorld();
      const fee = await new FeeOnTransferToken__factory(world.admin).deploy();
      const short = await new ShortDeliveryToken__factory(world.admin).deploy();
      const collectible = await new TestCollectible__factory(world.admin).deploy("Item", "ITM", world.admin.address);
      const cases: Array<[string, string]> = [
        ["a fee-on-transfer token as price", await fee.getAddress()],
        ["a token delivering 1 wei short as price", await short.getAddress()],
        ["an ERC721 passed as an ERC20 price", await collectible.getAddress()],
      ];
      for (const [attack, token] of cases) {
        await refused(attack, world.raffle.startRound(world.item, erc20Price(token), 0n), world.raffle, "PriceTokenNotAllowed");
      }
      await refused(
        "an ERC721 as ERC721 price",
        world.raffle.startRound(world.item, { tokenType: TokenType.ERC721, token: await collectible.getAddress(), tokenId: 1n, amount: 1n }, 0n),
        world.raffle,
        "InvalidPriceAsset",
      );
    });

    it("a USDT-style token that returns nothing", async () => {
      const world = await deployWorld();
      const token = await new NoReturnToken__factory(world.admin).deploy();
      const [alice, bob, carol] = world.players;
      await roundInToken(world, token, [alice, bob, carol]);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
      await (await claimRoundPrize(world, bob, 1n)).wait();
      await (await world.raffle.withdrawCommission(await token.getAddress())).wait();
      expect(await token.balanceOf(bob.address)).to.equal(2_700n); // 3,000 pot less 10% commission
      expect(await token.balanceOf(world.merchant.address)).to.equal(300n);
      expect(await token.balanceOf(world.address)).to.equal(0n);
      handled("a listed USDT-style token (no return value)", "prize and commission paid in full through SafeERC20");
    });

    it("a token that blocks the winner", async () => {
      const world = await deployWorld();
      const token = await new BlocklistToken__factory(world.admin).deploy();
      const [alice, bob, carol, dave] = world.players;
      await roundInToken(world, token, [alice, bob, carol]);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
      await (await token.setBlocked(bob.address, true)).wait();
      await refused("the token blocks the winner's address at claim", claimRoundPrize(world, bob, 1n), token, "AddressBlocked");
      await (await world.ticket.connect(bob).transferFrom(bob.address, dave.address, 2n)).wait();
      await (await claimRoundPrize(world, dave, 1n)).wait();
      expect(await token.balanceOf(dave.address)).to.equal(2_700n);
      handled("the blocked winner moves its ticket to another address", "that address claims the whole prize");
    });

    it("a token that blocks a refund's owner", async () => {
      const world = await deployWorld();
      const token = await new BlocklistToken__factory(world.admin).deploy();
      const [alice, bob, carol, dave] = world.players;
      await roundInToken(world, token, [alice, bob, carol]);
      await endRound(world);
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await (await world.raffle.enableRefunds(1n)).wait();
      await (await token.setBlocked(alice.address, true)).wait();
      await expect(refundTicket(world, alice, 1n)).to.be.revertedWithCustomError(token, "AddressBlocked");
      await (await world.ticket.connect(alice).transferFrom(alice.address, dave.address, 1n)).wait();
      for (const [owner, ticketId] of [
        [dave, 1n],
        [bob, 2n],
        [carol, 3n],
      ] as const) {
        await (await refundTicket(world, owner, ticketId)).wait();
      }
      expect(await token.balanceOf(world.address)).to.equal(0n);
      handled("every refund of a round in a blocking token", "paid in full, the blocked holder's through another address");
    });

    it("selling a claimed winning ticket as if it carried the pot", async () => {
      const { world, bob, requestId } = await loadFixture(drawingWorld);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
      expect(await winnersOf(world, 1n)).to.deep.equal([[2n, PrizeStatus.Unclaimed]]);
      await (await claimRoundPrize(world, bob, 1n)).wait();
      // Anyone offered ticket 2 can read on chain that its prize is gone.
      expect(await winnersOf(world, 1n)).to.deep.equal([[2n, PrizeStatus.Claimed]]);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);
      await refused("claiming a claimed prize again (e.g. by its buyer)", claimRoundPrize(world, bob, 1n), world.raffle, "UnexpectedRoundStatus");
      handled("a claimed winning ticket", "the raffle's getWinners reads its prize Claimed (and the round Claimed)");
    });

    it("pausing to hold back prizes and refunds", async () => {
      const { world, bob, requestId } = await loadFixture(drawingWorld);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
      await (await world.raffle.pause()).wait();
      await (await world.exchange.connect(world.admin).pause()).wait();
      await expect(claimRoundPrize(world, bob, 1n)).to.emit(world.raffle, "PrizeClaimed");
      handled("the merchant pauses its raffle and the platform the Exchange after a draw", "the winner still claims: pauses stop purchases only");

      const refunds = await drawingWorld();
      await (await refunds.world.raffle.pause()).wait();
      await time.increase(DEFAULT_VRF.randomnessTimeout);
      await (await refunds.world.raffle.connect(refunds.carol).enableRefunds(1n)).wait();
      await expect(refundTicket(refunds.world, refunds.alice, 1n)).to.emit(refunds.world.raffle, "TicketRefunded");
      handled("the merchant pauses its raffle before refunds open", "refunds open and pay all the same");
    });

    it("the platform unlisting a price token in the middle of a round", async () => {
      const { world, bob, requestId } = await loadFixture(drawingWorld);
      await (await world.factory.setPriceToken(await world.token.getAddress(), false)).wait();
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
      await expect(claimRoundPrize(world, bob, 1n)).to.emit(world.raffle, "PrizeClaimed");
      await refused(
        "a new round in the unlisted token",
        world.raffle.startRound(world.item, erc20Price(await world.token.getAddress()), 0n),
        world.raffle,
        "PriceTokenNotAllowed",
      );
      handled("a round started before its token was unlisted", "is drawn and paid as usual");
    });

    it("a voucher used in a later round at another price", async () => {
      const world = await deployWorld();
      const price = await startErc20Round(world);
      const [alice] = world.players;
      await approveExchange(world, [alice]);
      const voucher = await voucherFor(world, alice, price);
      await endRound(world);
      await startErc20Round(world, 0n, 1n);
      await refused("a round-1 voucher in round 2 at another price", purchase(world, alice, voucher), world.raffle, "PriceMismatch");
    });
  });

  describe("bundles, caps, minimums and several winners", () => {
    async function podiumWorld() {
      const world = await deployWorld();
      await approveExchange(world, world.players.slice(0, 4));
      await setRules(world, { prizeShares: [5_000, 3_000, 2_000], minTickets: 3, maxTicketsPerWallet: 10, bundles: [[5n, 45n * 10n ** 17n]] });
      await startErc20Round(world);
      return world;
    }

    it("a whale buying the whole round", async () => {
      const world = await loadFixture(podiumWorld);
      const [whale] = world.players;
      await buyBundle(world, whale, 10n);
      const price = plainAsset(await world.raffle.priceOf(1n));
      await refused(
        "a whale buying past the wallet cap",
        purchase(world, whale, await voucherFor(world, whale, price)),
        world.raffle,
        "WalletLimitReached",
      );
    });

    it("a bundle voucher at the price of fewer tickets", async () => {
      const world = await loadFixture(podiumWorld);
      const [alice] = world.players;
      const fourTickets = plainAsset(await world.raffle.priceOf(4n));
      const voucher = await voucherFor(world, alice, fourTickets, { item: { ...world.item, amount: 5n } });
      await refused("five tickets at the price of four", purchase(world, alice, voucher), world.raffle, "PriceMismatch");
    });

    it("the merchant changing the prize shares of a running round", async () => {
      const world = await loadFixture(podiumWorld);
      await setRules(world, { prizeShares: [10_000] });
      expect((await world.raffle.getRoundRules(1n)).prizeShares).to.deep.equal([5_000n, 3_000n, 2_000n]);
      handled("new prize shares in the middle of a round", "the running round keeps its rules; the next round gets the new ones");
    });

    it("claiming the same prize twice in one batch", async () => {
      const world = await loadFixture(podiumWorld);
      const [alice] = world.players;
      await buyBundle(world, alice, 5n);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [42n])).wait();
      const [first] = await world.raffle.getWinners(1n);
      await refused(
        "one prize named twice in claimPrizes",
        claimPrizes(world, alice, [1n, first.ticketId], [1n, first.ticketId]),
        world.raffle,
        "NoPrizeToClaim",
      );
    });

    it("refunding a ticket of a drawn round by naming a refundable one", async () => {
      const world = await loadFixture(podiumWorld);
      const [alice] = world.players;
      await buyBundle(world, alice, 2n); // below the minimum of 3: refundable at once
      await endRound(world);
      await startErc20Round(world);
      const drawnTicket = await buyBundle(world, alice, 5n);
      await refused("a ticket of round 2 refunded as round 1's", refundTickets(world, alice, [1n, drawnTicket]), world.raffle, "TicketNotInRound");
    });
  });
});
