import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { MaxUint256, ZeroAddress } from "ethers";

import { SmartWallet__factory, WalletWithWrongAnswer__factory, WalletWithoutReceiver__factory, type SmartWallet } from "@raffle/chain";
import { TICKET_PRICE } from "./support/fixtures";
import {
  RoundStatus,
  approveExchange,
  buyBundle,
  buyTicket,
  deployWorld,
  endRound,
  plainAsset,
  setRules,
  startErc20Round,
  voucherFor,
  type RaffleWorld,
} from "./support/scenario";
import type { Voucher } from "./support/vouchers";

/**
 * Players with contract wallets (Safe, Coinbase Smart Wallet, ERC-4337 and EIP-7702 accounts): they sign nothing,
 * call purchaseRaffle with a voucher the API issued to their address, and get the ERC721 mint callback, in which a
 * hostile one moves its new tickets, re-enters the Exchange and the raffle, or refuses the tickets.
 */

/** What a SmartWallet does when a ticket arrives (SmartWallet.OnReceive). */
const OnReceive = { Accept: 0, MoveToSelf: 1, MoveTo: 2, Call: 3, Refuse: 4 } as const;

const BUNDLE_OF_TEN = 5n * TICKET_PRICE; // 10 tickets for the price of 5
const GOLD = 1_000n * TICKET_PRICE;

interface WalletWorld extends RaffleWorld {
  wallet: SmartWallet;
  walletAddress: string;
}

async function walletWorld(): Promise<WalletWorld> {
  const world = await deployWorld();
  await approveExchange(world, world.players.slice(0, 4));
  // The wallet's owner is player 7: it deploys and drives the wallet and holds no tickets itself.
  const wallet = await new SmartWallet__factory(world.players[7]).deploy();
  const walletAddress = await wallet.getAddress();
  await (await world.token.connect(world.admin).mint(walletAddress, GOLD)).wait();
  const approve = world.token.interface.encodeFunctionData("approve", [await world.exchange.getAddress(), MaxUint256]);
  await (await wallet.execute(await world.token.getAddress(), 0n, approve)).wait();
  return { ...world, wallet, walletAddress };
}

/** A round that can only be refunded (its minimum is out of reach), selling ten tickets for the price of five. */
async function refundableBundleRound() {
  const world = await walletWorld();
  await setRules(world, { minTickets: 1_000, bundles: [[10n, BUNDLE_OF_TEN]] });
  await startErc20Round(world);
  return world;
}

/** A voucher the platform's signer issued to the wallet's address for `quantity` tickets at the round's price. */
async function walletVoucher(world: WalletWorld, quantity: bigint): Promise<Voucher> {
  const price = plainAsset(await world.raffle.priceOf(quantity));
  return voucherFor(world, world.players[7], price, { account: world.walletAddress, item: { ...world.item, amount: quantity } });
}

function purchaseCall(world: WalletWorld, voucher: Voucher): string {
  return world.exchange.interface.encodeFunctionData("purchaseRaffle", [voucher.params, voucher.item, voucher.price, voucher.signature]);
}

/** The wallet submits `voucher` itself (its owner asks it to). */
async function walletBuys(world: WalletWorld, voucher: Voucher) {
  return world.wallet.execute(await world.exchange.getAddress(), 0n, purchaseCall(world, voucher));
}

function refundCall(world: WalletWorld, roundId: bigint, ticketIds: bigint[]): string {
  return world.raffle.interface.encodeFunctionData("refundTickets", [ticketIds.map((ticketId) => ({ roundId, ticketId }))]);
}

function range(first: bigint, count: number): bigint[] {
  return Array.from({ length: count }, (_, i) => first + BigInt(i));
}

