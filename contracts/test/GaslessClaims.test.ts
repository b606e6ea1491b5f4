import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { Wallet, ZeroAddress, concat, type Signer } from "ethers";

import {
  PURCHASE_INTENT_TYPES,
  PayeeSigningWallet__factory,
  RaffleDeployer__factory,
  RaffleTicketDeployer__factory,
  Raffle__factory,
  SigningWallet__factory,
  exchangeDomain,
  signClaimIntent,
  signRefundIntent,
  type GaslessSettlement,
  type SettleIntentArgs,
  type TicketRefArgs,
} from "@raffle/chain";

import { COMMISSION_BPS, NATIVE_TICKET_PRICE, ONE_DAY, TICKET_PRICE } from "./support/fixtures";
import {
  approveExchange,
  buyTicket,
  claimPrizesCall,
  deployWorld,
  endRound,
  PrizeStatus,
  RoundStatus,
  setRules,
  startErc20Round,
  startNativeRound,
  type RaffleWorld,
} from "./support/scenario";
import { latestTimestamp } from "./support/vouchers";

/**
 * Claims and refunds without gas (docs/contracts.md "Claims and refunds without gas"): the ticket holder signs a
 * ClaimIntent or RefundIntent on the Exchange's domain, a relayer submits it and pays the gas, and the Exchange
 * forwards the call to the raffle with the holder appended (ERC-2771). The relayer can delay or refuse; it can never
 * take the prize or the refund, settle other tickets, or replay a settlement (contracts/TRUST.md "Relayer").
 */

const BASIS_POINTS = 10_000n;
const POT = 3n * TICKET_PRICE;
const PRIZE = POT - (POT * COMMISSION_BPS) / BASIS_POINTS;
const WINNING_TICKET = 2n;

type Kind = "claim" | "refund";

async function chainId(): Promise<bigint> {
  return (await ethers.provider.getNetwork()).chainId;
}

/** Signs `kind`'s intent for `holder` (signed by `key`) of `tickets` on the world's raffle, valid ten minutes. */
async function sign(
  world: RaffleWorld,
  kind: Kind,
  key: Signer,
  holder: string,
  tickets: TicketRefArgs[],
  overrides: Partial<Omit<GaslessSettlement, "holder" | "tickets"> & { deadline: bigint }> = {},
): Promise<SettleIntentArgs> {
  const settlement: GaslessSettlement = {
    chainId: overrides.chainId ?? (await chainId()),
    exchange: overrides.exchange ?? (await world.exchange.getAddress()),
    raffle: overrides.raffle ?? world.address,
    holder,
    tickets,
  };
  const deadline = overrides.deadline ?? (await latestTimestamp()) + 600n;
  return kind === "claim" ? signClaimIntent(key, settlement, deadline) : signRefundIntent(key, settlement, deadline);
}

/** The relayer submits `intent` for `tickets` of `raffle` (the world's by default). */
function relay(
  world: RaffleWorld,
  relayer: HardhatEthersSigner,
  kind: Kind,
  intent: SettleIntentArgs,
  tickets: TicketRefArgs[],
  raffle = world.address,
) {
  const exchange = world.exchange.connect(relayer);
  const submit = kind === "claim" ? exchange.claimPrizesBySig : exchange.refundTicketsBySig;
  return submit(raffle, tickets, intent.holder, intent.deadline, intent.signature);
}

const ref = (roundId: bigint, ticketId: bigint): TicketRefArgs => ({ roundId, ticketId });

/**
 * An ERC20 round of three tickets, drawn so that ticket 2 wins; alice, an account with no ETH, holds the winning
 * ticket, carol (a player) ticket 3.
 */
