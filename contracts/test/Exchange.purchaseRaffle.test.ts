import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { MaxUint256, ZeroAddress, concat, dataSlice, encodeBytes32String, getBytes, hexlify, toBeHex, zeroPadValue } from "ethers";

import { ReentrantToken__factory, TokenType, type AssetStruct, type PurchaseParamsStruct } from "@raffle/chain";

import { TICKET_PRICE, deployRaffle, erc20Price, listPriceToken, nativePrice, ticketAsset } from "./support/fixtures";
import { latestTimestamp, signVoucher, type Voucher } from "./support/vouchers";
import {
  approveExchange,
  assetTuple,
  buyTicket,
  deployWorld,
  impersonate,
  plainAsset,
  purchase,
  recoverVoucherSigner,
  startErc20Round,
  startNativeRound,
  startRound,
  voucherFor,
} from "./support/scenario";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

async function erc20RoundFixture() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const [alice, bob, carol] = world.players;
  await approveExchange(world, [alice, bob, carol]);
  return { world, price, alice, bob, carol };
}

async function nativeRoundFixture() {
  const world = await deployWorld();
  const price = await startNativeRound(world);
  const [alice, bob] = world.players;
  return { world, price, alice, bob };
}

/** A raffle whose price token calls back into the Exchange from `transferFrom`. */
async function reentrantTokenFixture() {
  const world = await deployWorld();
  const token = await new ReentrantToken__factory(world.admin).deploy();
  await listPriceToken(world, token);
  const price = erc20Price(await token.getAddress(), TICKET_PRICE);
  await startRound(world, price);
  const [alice] = world.players;
  await (await token.mint(alice.address, TICKET_PRICE * 10n)).wait();
  await (await token.connect(alice).approve(await world.exchange.getAddress(), MaxUint256)).wait();
  // The token can pay for a purchase of its own, so only the guard can stop the nested one.
  await (await token.mint(await token.getAddress(), TICKET_PRICE * 10n)).wait();
  await (await token.approveFromSelf(await world.exchange.getAddress(), MaxUint256)).wait();
  return { world, token, price, alice };
}

/** The signature with s replaced by n - s and v flipped: the same signer for raw ecrecover, but high-s. */
function malleate(signature: string): string {
  const r = dataSlice(signature, 0, 32);
  const s = BigInt(dataSlice(signature, 32, 64));
  const v = getBytes(signature)[64];
  return concat([r, zeroPadValue(toBeHex(SECP256K1_N - s), 32), new Uint8Array([v === 27 ? 28 : 27])]);
}

/** What `quantity` tickets of the active round cost, as a struct a voucher can carry. */
async function plainPriceOf(world: Awaited<ReturnType<typeof deployWorld>>, quantity: bigint): Promise<AssetStruct> {
  return plainAsset(await world.raffle.priceOf(quantity));
}