describe("contract wallets as players", () => {
  describe("a bundle's price tier through the mint callback", () => {
    it("refunds a bundle of 10 at its 50 GOLD, not 95, when the wallet moves a new ticket to itself in the callback", async () => {
      const world = await loadFixture(refundableBundleRound);
      const [, bob] = world.players;
      await (await world.wallet.setOnReceive(OnReceive.MoveToSelf, ZeroAddress, "0x", false)).wait();
      await (await walletBuys(world, await walletVoucher(world, 10n))).wait();
      expect(await world.wallet.ticketsReceived()).to.equal(10n);
      await buyBundle(world, bob, 10n);

      await endRound(world);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Refundable);
      const refund = world.wallet.execute(world.address, 0n, refundCall(world, 1n, range(1n, 10)));
      await expect(refund).to.changeTokenBalances(world.token, [world.walletAddress, world.address], [BUNDLE_OF_TEN, -BUNDLE_OF_TEN]);
      // The other player's refund is still in the pot.
      const bobRefund = world.raffle.connect(bob).refundTickets(range(11n, 10).map((ticketId) => ({ roundId: 1n, ticketId })));
      await expect(bobRefund).to.changeTokenBalances(world.token, [bob, world.raffle], [BUNDLE_OF_TEN, -BUNDLE_OF_TEN]);
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
    });

    it("keeps the tier of a ticket the callback gives away, and logs the purchase before the callback's transfer", async () => {
      const world = await loadFixture(refundableBundleRound);
      const carol = world.players[2];
      await (await world.wallet.setOnReceive(OnReceive.MoveTo, carol.address, "0x", false)).wait();
      const receipt = await (await walletBuys(world, await walletVoucher(world, 10n))).wait();
      expect(await world.ticket.ownerOf(1n)).to.equal(carol.address);
      expect(await world.ticket.ownerOf(2n)).to.equal(world.walletAddress);
      // An indexer reading the logs in order learns of the tickets before it sees one move.
      const purchased = receipt!.logs.find((log) => world.raffle.interface.parseLog(log)?.name === "TicketsPurchased")!;
      const moved = receipt!.logs.find((log) => {
        const parsed = log.address === world.ticketAddress ? world.ticket.interface.parseLog(log) : null;
        return parsed?.name === "Transfer" && parsed.args.to === carol.address;
      })!;
      expect(purchased.index).to.be.lessThan(moved.index);
      for (const ticketId of range(1n, 10)) expect(await world.ticket.tierOf(ticketId), `tier of ticket ${ticketId}`).to.equal(1n);

      await endRound(world);
      const carolRefund = world.raffle.connect(carol).refundTickets([{ roundId: 1n, ticketId: 1n }]);
      await expect(carolRefund).to.changeTokenBalance(world.token, carol, BUNDLE_OF_TEN / 10n);
      const walletRefund = world.wallet.execute(world.address, 0n, refundCall(world, 1n, range(2n, 9)));
      await expect(walletRefund).to.changeTokenBalance(world.token, world.walletAddress, (BUNDLE_OF_TEN / 10n) * 9n);
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
    });
  });

  describe("re-entering from the mint callback", () => {
    it("refuses a purchase from inside the callback: the whole purchase reverts, or the inner one alone when swallowed", async () => {
      const world = await loadFixture(refundableBundleRound);
      const exchange = await world.exchange.getAddress();
      const inner = await walletVoucher(world, 2n);
      await (await world.wallet.setOnReceive(OnReceive.Call, exchange, purchaseCall(world, inner), false)).wait();
      await expect(walletBuys(world, await walletVoucher(world, 10n))).to.be.revertedWithCustomError(world.exchange, "ReentrancyGuardReentrantCall");
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(0n);

      await (await world.wallet.setOnReceive(OnReceive.Call, exchange, purchaseCall(world, inner), true)).wait();
      const outer = await walletVoucher(world, 10n);
      await expect(walletBuys(world, outer)).to.changeTokenBalance(world.token, world.walletAddress, -BUNDLE_OF_TEN);
      expect(await world.wallet.callsSucceeded()).to.equal(0n);
      expect(await world.wallet.lastFailure()).to.equal(world.exchange.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await world.exchange.isNonceUsed(outer.params.nonce)).to.equal(true);
      expect(await world.exchange.isNonceUsed(inner.params.nonce)).to.equal(false);
      const round = await world.raffle.getRound(1n);
      expect([round.ticketCount, round.pot]).to.deep.equal([10n, BUNDLE_OF_TEN]);
    });

    it("lets the callback claim a prize, refund tickets and release a pot of earlier rounds, with every book exact", async () => {
      const world = await loadFixture(walletWorld);
      const [alice] = world.players;
      // Round 1: the wallet's single ticket wins outright. Round 2: its single ticket is refundable (minimum 5).
      // Round 3: alice's single ticket wins, and its pot becomes releasable a day later.
      await startErc20Round(world);
      await (await walletBuys(world, await walletVoucher(world, 1n))).wait();
      await endRound(world);
      await setRules(world, { minTickets: 5 });
      await startErc20Round(world);
      await (await walletBuys(world, await walletVoucher(world, 1n))).wait();
      await endRound(world);
      await setRules(world, {});
      const single = await startErc20Round(world);
      await buyTicket(world, alice, single);
      await endRound(world);
      expect((await Promise.all([1n, 2n, 3n].map((id) => world.raffle.getRound(id)))).map((round) => round.status)).to.deep.equal([
        BigInt(RoundStatus.Drawn),
        BigInt(RoundStatus.Refundable),
        BigInt(RoundStatus.Drawn),
      ]);
      await time.increase(await world.raffle.timeLagBeforeRelease());
      // The merchant made its wallet an admin of the raffle too (a merchant may hold a smart wallet as well).
      await (await world.raffle.grantRole(await world.raffle.DEFAULT_ADMIN_ROLE(), world.walletAddress)).wait();
      await startErc20Round(world);

      const prize = TICKET_PRICE - (TICKET_PRICE * (await world.raffle.commission())) / 10_000n;
      const claim = world.raffle.interface.encodeFunctionData("claimPrizes", [[{ roundId: 1n, ticketId: 1n }]]);
      await (await world.wallet.setOnReceive(OnReceive.Call, world.address, claim, false)).wait();
      // Pays TICKET_PRICE for the new ticket and receives the prize inside the purchase.
      await expect(walletBuys(world, await walletVoucher(world, 1n))).to.changeTokenBalance(world.token, world.walletAddress, prize - TICKET_PRICE);
      expect((await world.raffle.getRound(1n)).status).to.equal(RoundStatus.Claimed);

      await (await world.wallet.setOnReceive(OnReceive.Call, world.address, refundCall(world, 2n, [2n]), false)).wait();
      await expect(walletBuys(world, await walletVoucher(world, 1n))).to.changeTokenBalance(world.token, world.walletAddress, 0n);
      await expect(world.ticket.ownerOf(2n)).to.be.revertedWithCustomError(world.ticket, "OwnerQueryForNonexistentToken");

      const release = world.raffle.interface.encodeFunctionData("releasePrize", [3n]);
      await (await world.wallet.setOnReceive(OnReceive.Call, world.address, release, false)).wait();
      await expect(walletBuys(world, await walletVoucher(world, 1n))).to.changeTokenBalance(world.token, world.merchant, TICKET_PRICE);
      expect((await world.raffle.getRound(3n)).status).to.equal(RoundStatus.Released);

      expect(await world.wallet.callsSucceeded()).to.equal(3n);
      const round = await world.raffle.getRound(4n);
      expect([round.ticketCount, round.pot]).to.deep.equal([3n, 3n * TICKET_PRICE]);
      // What the raffle holds is exactly what it still owes: round 4's pot and round 1's commission.
      const commission = TICKET_PRICE - prize;
      expect(await world.token.balanceOf(world.address)).to.equal(3n * TICKET_PRICE + commission);
    });
  });

  describe("a wallet that refuses tickets", () => {
    it("cannot buy: its purchase reverts whole, its nonce stays unused and nothing is paid", async () => {
      const world = await loadFixture(refundableBundleRound);
      await (await world.wallet.setOnReceive(OnReceive.Refuse, ZeroAddress, "0x", false)).wait();
      const voucher = await walletVoucher(world, 10n);
      await expect(walletBuys(world, voucher)).to.be.revertedWithCustomError(world.wallet, "WalletRefusesTicket").withArgs(1n);
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(0n);
    });
  });

  describe("a contract that cannot take tickets", () => {
    it("cannot buy when it has no onERC721Received, or answers it with another value: nothing is paid", async () => {
      const world = await walletWorld();
      await startErc20Round(world);
      const exchange = await world.exchange.getAddress();
      for (const factory of [new WalletWithoutReceiver__factory(world.players[7]), new WalletWithWrongAnswer__factory(world.players[7])]) {
        const contract = await factory.deploy();
        const account = await contract.getAddress();
        await (await world.token.connect(world.admin).mint(account, GOLD)).wait();
        const approve = world.token.interface.encodeFunctionData("approve", [exchange, MaxUint256]);
        await (await contract.execute(await world.token.getAddress(), approve)).wait();
        const price = plainAsset(await world.raffle.priceOf(1n));
        const voucher = await voucherFor(world, world.players[7], price, { account, item: { ...world.item, amount: 1n } });
        await expect(contract.execute(exchange, purchaseCall(world, voucher))).to.be.revertedWithCustomError(
          world.ticket,
          "TransferToNonERC721ReceiverImplementer",
        );
        expect(await world.token.balanceOf(account)).to.equal(GOLD);
        expect(await world.ticket.balanceOf(account)).to.equal(0n);
      }
    });
  });

  describe("a wallet that signs nothing", () => {
    it("buys with a voucher issued to its own address, which its owner's key cannot use", async () => {
      const world = await loadFixture(refundableBundleRound);
      const owner = world.players[7];
      const voucher = await walletVoucher(world, 1n);
      await expect(
        world.exchange.connect(owner).purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature),
      ).to.be.revertedWithCustomError(world.exchange, "InvalidSigner");
      await expect(walletBuys(world, voucher)).to.changeTokenBalance(world.token, world.walletAddress, -TICKET_PRICE);
      expect(await world.ticket.ownerOf(1n)).to.equal(world.walletAddress);
    });
  });
});