async function erc20DrawnFixture() {
  const world = await deployWorld();
  const [p0, p1, carol, eve, relayer] = world.players;
  await approveExchange(world, [p0, p1, carol]);
  const price = await startErc20Round(world);
  for (const buyer of [p0, p1, carol]) await buyTicket(world, buyer, price);
  const alice = Wallet.createRandom().connect(ethers.provider);
  await (await world.ticket.connect(p1).transferFrom(p1.address, alice.address, WINNING_TICKET)).wait();
  const requestId = await endRound(world);
  await (await world.vrf.fulfillRandomWordsWithOverride(requestId, await world.factory.getAddress(), [1n])).wait();
  expect((await world.raffle.getRound(1n)).winningTicketId).to.equal(WINNING_TICKET);
  return { world, alice, carol, eve, relayer, tickets: [ref(1n, WINNING_TICKET)] };
}

/** An ERC20 round that needed five tickets and sold three: refundable. Alice (no ETH) holds tickets 1 and 2. */
async function erc20RefundableFixture() {
  const world = await deployWorld();
  const [p0, p1, carol, eve, relayer] = world.players;
  await approveExchange(world, [p0, p1, carol]);
  await setRules(world, { minTickets: 5 });
  const price = await startErc20Round(world);
  for (const buyer of [p0, p1, carol]) await buyTicket(world, buyer, price);
  const alice = Wallet.createRandom().connect(ethers.provider);
  await (await world.ticket.connect(p0).transferFrom(p0.address, alice.address, 1n)).wait();
  await (await world.ticket.connect(p1).transferFrom(p1.address, alice.address, 2n)).wait();
  await endRound(world);
  return { world, alice, carol, eve, relayer, tickets: [ref(1n, 1n), ref(1n, 2n)] };
}

/**
 * NATIVE rounds whose one ticket a reacting ERC-1271 wallet holds: round 1 won outright (one ticket, one prize), the
 * raffle's second round refundable (it needed two tickets). The wallet's key signs its intents.
 */
async function nativeWalletFixture() {
  const world = await deployWorld();
  const [p0, , , eve, relayer] = world.players;
  const key = Wallet.createRandom();
  const wallet = await new PayeeSigningWallet__factory(relayer).deploy(key.address);
  const walletAddress = await wallet.getAddress();
  const price = await startNativeRound(world);
  const prizeTicket = await buyTicket(world, p0, price);
  await (await world.ticket.connect(p0).transferFrom(p0.address, walletAddress, prizeTicket)).wait();
  await endRound(world);
  await setRules(world, { minTickets: 2 });
  await startNativeRound(world);
  const refundTicket = await buyTicket(world, p0, price);
  await (await world.ticket.connect(p0).transferFrom(p0.address, walletAddress, refundTicket)).wait();
  await endRound(world);
  const prize = NATIVE_TICKET_PRICE - (NATIVE_TICKET_PRICE * COMMISSION_BPS) / BASIS_POINTS;
  return { world, key, wallet, walletAddress, eve, relayer, prize, claim: [ref(1n, prizeTicket)], refund: [ref(2n, refundTicket)] };
}