describe("Exchange.purchaseRaffle", () => {
  describe("a valid voucher", () => {
    it("takes an ERC20 price from the buyer straight into the raffle and mints the ticket", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price, { externalId: 42n });

      const tx = purchase(world, alice, voucher);
      await expect(tx).to.changeTokenBalances(world.token, [alice, world.raffle, world.exchange], [-TICKET_PRICE, TICKET_PRICE, 0n]);
      await expect(tx).to.emit(world.raffle, "TicketsPurchased").withArgs(1n, alice.address, 1n, 1n, TICKET_PRICE, 42n);
      await expect(tx).to.emit(world.ticket, "Transfer").withArgs(ZeroAddress, alice.address, 1n);
      await expect(tx).to.emit(world.token, "Transfer").withArgs(alice.address, world.address, TICKET_PRICE);
      await expect(tx).not.to.emit(world.exchange, "Referral");

      expect(await world.ticket.ownerOf(1n)).to.equal(alice.address);
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(true);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(1n);
    });

    it("forwards an exact NATIVE price to the raffle and keeps nothing in the Exchange", async () => {
      const { world, price, alice } = await loadFixture(nativeRoundFixture);
      const amount = BigInt(price.amount);
      const voucher = await voucherFor(world, alice, price, { externalId: 7n });

      const tx = purchase(world, alice, voucher, amount);
      await expect(tx).to.changeEtherBalances([alice, world.raffle, world.exchange], [-amount, amount, 0n]);
      await expect(tx).to.emit(world.raffle, "TicketsPurchased").withArgs(1n, alice.address, 1n, 1n, amount, 7n);
      expect(await world.ticket.ownerOf(1n)).to.equal(alice.address);
    });

    it("mints the ticket to the buyer even though the voucher names the raffle as receiver", async () => {
      const { world, price, alice, bob } = await loadFixture(erc20RoundFixture);
      const first = await buyTicket(world, alice, price);
      const second = await buyTicket(world, bob, price);
      expect([first, second]).to.deep.equal([1n, 2n]);
      expect(await world.ticket.ownerOf(first)).to.equal(alice.address);
      expect(await world.ticket.ownerOf(second)).to.equal(bob.address);
      expect(await world.ticket.balanceOf(world.address)).to.equal(0n);
    });

    it("emits Referral when the referrer is set and is not the buyer", async () => {
      const { world, price, alice, bob } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price, { referrer: bob.address });
      await expect(purchase(world, alice, voucher))
        .to.emit(world.exchange, "Referral")
        .withArgs(bob.address, alice.address, world.address, assetTuple(price));
    });

    it("emits no Referral for a zero referrer or a buyer referring itself", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const self = await voucherFor(world, alice, price, { referrer: alice.address });
      await expect(purchase(world, alice, self)).not.to.emit(world.exchange, "Referral");
      const none = await voucherFor(world, alice, price, { referrer: ZeroAddress });
      await expect(purchase(world, alice, none)).not.to.emit(world.exchange, "Referral");
      expect(await world.ticket.balanceOf(alice.address)).to.equal(2n);
    });
  });

  describe("a voucher bound to its buyer and contents", () => {
    it("rejects a voucher submitted by another account", async () => {
      const { world, price, alice, bob } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      const recovered = await recoverVoucherSigner(world, bob.address, voucher, voucher.signature);
      expect(recovered).not.to.equal(world.signer.address);

      await expect(purchase(world, bob, voucher))
        .to.be.revertedWithCustomError(world.exchange, "InvalidSigner")
        .withArgs(recovered);
      // The rightful buyer can still use it: the failed attempt did not burn the nonce.
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await expect(purchase(world, alice, voucher)).to.emit(world.raffle, "TicketsPurchased");
    });

    it("rejects a voucher signed by a key without the signer role", async () => {
      const { world, price, alice, bob } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price, { signer: bob });
      await expect(purchase(world, alice, voucher))
        .to.be.revertedWithCustomError(world.exchange, "InvalidSigner")
        .withArgs(bob.address);
    });

    const otherAddress = "0x000000000000000000000000000000000000dEaD";
    type Fixture = Awaited<ReturnType<typeof erc20RoundFixture>>;
    const paramTampers: Array<[keyof PurchaseParamsStruct, (p: PurchaseParamsStruct, f: Fixture) => Promise<PurchaseParamsStruct>]> = [
      ["externalId", async (p) => ({ ...p, externalId: BigInt(p.externalId) + 1n })],
      ["expiresAt", async (p) => ({ ...p, expiresAt: BigInt(p.expiresAt) + 1_000n })],
      ["nonce", async (p) => ({ ...p, nonce: zeroPadValue(toBeHex(BigInt(p.nonce) ^ 1n), 32) })],
      ["extra", async (p) => ({ ...p, extra: encodeBytes32String("0y") })],
      [
        "receiver",
        async (p, { world, price }) => {
          // A real second raffle with an open round at the same price: only the signature can stop the switch.
          const other = await deployRaffle(world);
          await (await other.raffle.startRound(ticketAsset(other.ticketAddress), price, 0n)).wait();
          return { ...p, receiver: other.address };
        },
      ],
      ["referrer", async (p, { bob }) => ({ ...p, referrer: bob.address })],
    ];
    for (const [field, tamper] of paramTampers) {
      it(`rejects a voucher whose params.${field} was changed`, async () => {
        const fixture = await loadFixture(erc20RoundFixture);
        const { world, price, alice } = fixture;
        const voucher = await voucherFor(world, alice, price);
        const tampered: Voucher = { ...voucher, params: await tamper(voucher.params, fixture) };
        expect(tampered.params[field]).not.to.equal(voucher.params[field]);
        const recovered = await recoverVoucherSigner(world, alice.address, tampered, voucher.signature);
        expect(recovered).not.to.equal(world.signer.address);

        await expect(purchase(world, alice, tampered))
          .to.be.revertedWithCustomError(world.exchange, "InvalidSigner")
          .withArgs(recovered);
        await expect(purchase(world, alice, voucher)).to.emit(world.raffle, "TicketsPurchased");
      });
    }

    const assetTampers: Array<[string, "item" | "price", (asset: AssetStruct) => AssetStruct]> = [
      ["item.amount", "item", (a) => ({ ...a, amount: 2n })],
      ["item.tokenId", "item", (a) => ({ ...a, tokenId: 5n })],
      ["item.token", "item", (a) => ({ ...a, token: otherAddress })],
      ["item.tokenType", "item", (a) => ({ ...a, tokenType: TokenType.ERC1155 })],
      ["price.amount", "price", (a) => ({ ...a, amount: 1n })],
      ["price.token", "price", (a) => ({ ...a, token: otherAddress })],
      ["price.tokenType", "price", (a) => ({ ...a, tokenType: TokenType.NATIVE })],
      ["price.tokenId", "price", (a) => ({ ...a, tokenId: 1n })],
    ];
    for (const [name, part, tamper] of assetTampers) {
      it(`rejects a voucher whose ${name} was changed`, async () => {
        const { world, price, alice } = await loadFixture(erc20RoundFixture);
        const voucher = await voucherFor(world, alice, price);
        const tampered: Voucher = { ...voucher, [part]: tamper(voucher[part]) };
        const recovered = await recoverVoucherSigner(world, alice.address, tampered, voucher.signature);
        expect(recovered).not.to.equal(world.signer.address);

        const value = Number(tampered.price.tokenType) === TokenType.NATIVE ? BigInt(tampered.price.amount) : 0n;
        await expect(purchase(world, alice, tampered, value))
          .to.be.revertedWithCustomError(world.exchange, "InvalidSigner")
          .withArgs(recovered);
        expect(await world.token.balanceOf(world.address)).to.equal(0n);
      });
    }

    it("rejects malformed signatures: wrong length, empty, bad v", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      const short = dataSlice(voucher.signature, 0, 64);
      const badV = concat([dataSlice(voucher.signature, 0, 64), new Uint8Array([29])]);
      for (const signature of [short, "0x", badV, concat([voucher.signature, "0x00"])]) {
        await expect(purchase(world, alice, { ...voucher, signature })).to.be.revertedWithCustomError(world.exchange, "InvalidSignature");
      }
      await expect(purchase(world, alice, voucher)).to.emit(world.raffle, "TicketsPurchased");
    });

    it("rejects the high-s twin of a valid signature (malleability)", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      const twin = malleate(voucher.signature);
      expect(twin).not.to.equal(voucher.signature);
      expect(BigInt(dataSlice(twin, 32, 64))).to.be.greaterThan(SECP256K1_N / 2n);

      await expect(purchase(world, alice, { ...voucher, signature: twin })).to.be.revertedWithCustomError(world.exchange, "InvalidSignature");
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
    });
  });

  describe("replay and expiry", () => {
    it("rejects a replayed voucher with NonceAlreadyUsed", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      await (await purchase(world, alice, voucher)).wait();
      await expect(purchase(world, alice, voucher))
        .to.be.revertedWithCustomError(world.exchange, "NonceAlreadyUsed")
        .withArgs(voucher.params.nonce);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(1n);
    });

    it("rejects a second, correctly signed voucher reusing a nonce, even for another buyer", async () => {
      const { world, price, alice, bob } = await loadFixture(erc20RoundFixture);
      const first = await voucherFor(world, alice, price);
      await (await purchase(world, alice, first)).wait();
      const again = await voucherFor(world, bob, price, { nonce: String(first.params.nonce), externalId: 99n });
      await expect(purchase(world, bob, again))
        .to.be.revertedWithCustomError(world.exchange, "NonceAlreadyUsed")
        .withArgs(first.params.nonce);
    });

    it("keeps nonces that share a bitmap word independent", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const prefix = hexlify(ethers.randomBytes(31));
      const nonceA = `${prefix}00`;
      const nonceB = `${prefix}ff`;
      const otherWordSameBit = `${hexlify(ethers.randomBytes(31))}00`;

      await (await purchase(world, alice, await voucherFor(world, alice, price, { nonce: nonceA }))).wait();
      expect(await world.exchange.isNonceUsed(nonceA)).to.equal(true);
      expect(await world.exchange.isNonceUsed(nonceB)).to.equal(false);
      expect(await world.exchange.isNonceUsed(otherWordSameBit)).to.equal(false);

      await (await purchase(world, alice, await voucherFor(world, alice, price, { nonce: nonceB }))).wait();
      await (await purchase(world, alice, await voucherFor(world, alice, price, { nonce: otherWordSameBit }))).wait();
      expect(await world.exchange.isNonceUsed(nonceB)).to.equal(true);
      expect(await world.exchange.isNonceUsed(otherWordSameBit)).to.equal(true);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(3n);
    });

    it("rejects expiresAt = 0 with ExpiryMissing (never 'forever')", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price, { expiresAt: 0n });
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.exchange, "ExpiryMissing");
    });

    it("accepts a voucher up to its expiresAt second and rejects it one second later", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const expiresAt = (await latestTimestamp()) + 100n;
      const lastSecond = await voucherFor(world, alice, price, { expiresAt });
      const late = await voucherFor(world, alice, price, { expiresAt });

      await time.setNextBlockTimestamp(expiresAt);
      await expect(purchase(world, alice, lastSecond)).to.emit(world.raffle, "TicketsPurchased");
      await time.setNextBlockTimestamp(expiresAt + 1n);
      await expect(purchase(world, alice, late))
        .to.be.revertedWithCustomError(world.exchange, "SignatureExpired")
        .withArgs(expiresAt);
      expect(await world.exchange.isNonceUsed(late.params.nonce)).to.equal(false);
    });
  });

  describe("payment", () => {
    it("rejects a NATIVE purchase paying too little, nothing or too much", async () => {
      const { world, price, alice } = await loadFixture(nativeRoundFixture);
      const amount = BigInt(price.amount);
      const voucher = await voucherFor(world, alice, price);
      for (const value of [amount - 1n, 0n, amount + 1n, amount * 2n]) {
        await expect(purchase(world, alice, voucher, value))
          .to.be.revertedWithCustomError(world.exchange, "WrongPaymentValue")
          .withArgs(amount, value);
      }
      expect(await ethers.provider.getBalance(world.address)).to.equal(0n);
      await expect(purchase(world, alice, voucher, amount)).to.changeEtherBalance(world.raffle, amount);
    });

    it("rejects any native value sent with an ERC20 price", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      for (const value of [1n, TICKET_PRICE]) {
        await expect(purchase(world, alice, voucher, value))
          .to.be.revertedWithCustomError(world.exchange, "WrongPaymentValue")
          .withArgs(0n, value);
      }
      expect(await world.token.balanceOf(world.address)).to.equal(0n);
    });

    it("fails an ERC20 purchase without allowance and takes nothing", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      await (await world.token.connect(alice).approve(await world.exchange.getAddress(), TICKET_PRICE - 1n)).wait();
      const voucher = await voucherFor(world, alice, price);
      await expect(purchase(world, alice, voucher))
        .to.be.revertedWithCustomError(world.token, "ERC20InsufficientAllowance")
        .withArgs(await world.exchange.getAddress(), TICKET_PRICE - 1n, TICKET_PRICE);
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
    });

    it("rejects a signed price of a kind that cannot be paid with UnsupportedPriceType", async () => {
      const { world, alice } = await loadFixture(erc20RoundFixture);
      for (const tokenType of [TokenType.ERC721, TokenType.ERC998, TokenType.ERC1155]) {
        const price = { tokenType, token: await world.token.getAddress(), tokenId: 1n, amount: 1n };
        const voucher = await voucherFor(world, alice, price);
        await expect(purchase(world, alice, voucher))
          .to.be.revertedWithCustomError(world.exchange, "UnsupportedPriceType")
          .withArgs(tokenType);
      }
    });
  });

  describe("what the raffle re-checks", () => {
    it("rejects a voucher signed for the price of an ended round once a new round has another price", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const stale = await voucherFor(world, alice, price);
      await (await world.raffle.endRound()).wait();
      const newPrice = await startErc20Round(world, 0n, TICKET_PRICE * 2n);

      await expect(purchase(world, alice, stale)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
      const fresh = await voucherFor(world, alice, newPrice);
      await expect(purchase(world, alice, fresh)).to.changeTokenBalance(world.token, alice, -TICKET_PRICE * 2n);
    });

    it("rejects a stale ERC20 voucher after the round switched to a NATIVE price", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const stale = await voucherFor(world, alice, price);
      await (await world.raffle.endRound()).wait();
      await startNativeRound(world);
      await expect(purchase(world, alice, stale)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
    });

    it("rejects a signed price that was never the round's price", async () => {
      const { world, alice } = await loadFixture(erc20RoundFixture);
      const cheap = erc20Price(await world.token.getAddress(), TICKET_PRICE - 1n);
      const voucher = await voucherFor(world, alice, cheap);
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
      const native = await voucherFor(world, alice, nativePrice(TICKET_PRICE));
      await expect(purchase(world, alice, native)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
    });

    it("rejects a signed item that is not this raffle's ticket", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const other = await deployRaffle(world);
      const items: AssetStruct[] = [
        ticketAsset(other.ticketAddress),
        { ...world.item, tokenId: 1n },
        { ...world.item, tokenType: TokenType.ERC1155 },
      ];
      for (const item of items) {
        const voucher = await voucherFor(world, alice, price, { item });
        await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "InvalidTicketAsset");
      }
      // In v2 the item's amount is the quantity: 1 to 100 tickets, each quantity at its own price.
      for (const amount of [0n, 101n]) {
        const voucher = await voucherFor(world, alice, price, { item: { ...world.item, amount } });
        await expect(purchase(world, alice, voucher))
          .to.be.revertedWithCustomError(world.raffle, "InvalidQuantity")
          .withArgs(amount, 100n);
      }
      const twoAtOnePrice = await voucherFor(world, alice, price, { item: { ...world.item, amount: 2n } });
      await expect(purchase(world, alice, twoAtOnePrice)).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
      expect(await world.ticket.balanceOf(alice.address)).to.equal(0n);
    });

    it("rejects a purchase once the round has ended", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      await (await world.raffle.endRound()).wait();
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "NoActiveRound");
    });

    it("sells at most maxTicket tickets, then reverts with RoundFull(max, left)", async () => {
      const { world, alice, bob } = await loadFixture(erc20RoundFixture);
      await (await world.raffle.endRound()).wait();
      const price = await startErc20Round(world, 3n);
      for (const buyer of [alice, bob]) await buyTicket(world, buyer, price);
      // One left: a purchase of two is refused whole, naming what is left.
      const two = await voucherFor(world, bob, await plainPriceOf(world, 2n), { item: { ...world.item, amount: 2n } });
      await expect(purchase(world, bob, two))
        .to.be.revertedWithCustomError(world.raffle, "RoundFull")
        .withArgs(3n, 1n);
      await buyTicket(world, alice, price);

      const fourth = await voucherFor(world, bob, price);
      await expect(purchase(world, bob, fourth))
        .to.be.revertedWithCustomError(world.raffle, "RoundFull")
        .withArgs(3n, 0n);
      expect((await world.raffle.getRound(2n)).ticketCount).to.equal(3n);

      // The cap is per round: the next round sells again.
      await (await world.raffle.endRound()).wait();
      await startErc20Round(world, 1n);
      await expect(purchase(world, bob, await voucherFor(world, bob, price))).to.emit(world.raffle, "TicketsPurchased");
    });

    it("rejects purchases while the Exchange is paused, and accepts them again after unpause", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      await (await world.exchange.connect(world.admin).pause()).wait();
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.exchange, "EnforcedPause");
      await (await world.exchange.connect(world.admin).unpause()).wait();
      await expect(purchase(world, alice, voucher)).to.emit(world.raffle, "TicketsPurchased");
    });

    it("rejects purchases while the Raffle is paused, and accepts them again after unpause", async () => {
      const { world, price, alice } = await loadFixture(erc20RoundFixture);
      const voucher = await voucherFor(world, alice, price);
      await (await world.raffle.pause()).wait();
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.raffle, "RafflePaused");
      expect(await world.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await (await world.raffle.unpause()).wait();
      await expect(purchase(world, alice, voucher)).to.emit(world.raffle, "TicketsPurchased");
    });
  });

  describe("reentrancy through a malicious ERC20 price token", () => {
    async function armNestedPurchase(swallow: boolean) {
      const fixture = await loadFixture(reentrantTokenFixture);
      const { world, token, price } = fixture;
      const tokenAddress = await token.getAddress();
      // A voucher the platform signed for the token contract itself: valid in every respect but the nesting.
      const inner = await signNested(fixture, tokenAddress, price);
      const payload = world.exchange.interface.encodeFunctionData("purchaseRaffle", [inner.params, inner.item, inner.price, inner.signature]);
      await (await token.arm(await world.exchange.getAddress(), payload, 1 /* TransferFrom */, swallow)).wait();
      return { ...fixture, inner };
    }

    async function signNested(fixture: Awaited<ReturnType<typeof reentrantTokenFixture>>, account: string, price: AssetStruct): Promise<Voucher> {
      const { world } = fixture;
      return signVoucher({
        exchange: world.exchange,
        signer: world.signer,
        account,
        receiver: world.address,
        item: world.item,
        price,
      });
    }

    it("makes the whole purchase fail when the token re-enters purchaseRaffle from transferFrom", async () => {
      const { world, token, price, alice } = await armNestedPurchase(false);
      const voucher = await voucherFor(world, alice, price);
      await expect(purchase(world, alice, voucher)).to.be.revertedWithCustomError(world.exchange, "ReentrancyGuardReentrantCall");
      expect(await world.ticket.balanceOf(await token.getAddress())).to.equal(0n);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(0n);
    });

    it("never mints the nested ticket even when the token swallows the failure", async () => {
      const { world, token, price, alice, inner } = await armNestedPurchase(true);
      const voucher = await voucherFor(world, alice, price);
      await expect(purchase(world, alice, voucher)).to.changeTokenBalances(token, [alice, world.raffle], [-TICKET_PRICE, TICKET_PRICE]);
      expect(await token.attacked()).to.equal(true);
      expect(await token.reentrySucceeded()).to.equal(false);
      expect(await token.reentryRevertData()).to.equal(world.exchange.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await world.ticket.balanceOf(alice.address)).to.equal(1n);
      expect(await world.ticket.balanceOf(await token.getAddress())).to.equal(0n);
      expect((await world.raffle.getRound(1n)).ticketCount).to.equal(1n);
      expect(await world.exchange.isNonceUsed(inner.params.nonce)).to.equal(false);
    });

    it("would let the token buy with that same voucher outside the nesting (the guard is what stops it)", async () => {
      const { world, token, inner } = await armNestedPurchase(true);
      await (await token.arm(ZeroAddress, "0x", 0, false)).wait();
      const tokenSigner = await impersonate(await token.getAddress());
      await expect(purchase(world, tokenSigner, inner)).to.emit(world.raffle, "TicketsPurchased");
      expect(await world.ticket.balanceOf(await token.getAddress())).to.equal(1n);
    });
  });
});