describe("Gasless claims and refunds", () => {
  describe("a holder with no ETH", () => {
    it("claims its prize on one signature: the relayer pays the gas and gets nothing; a replay pays nothing", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      expect(await ethers.provider.getBalance(alice.address)).to.equal(0n);
      const intent = await sign(world, "claim", alice, alice.address, tickets);
      const tx = relay(world, relayer, "claim", intent, tickets);
      await expect(tx).to.changeTokenBalances(world.token, [alice, relayer, world.raffle], [PRIZE, 0n, -PRIZE]);
      await expect(tx)
        .to.emit(world.raffle, "PrizeClaimed")
        .withArgs(1n, WINNING_TICKET, alice.address, PRIZE, POT - PRIZE);
      // The round's one prize is claimed, so the round is over; a prize among others would be NoPrizeToClaim.
      await expect(relay(world, relayer, "claim", intent, tickets))
        .to.be.revertedWithCustomError(world.raffle, "UnexpectedRoundStatus")
        .withArgs(1n, RoundStatus.Claimed);
    });

    it("claims one of two prizes; its replay is refused while the other prize stays open", async () => {
      const world = await deployWorld();
      const [p0, p1, carol, , relayer] = world.players;
      await approveExchange(world, [p0, p1, carol]);
      await setRules(world, { prizeShares: [6_000, 4_000] });
      const price = await startErc20Round(world);
      for (const buyer of [p0, p1, carol]) await buyTicket(world, buyer, price);
      const requestId = await endRound(world);
      await (await world.vrf.fulfillRandomWords(requestId, await world.factory.getAddress())).wait();
      const [first, second] = await world.raffle.getWinners(1n);
      const alice = Wallet.createRandom().connect(ethers.provider);
      const firstOwner = await ethers.getSigner(await world.ticket.ownerOf(first.ticketId));
      await (await world.ticket.connect(firstOwner).transferFrom(firstOwner.address, alice.address, first.ticketId)).wait();
      const tickets = [ref(1n, first.ticketId)];
      const intent = await sign(world, "claim", alice, alice.address, tickets);
      const prize = first.amount - (first.amount * COMMISSION_BPS) / BASIS_POINTS;
      await expect(relay(world, relayer, "claim", intent, tickets)).to.changeTokenBalances(world.token, [alice, relayer], [prize, 0n]);
      await expect(relay(world, relayer, "claim", intent, tickets))
        .to.be.revertedWithCustomError(world.raffle, "NoPrizeToClaim")
        .withArgs(1n, first.ticketId);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Drawn);
      const [, open] = await world.raffle.getWinners(1n);
      expect([open.ticketId, Number(open.status)]).to.deep.equal([second.ticketId, PrizeStatus.Unclaimed]);
    });

    it("refunds its tickets in one batch, paying the holder; a burnt ticket never pays twice", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20RefundableFixture);
      const intent = await sign(world, "refund", alice, alice.address, tickets);
      const tx = relay(world, relayer, "refund", intent, tickets);
      await expect(tx).to.changeTokenBalances(world.token, [alice, relayer, world.raffle], [2n * TICKET_PRICE, 0n, -2n * TICKET_PRICE]);
      await expect(tx).to.emit(world.raffle, "TicketRefunded").withArgs(1n, 1n, alice.address, TICKET_PRICE);
      await expect(tx).to.emit(world.raffle, "TicketRefunded").withArgs(1n, 2n, alice.address, TICKET_PRICE);
      await expect(relay(world, relayer, "refund", intent, tickets)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");
    });

    it("works while the Exchange and the raffle are paused: settlement is never pausable", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      await (await world.exchange.connect(world.admin).pause()).wait();
      await (await world.raffle.connect(world.merchant).pause()).wait();
      const intent = await sign(world, "claim", alice, alice.address, tickets);
      await expect(relay(world, relayer, "claim", intent, tickets)).to.changeTokenBalance(world.token, alice, PRIZE);
    });
  });

  describe("an ERC-1271 holder", () => {
    it("claims with its signer's key; the prize goes to the wallet", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const wallet = await new SigningWallet__factory(relayer).deploy(alice.address);
      const walletAddress = await wallet.getAddress();
      // Gas for alice's one transfer into her wallet; the claim itself costs the wallet nothing.
      await (await world.players[8].sendTransaction({ to: alice.address, value: 10n ** 17n })).wait();
      await (await world.ticket.connect(alice).transferFrom(alice.address, walletAddress, WINNING_TICKET)).wait();

      const intent = await sign(world, "claim", alice, walletAddress, tickets);
      await expect(relay(world, relayer, "claim", intent, tickets)).to.changeTokenBalances(world.token, [wallet, alice, relayer], [PRIZE, 0n, 0n]);

      const bystander = Wallet.createRandom();
      const forged = await sign(world, "claim", bystander, walletAddress, tickets);
      await expect(relay(world, relayer, "claim", forged, tickets))
        .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
        .withArgs(walletAddress);
    });

    it("refunds a NATIVE ticket to the wallet", async () => {
      const { world, key, wallet, walletAddress, relayer, refund } = await loadFixture(nativeWalletFixture);
      const intent = await sign(world, "refund", key, walletAddress, refund);
      await expect(relay(world, relayer, "refund", intent, refund)).to.changeEtherBalances(
        [wallet, relayer, world.raffle],
        [NATIVE_TICKET_PRICE, 0n, -NATIVE_TICKET_PRICE],
        { includeFee: false },
      );
    });
  });

  describe("the relayer cannot redirect a settlement", () => {
    it("cannot name itself or anyone else as the holder of another's signature", async () => {
      const { world, alice, eve, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const intent = await sign(world, "claim", alice, alice.address, tickets);
      for (const holder of [relayer.address, eve.address, ZeroAddress]) {
        await expect(relay(world, relayer, "claim", { ...intent, holder }, tickets))
          .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
          .withArgs(holder);
      }
    });

    it("cannot claim a ticket the signer does not hold, with the signer's own signature", async () => {
      const { world, eve, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const intent = await sign(world, "claim", eve, eve.address, tickets);
      await expect(relay(world, relayer, "claim", intent, tickets))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(WINNING_TICKET, eve.address);
    });

    it("cannot change the tickets, their order, the deadline or the raffle the holder signed", async () => {
      const { world, alice, carol, relayer, tickets } = await loadFixture(erc20RefundableFixture);
      const intent = await sign(world, "refund", alice, alice.address, tickets);
      const variants: Array<[string, TicketRefArgs[], bigint]> = [
        ["one ticket left out", tickets.slice(0, 1), intent.deadline],
        ["the order", [...tickets].reverse(), intent.deadline],
        ["another round", [ref(2n, 1n), ref(1n, 2n)], intent.deadline],
        ["a ticket added", [...tickets, ref(1n, 3n)], intent.deadline],
        ["a later deadline", tickets, intent.deadline + 600n],
      ];
      for (const [, changed, deadline] of variants) {
        await expect(relay(world, relayer, "refund", { ...intent, deadline }, changed))
          .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
          .withArgs(alice.address);
      }
      expect(await world.ticket.ownerOf(3n)).to.equal(carol.address);
    });

    it("pays the ticket's owner when an approved operator signs, never the operator or the relayer", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const operator = Wallet.createRandom();
      await (await world.players[8].sendTransaction({ to: alice.address, value: 10n ** 17n })).wait();
      await (await world.ticket.connect(alice).approve(operator.address, WINNING_TICKET)).wait();
      const intent = await sign(world, "claim", operator, operator.address, tickets);
      const tx = relay(world, relayer, "claim", intent, tickets);
      await expect(tx).to.changeTokenBalances(world.token, [alice, relayer], [PRIZE, 0n]);
      await expect(tx)
        .to.emit(world.raffle, "PrizeClaimed")
        .withArgs(1n, WINNING_TICKET, alice.address, PRIZE, POT - PRIZE);
      expect(await world.token.balanceOf(operator.address)).to.equal(0n);
    });

    it("cannot use a holder's signature once the ticket changed hands; the new holder's own works", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const stale = await sign(world, "claim", alice, alice.address, tickets);
      const buyer = Wallet.createRandom();
      await (await world.players[8].sendTransaction({ to: alice.address, value: 10n ** 17n })).wait();
      await (await world.ticket.connect(alice).transferFrom(alice.address, buyer.address, WINNING_TICKET)).wait();
      await expect(relay(world, relayer, "claim", stale, tickets))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(WINNING_TICKET, alice.address);
      const fresh = await sign(world, "claim", buyer, buyer.address, tickets);
      await expect(relay(world, relayer, "claim", fresh, tickets)).to.changeTokenBalances(world.token, [buyer, alice], [PRIZE, 0n]);
    });
  });

  describe("a signature made for another purpose is refused", () => {
    it("a claim intent as a refund, and a refund intent as a claim", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20RefundableFixture);
      const claim = await sign(world, "claim", alice, alice.address, tickets);
      await expect(relay(world, relayer, "refund", claim, tickets))
        .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
        .withArgs(alice.address);

      const drawn = await erc20DrawnFixture();
      const refund = await sign(drawn.world, "refund", drawn.alice, drawn.alice.address, drawn.tickets);
      await expect(relay(drawn.world, drawn.relayer, "claim", refund, drawn.tickets))
        .to.be.revertedWithCustomError(drawn.world.exchange, "HolderSignatureInvalid")
        .withArgs(drawn.alice.address);
    });

    it("a purchase intent of the same holder on the same domain", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const exchange = await world.exchange.getAddress();
      const asset = { tokenType: 1n, token: await world.token.getAddress(), tokenId: 0n, amount: TICKET_PRICE };
      const params = {
        externalId: 1n,
        expiresAt: (await latestTimestamp()) + 600n,
        nonce: `0x${"00".repeat(31)}01`,
        extra: `0x${"00".repeat(32)}`,
        receiver: world.address,
        referrer: ZeroAddress,
      };
      const deadline = (await latestTimestamp()) + 600n;
      const signature = await alice.signTypedData(exchangeDomain(await chainId(), exchange), PURCHASE_INTENT_TYPES, {
        buyer: alice.address,
        params,
        item: asset,
        price: asset,
        deadline,
      });
      await expect(relay(world, relayer, "claim", { holder: alice.address, deadline, signature }, tickets))
        .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
        .withArgs(alice.address);
    });

    it("an intent for another raffle, another chain or another Exchange", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const otherDeployed = await (
        await world.factory.connect(world.merchant).deployRaffle({
          commission: COMMISSION_BPS,
          timeLagBeforeRelease: ONE_DAY,
          ticketName: "Other",
          ticketSymbol: "OTHER",
        })
      ).wait();
      const listed = otherDeployed!.logs.map((log) => world.factory.interface.parseLog(log)).find((parsed) => parsed?.name === "RaffleDeployed");
      const otherRaffle = listed!.args.raffle as string;
      const variants = [
        await sign(world, "claim", alice, alice.address, tickets, { raffle: otherRaffle }),
        await sign(world, "claim", alice, alice.address, tickets, { chainId: 1n }),
        await sign(world, "claim", alice, alice.address, tickets, { exchange: await world.factory.getAddress() }),
      ];
      for (const intent of variants) {
        await expect(relay(world, relayer, "claim", intent, tickets))
          .to.be.revertedWithCustomError(world.exchange, "HolderSignatureInvalid")
          .withArgs(alice.address);
      }
      // Signed for the other raffle and submitted there: that raffle has no such prize.
      await expect(relay(world, relayer, "claim", variants[0], tickets, otherRaffle)).to.be.revertedWithCustomError(
        world.raffle,
        "UnexpectedRoundStatus",
      );
    });

    it("an expired intent", async () => {
      const { world, alice, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const deadline = (await latestTimestamp()) - 1n;
      const intent = await sign(world, "claim", alice, alice.address, tickets, { deadline });
      await expect(relay(world, relayer, "claim", intent, tickets))
        .to.be.revertedWithCustomError(world.exchange, "IntentExpired")
        .withArgs(deadline);
    });
  });

  describe("hostile holders and raffles", () => {
    it("a wallet that refuses the prize keeps it claimable; nothing is paid to anyone", async () => {
      const { world, key, wallet, walletAddress, relayer, prize, claim } = await loadFixture(nativeWalletFixture);
      await (await wallet.setOnPayment(1, ZeroAddress, "0x", false)).wait();
      const intent = await sign(world, "claim", key, walletAddress, claim);
      await expect(relay(world, relayer, "claim", intent, claim))
        .to.be.revertedWithCustomError(wallet, "WalletRefusesPayment")
        .withArgs(prize);
      await (await wallet.setOnPayment(0, ZeroAddress, "0x", false)).wait();
      await expect(relay(world, relayer, "claim", intent, claim)).to.changeEtherBalances([wallet, relayer], [prize, 0n], {
        includeFee: false,
      });
    });

    it("a wallet that re-enters the raffle or the Exchange on payment is paid once", async () => {
      const { world, key, wallet, walletAddress, relayer, prize, claim } = await loadFixture(nativeWalletFixture);
      const intent = await sign(world, "claim", key, walletAddress, claim);
      const reentries = [
        [world.address, claimPrizesCall(world, claim[0].roundId, claim[0].ticketId)],
        [
          await world.exchange.getAddress(),
          world.exchange.interface.encodeFunctionData("claimPrizesBySig", [world.address, claim, walletAddress, intent.deadline, intent.signature]),
        ],
      ] as const;
      for (const [callee, data] of reentries) {
        // Not swallowed: the re-entry's refusal undoes the whole claim.
        await (await wallet.setOnPayment(2, callee, data, false)).wait();
        await expect(relay(world, relayer, "claim", intent, claim)).to.be.reverted;
      }
      // Swallowed: the claim stands, the re-entry paid nothing.
      const [callee, data] = reentries[1];
      await (await wallet.setOnPayment(2, callee, data, true)).wait();
      await expect(relay(world, relayer, "claim", intent, claim)).to.changeEtherBalance(wallet, prize);
      expect(await wallet.paymentCallSucceeded()).to.equal(false);
      expect(await wallet.paymentsReceived()).to.equal(1n);
      const failure = await wallet.lastPaymentFailure();
      expect(world.exchange.interface.parseError(failure)?.name).to.equal("ReentrancyGuardReentrantCall");
    });

    it("a raffle the platform did not list is refused, though it trusts this Exchange", async () => {
      const { world, alice, eve, relayer, tickets } = await loadFixture(erc20DrawnFixture);
      const deployer = await new RaffleDeployer__factory(eve).deploy();
      const ticketDeployer = await new RaffleTicketDeployer__factory(eve).deploy();
      const settings = {
        admin: eve.address,
        factory: eve.address,
        exchange: await world.exchange.getAddress(),
        ticketDeployer: await ticketDeployer.getAddress(),
        commission: 0n,
        timeLagBeforeRelease: ONE_DAY,
        ticketName: "Look",
        ticketSymbol: "ALIKE",
      };
      const lookAlike = await deployer.deployRaffle.staticCall(settings);
      await (await deployer.deployRaffle(settings)).wait();
      expect(await Raffle__factory.connect(lookAlike, eve).exchange()).to.equal(await world.exchange.getAddress());
      const intent = await sign(world, "claim", alice, alice.address, tickets, { raffle: lookAlike });
      await expect(relay(world, relayer, "claim", intent, tickets, lookAlike))
        .to.be.revertedWithCustomError(world.exchange, "RaffleNotListed")
        .withArgs(lookAlike);
    });

    it("a direct call to the raffle with a holder appended by anyone but the Exchange settles as its caller", async () => {
      const { world, alice, eve, tickets } = await loadFixture(erc20DrawnFixture);
      const forged = concat([claimPrizesCall(world, 1n, WINNING_TICKET), alice.address]);
      await expect(eve.sendTransaction({ to: world.address, data: forged }))
        .to.be.revertedWithCustomError(world.raffle, "NotTicketOwnerOrApproved")
        .withArgs(WINNING_TICKET, eve.address);
      const refundForged = concat([world.raffle.interface.encodeFunctionData("refundTickets", [tickets]), alice.address]);
      await expect(eve.sendTransaction({ to: world.address, data: refundForged })).to.be.revertedWithCustomError(
        world.raffle,
        "UnexpectedRoundStatus",
      );
      // The owner's own call with trailing bytes naming someone else still pays the owner.
      await (await world.players[8].sendTransaction({ to: alice.address, value: 10n ** 17n })).wait();
      const ownCall = concat([claimPrizesCall(world, 1n, WINNING_TICKET), eve.address]);
      const tx = alice.sendTransaction({ to: world.address, data: ownCall });
      await expect(tx).to.changeTokenBalances(world.token, [alice, eve], [PRIZE, 0n]);
    });
  });
});
