import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { Signature, TypedDataEncoder, Wallet, concat, id, parseUnits } from "ethers";

import {
  CANCEL_AUTHORIZATION_TYPES,
  NO_PERMIT,
  PURCHASE_INTENT_TYPES,
  PURCHASE_INTENT_TYPE_STRING,
  PURCHASE_TYPES,
  RECEIVE_WITH_AUTHORIZATION_TYPES,
  PlainToken__factory,
  PretendAuthorizationToken__factory,
  SigningWallet__factory,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  exchangeDomain,
  gaslessPurchaseNonce,
  signPurchaseAuthorization,
  type AssetStruct,
  type ReceiveAuthorizationArgs,
} from "@raffle/chain";

import { TICKET_PRICE, deployRaffle, erc20Price, listPriceToken, nativePrice, ticketAsset } from "./support/fixtures";
import { authorize, gaslessPurchase, intend, permitFor, testTokenDomain } from "./support/gasless";
import { deployWorld, setRules, startErc20Round } from "./support/scenario";
import { latestTimestamp, signVoucher, type Voucher } from "./support/vouchers";

/**
 * Gasless purchases (docs/contracts.md "Gasless purchases"): a buyer holding the price token and no ETH signs, a
 * relayer submits and pays the gas. The relayer can delay or refuse; it can never change what is bought, for whom,
 * at what price, nor take the tickets (contracts/TRUST.md "Relayer").
 */

const FIVE = 5n;

async function gaslessFixture() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const relayer = world.players[7];
  const exchange = await world.exchange.getAddress();
  // Buyers with tokens and not one wei of ETH.
  const alice = Wallet.createRandom().connect(ethers.provider);
  const eve = Wallet.createRandom().connect(ethers.provider);
  for (const buyer of [alice, eve]) await (await world.token.mint(buyer.address, parseUnits("1000", 18))).wait();
  return { world, price, relayer, exchange, alice, eve };
}

type Fixture = Awaited<ReturnType<typeof gaslessFixture>>;

function priceOf(price: AssetStruct, quantity: bigint): AssetStruct {
  return { ...price, amount: BigInt(price.amount) * quantity };
}

/** A platform voucher for `buyer` of `quantity` tickets of the world's raffle (any field overridable). */
async function voucherOf(
  f: Pick<Fixture, "world" | "price">,
  buyer: string,
  quantity = FIVE,
  overrides: Partial<{
    receiver: string;
    item: AssetStruct;
    price: AssetStruct;
    nonce: string;
    expiresAt: bigint;
    referrer: string;
    externalId: bigint;
  }> = {},
): Promise<Voucher> {
  return signVoucher({
    exchange: f.world.exchange,
    signer: f.world.signer,
    account: buyer,
    receiver: overrides.receiver ?? f.world.address,
    item: overrides.item ?? { ...ticketAsset(f.world.ticketAddress), amount: quantity },
    price: overrides.price ?? priceOf(f.price, quantity),
    nonce: overrides.nonce,
    expiresAt: overrides.expiresAt,
    referrer: overrides.referrer,
    externalId: overrides.externalId,
  });
}

function relayWithAuthorization(f: Fixture, voucher: Voucher, authorization: ReceiveAuthorizationArgs) {
  return f.world.exchange
    .connect(f.relayer)
    .purchaseRaffleWithAuthorization(voucher.params, voucher.item, voucher.price, voucher.signature, authorization);
}

function relayWithPermit(
  f: Fixture,
  voucher: Voucher,
  intent: Parameters<Fixture["world"]["exchange"]["purchaseRaffleWithPermit"]>[4],
  permit = NO_PERMIT,
) {
  return f.world.exchange.connect(f.relayer).purchaseRaffleWithPermit(voucher.params, voucher.item, voucher.price, voucher.signature, intent, permit);
}

/** The same voucher fields with one changed, re-signed by the platform: what a relayer that also obtained a genuine
 * voucher for another purchase could submit with the buyer's signature. */
async function alteredVouchers(f: Fixture, buyer: string, original: Voucher): Promise<Array<[string, Voucher]>> {
  const other = await deployRaffle(f.world);
  await (await other.raffle.startRound(ticketAsset(other.ticketAddress), f.price, 0n)).wait();
  const base = { nonce: String(original.params.nonce), expiresAt: BigInt(original.params.expiresAt) };
  return [
    ["quantity", await voucherOf(f, buyer, 6n, base)],
    ["price", await voucherOf(f, buyer, FIVE, { ...base, price: priceOf(f.price, 4n) })],
    [
      "raffle (receiver)",
      await voucherOf(f, buyer, FIVE, { ...base, receiver: other.address, item: { ...ticketAsset(other.ticketAddress), amount: FIVE } }),
    ],
    ["voucher nonce", await voucherOf(f, buyer, FIVE, { expiresAt: base.expiresAt })],
    ["voucher expiry", await voucherOf(f, buyer, FIVE, { nonce: base.nonce, expiresAt: base.expiresAt + 1n })],
    ["referrer", await voucherOf(f, buyer, FIVE, { ...base, referrer: f.relayer.address })],
    ["external id", await voucherOf(f, buyer, FIVE, { ...base, externalId: 99n })],
  ];
}

describe("Gasless purchases", () => {
  describe("the demo token (ERC-3009 and EIP-2612)", () => {
    it("uses ERC-3009's type hashes word for word", async () => {
      const { world } = await loadFixture(gaslessFixture);
      // The constants printed in the EIP.
      expect(await world.token.TRANSFER_WITH_AUTHORIZATION_TYPEHASH()).to.equal("0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267");
      expect(await world.token.RECEIVE_WITH_AUTHORIZATION_TYPEHASH()).to.equal("0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8");
      expect(await world.token.CANCEL_AUTHORIZATION_TYPEHASH()).to.equal("0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429");
      expect(await world.token.DOMAIN_SEPARATOR()).to.equal(TypedDataEncoder.hashDomain(await testTokenDomain(world.token)));
    });

    it("moves tokens on a transferWithAuthorization anyone submits, once, and refuses a canceled one", async () => {
      const { world, alice, eve, relayer } = await loadFixture(gaslessFixture);
      const domain = await testTokenDomain(world.token);
      const message = {
        from: alice.address,
        to: eve.address,
        value: 7n,
        validAfter: 0n,
        validBefore: (await latestTimestamp()) + 600n,
        nonce: id("a"),
      };
      const { v, r, s } = Signature.from(await alice.signTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, message));
      const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, v, r, s] as const;
      const transfer =
        world.token.connect(relayer)["transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"];
      const used = transfer(...args);
      await expect(used).to.emit(world.token, "AuthorizationUsed").withArgs(alice.address, message.nonce);
      await expect(used).to.changeTokenBalances(world.token, [alice, eve], [-7n, 7n]);
      expect(await world.token.authorizationState(alice.address, message.nonce)).to.equal(true);
      await expect(transfer(...args))
        .to.be.revertedWithCustomError(world.token, "AuthorizationAlreadyUsed")
        .withArgs(alice.address, message.nonce);

      // Canceled before use: the same kind of signature with another nonce is dead.
      const second = { ...message, nonce: id("b") };
      const signed = Signature.from(await alice.signTypedData(domain, TRANSFER_WITH_AUTHORIZATION_TYPES, second));
      const cancel = Signature.from(
        await alice.signTypedData(domain, CANCEL_AUTHORIZATION_TYPES, { authorizer: alice.address, nonce: second.nonce }),
      );
      const cancelBySignature = world.token.connect(relayer)["cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)"];
      await expect(cancelBySignature(alice.address, second.nonce, cancel.v, cancel.r, cancel.s))
        .to.emit(world.token, "AuthorizationCanceled")
        .withArgs(alice.address, second.nonce);
      await expect(
        transfer(second.from, second.to, second.value, second.validAfter, second.validBefore, second.nonce, signed.v, signed.r, signed.s),
      ).to.be.revertedWithCustomError(world.token, "AuthorizationAlreadyUsed");
    });

    it("lets only the payee submit a receiveWithAuthorization, and a receive signature never passes as a transfer", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher);
      const nonce = gaslessPurchaseNonce(await gaslessPurchase(f.world.exchange, f.alice.address, voucher));
      const { v, r, s } = Signature.from(authorization.signature);
      const args = [f.alice.address, f.exchange, voucher.price.amount, 0n, authorization.validBefore, nonce, v, r, s] as const;
      await expect(
        f.world.token.connect(f.relayer)["receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"](...args),
      )
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationCallerNotPayee")
        .withArgs(f.relayer.address, f.exchange);
      await expect(
        f.world.token.connect(f.relayer)["transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)"](...args),
      )
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
        .withArgs(f.alice.address);
    });

    it("accepts a permit from an ERC-1271 wallet's key and refuses one from another key", async () => {
      const f = await loadFixture(gaslessFixture);
      const wallet = await new SigningWallet__factory(f.relayer).deploy(f.alice.address);
      const owner = await wallet.getAddress();
      const byOwner = await permitFor(f.alice, f.world.token, owner, f.exchange, 5n);
      await f.world.token.permit(owner, f.exchange, 5n, byOwner.deadline, byOwner.v, byOwner.r, byOwner.s);
      expect(await f.world.token.allowance(owner, f.exchange)).to.equal(5n);
      const byEve = await permitFor(f.eve, f.world.token, owner, f.exchange, 9n);
      await expect(f.world.token.permit(owner, f.exchange, 9n, byEve.deadline, byEve.v, byEve.r, byEve.s))
        .to.be.revertedWithCustomError(f.world.token, "ERC2612InvalidSigner")
        .withArgs(f.eve.address, owner);
    });
  });

  describe("purchaseRaffleWithAuthorization (ERC-3009: one signature)", () => {
    it("buys five tickets for a buyer with 0 ETH through a relayer that pays the gas: tickets to the buyer, price buyer→raffle", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher);
      const nonce = gaslessPurchaseNonce(await gaslessPurchase(f.world.exchange, f.alice.address, voucher));
      const relayerEth = await ethers.provider.getBalance(f.relayer.address);

      const tx = relayWithAuthorization(f, voucher, authorization);
      await expect(tx).to.changeTokenBalances(
        f.world.token,
        [f.alice, f.world.address, f.exchange, f.relayer],
        [-TICKET_PRICE * FIVE, TICKET_PRICE * FIVE, 0n, 0n],
      );
      await expect(tx).to.emit(f.world.token, "AuthorizationUsed").withArgs(f.alice.address, nonce);
      await expect(tx).to.emit(f.world.raffle, "TicketsPurchased");

      expect(await ethers.provider.getBalance(f.alice.address)).to.equal(0n);
      expect(await ethers.provider.getBalance(f.relayer.address)).to.be.lessThan(relayerEth);
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(FIVE);
      expect(await f.world.ticket.balanceOf(f.relayer.address)).to.equal(0n);
      const round = await f.world.raffle.getRound(1n);
      for (let ticketId = round.firstTicketId; ticketId < round.firstTicketId + FIVE; ticketId++) {
        expect(await f.world.ticket.ownerOf(ticketId)).to.equal(f.alice.address);
      }
      expect(await f.world.token.authorizationState(f.alice.address, nonce)).to.equal(true);
    });

    it("refuses a replay: the voucher nonce is spent", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address, 1n);
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher);
      await (await relayWithAuthorization(f, voucher, authorization)).wait();
      await expect(relayWithAuthorization(f, voucher, authorization))
        .to.be.revertedWithCustomError(f.world.exchange, "NonceAlreadyUsed")
        .withArgs(voucher.params.nonce);
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(1n);
    });

    it("refuses the buyer's signature for any other purchase, even with a genuine voucher for it", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher);
      for (const [field, altered] of await alteredVouchers(f, f.alice.address, voucher)) {
        await expect(relayWithAuthorization(f, altered, authorization), field)
          .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
          .withArgs(f.alice.address);
      }
      // The buyer's own window, moved by the relayer.
      for (const window of [{ validBefore: authorization.validBefore + 1n }, { validAfter: 1n }]) {
        await expect(relayWithAuthorization(f, voucher, { ...authorization, ...window }))
          .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
          .withArgs(f.alice.address);
      }
      // A voucher field changed without the platform's signature.
      await expect(relayWithAuthorization(f, { ...voucher, item: { ...voucher.item, amount: 6n } }, authorization)).to.be.revertedWithCustomError(
        f.world.exchange,
        "InvalidSigner",
      );
      expect(await f.world.token.balanceOf(f.alice.address)).to.equal(parseUnits("1000", 18));
      // Untouched, the signature still buys what it was signed for.
      await expect(relayWithAuthorization(f, voucher, authorization)).to.changeTokenBalance(f.world.token, f.alice, -TICKET_PRICE * FIVE);
    });

    it("refuses a signature bound to another Exchange or chain", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const purchase = await gaslessPurchase(f.world.exchange, f.alice.address, voucher);
      const domain = await testTokenDomain(f.world.token);
      const validBefore = (await latestTimestamp()) + 600n;
      for (const elsewhere of [{ exchange: f.relayer.address }, { chainId: 1n }]) {
        // The nonce computed on another Exchange's domain, the authorization still to this Exchange.
        const nonce = gaslessPurchaseNonce({ ...purchase, ...elsewhere });
        const message = { from: f.alice.address, to: f.exchange, value: voucher.price.amount, validAfter: 0n, validBefore, nonce };
        const signature = await f.alice.signTypedData(domain, RECEIVE_WITH_AUTHORIZATION_TYPES, message);
        await expect(relayWithAuthorization(f, voucher, { from: f.alice.address, validAfter: 0n, validBefore, signature }))
          .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
          .withArgs(f.alice.address);
      }
    });

    it("refuses an expired or not yet valid authorization, and an expired voucher, moving nothing", async () => {
      const f = await loadFixture(gaslessFixture);
      const now = await latestTimestamp();
      const voucher = await voucherOf(f, f.alice.address, 1n, { expiresAt: now + 120n });
      const expiring = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher, { validBefore: now + 60n });
      const early = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher, { validAfter: now + 100n });
      await expect(relayWithAuthorization(f, voucher, early))
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationNotYetValid")
        .withArgs(now + 100n);
      await time.increaseTo(now + 61n);
      await expect(relayWithAuthorization(f, voucher, expiring))
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationExpired")
        .withArgs(now + 60n);
      // A relayer that waits past the voucher's expiry can no longer buy at all.
      const patient = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher, { validBefore: now + 3_600n });
      await time.increaseTo(now + 121n);
      await expect(relayWithAuthorization(f, voucher, patient))
        .to.be.revertedWithCustomError(f.world.exchange, "SignatureExpired")
        .withArgs(now + 120n);
      expect(await f.world.token.balanceOf(f.alice.address)).to.equal(parseUnits("1000", 18));
    });

    it("refuses another buyer's signature, and a voucher of one buyer used for another", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      // Eve signs an authorization naming Alice as the payer.
      const forged = await authorize(f.eve, f.world.token, f.world.exchange, f.alice.address, voucher);
      await expect(relayWithAuthorization(f, voucher, forged))
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
        .withArgs(f.alice.address);
      // Eve pays with her own signature on Alice's voucher: the voucher is Alice's alone.
      const evePays = await authorize(f.eve, f.world.token, f.world.exchange, f.eve.address, voucher);
      await expect(relayWithAuthorization(f, voucher, evePays)).to.be.revertedWithCustomError(f.world.exchange, "InvalidSigner");
      expect(await f.world.ticket.balanceOf(f.eve.address)).to.equal(0n);
    });

    it("refuses a signature made for another purpose: a plain transfer to the Exchange, a purchase intent", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const purchase = await gaslessPurchase(f.world.exchange, f.alice.address, voucher);
      const validBefore = (await latestTimestamp()) + 600n;
      const transfer = {
        from: f.alice.address,
        to: f.exchange,
        value: voucher.price.amount,
        validAfter: 0n,
        validBefore,
        nonce: gaslessPurchaseNonce(purchase),
      };
      const transferSignature = await f.alice.signTypedData(await testTokenDomain(f.world.token), TRANSFER_WITH_AUTHORIZATION_TYPES, transfer);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher, validBefore);
      for (const signature of [transferSignature, intent.signature]) {
        await expect(relayWithAuthorization(f, voucher, { from: f.alice.address, validAfter: 0n, validBefore, signature }))
          .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
          .withArgs(f.alice.address);
      }
    });

    it("lets the buyer take the signature back before a relayer submits it", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address, 1n);
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher);
      const nonce = gaslessPurchaseNonce(await gaslessPurchase(f.world.exchange, f.alice.address, voucher));
      const cancel = await f.alice.signTypedData(await testTokenDomain(f.world.token), CANCEL_AUTHORIZATION_TYPES, {
        authorizer: f.alice.address,
        nonce,
      });
      await (await f.world.token.connect(f.relayer)["cancelAuthorization(address,bytes32,bytes)"](f.alice.address, nonce, cancel)).wait();
      await expect(relayWithAuthorization(f, voucher, authorization))
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationAlreadyUsed")
        .withArgs(f.alice.address, nonce);
    });

    it("sells to an ERC-1271 wallet on its key's signature, in 65 bytes and in its longer wallet format", async () => {
      const f = await loadFixture(gaslessFixture);
      const wallet = await new SigningWallet__factory(f.relayer).deploy(f.alice.address);
      const owner = await wallet.getAddress();
      await (await f.world.token.mint(owner, TICKET_PRICE * 10n)).wait();
      const first = await voucherOf(f, owner, 2n);
      const full = await authorize(f.alice, f.world.token, f.world.exchange, owner, first);
      await expect(relayWithAuthorization(f, first, full)).to.changeTokenBalances(
        f.world.token,
        [owner, f.world.address],
        [-TICKET_PRICE * 2n, TICKET_PRICE * 2n],
      );
      const second = await voucherOf(f, owner, 3n);
      const compact = await authorize(f.alice, f.world.token, f.world.exchange, owner, second);
      // 66 bytes: the Exchange calls the token's `bytes signature` form.
      await (await relayWithAuthorization(f, second, { ...compact, signature: concat([compact.signature, "0x01"]) })).wait();
      expect(await f.world.ticket.balanceOf(owner)).to.equal(5n);
      expect(await wallet.ticketsReceived()).to.equal(5n);
      // Eve's key is not the wallet's.
      const third = await voucherOf(f, owner, 1n);
      await expect(relayWithAuthorization(f, third, await authorize(f.eve, f.world.token, f.world.exchange, owner, third)))
        .to.be.revertedWithCustomError(f.world.token, "AuthorizationInvalidSignature")
        .withArgs(owner);
    });

    it("keeps purchaseRaffle's rules: the wallet cap counts the buyer, pause stops it, a NATIVE price cannot be relayed", async () => {
      const f = await loadFixture(gaslessFixture);
      await setRules(f.world, { maxTicketsPerWallet: 5 });
      await (await f.world.raffle.connect(f.world.merchant).endRound()).wait();
      const price = await startErc20Round(f.world);
      const g = { ...f, price };
      const five = await voucherOf(g, f.alice.address, 5n);
      await (await relayWithAuthorization(f, five, await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, five))).wait();
      const sixth = await voucherOf(g, f.alice.address, 1n);
      await expect(relayWithAuthorization(f, sixth, await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, sixth)))
        .to.be.revertedWithCustomError(f.world.raffle, "WalletLimitReached")
        .withArgs(f.alice.address, 5n, 1n, 5n);

      await (await f.world.exchange.connect(f.world.admin).pause()).wait();
      const bob = await voucherOf(g, f.eve.address, 1n);
      await expect(
        relayWithAuthorization(f, bob, await authorize(f.eve, f.world.token, f.world.exchange, f.eve.address, bob)),
      ).to.be.revertedWithCustomError(f.world.exchange, "EnforcedPause");
      await (await f.world.exchange.connect(f.world.admin).unpause()).wait();

      const nativeWorld = await deployRaffle(f.world);
      await (await nativeWorld.raffle.startRound(ticketAsset(nativeWorld.ticketAddress), nativePrice(), 0n)).wait();
      const native = await voucherOf(g, f.alice.address, 1n, {
        receiver: nativeWorld.address,
        item: ticketAsset(nativeWorld.ticketAddress),
        price: nativePrice(),
      });
      await expect(relayWithAuthorization(f, native, await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, native)))
        .to.be.revertedWithCustomError(f.world.exchange, "UnsupportedPriceType")
        .withArgs(0);
    });

    it("refuses a token without ERC-3009 by name, and one that only pretends to move the money", async () => {
      const f = await loadFixture(gaslessFixture);
      for (const [deploy, error] of [
        [() => new PlainToken__factory(f.world.admin).deploy(), "AuthorizationUnsupported"],
        [() => new PretendAuthorizationToken__factory(f.world.admin).deploy(), "PaymentShort"],
      ] as const) {
        const token = await deploy();
        await (await token.mint(f.alice.address, TICKET_PRICE)).wait();
        await listPriceToken(f.world, token);
        const raffle = await deployRaffle(f.world);
        const price = erc20Price(await token.getAddress());
        await (await raffle.raffle.startRound(ticketAsset(raffle.ticketAddress), price, 0n)).wait();
        const voucher = await voucherOf(f, f.alice.address, 1n, { receiver: raffle.address, item: ticketAsset(raffle.ticketAddress), price });
        const authorization = await signPurchaseAuthorization(
          f.alice,
          { name: await token.name(), version: "1", chainId: 31337n, verifyingContract: await token.getAddress() },
          await gaslessPurchase(f.world.exchange, f.alice.address, voucher),
          (await latestTimestamp()) + 600n,
        );
        const refused = expect(relayWithAuthorization(f, voucher, authorization)).to.be.revertedWithCustomError(f.world.exchange, error);
        await (error === "PaymentShort" ? refused.withArgs(TICKET_PRICE, 0n) : refused.withArgs(await token.getAddress()));
        expect(await raffle.ticket.balanceOf(f.alice.address)).to.equal(0n);
      }
    });
  });

  describe("purchaseRaffleWithPermit (EIP-2612: a permit and a purchase intent)", () => {
    it("buys five tickets for a buyer with 0 ETH through a relayer that pays the gas", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher);
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE * FIVE);
      const tx = relayWithPermit(f, voucher, intent, permit);
      await expect(tx).to.changeTokenBalances(
        f.world.token,
        [f.alice, f.world.address, f.exchange, f.relayer],
        [-TICKET_PRICE * FIVE, TICKET_PRICE * FIVE, 0n, 0n],
      );
      expect(await ethers.provider.getBalance(f.alice.address)).to.equal(0n);
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(FIVE);
      expect(await f.world.ticket.balanceOf(f.relayer.address)).to.equal(0n);
      expect(await f.world.token.allowance(f.alice.address, f.exchange)).to.equal(0n);
    });

    it("still buys when someone front-ran the permit", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher);
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE * FIVE);
      // Anyone can submit a signed permit: Eve's accomplice does, so the relayer's copy fails inside the purchase.
      await (
        await f.world.token
          .connect(f.world.players[0])
          .permit(f.alice.address, f.exchange, permit.value, permit.deadline, permit.v, permit.r, permit.s)
      ).wait();
      await expect(relayWithPermit(f, voucher, intent, permit)).to.changeTokenBalances(
        f.world.token,
        [f.alice, f.world.address],
        [-TICKET_PRICE * FIVE, TICKET_PRICE * FIVE],
      );
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(FIVE);
    });

    it("refuses a permit for another spender, or none at all, when the allowance is short", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher);
      const forRelayer = await permitFor(f.alice, f.world.token, f.alice.address, f.relayer.address, TICKET_PRICE * FIVE);
      await expect(relayWithPermit(f, voucher, intent, forRelayer))
        .to.be.revertedWithCustomError(f.world.exchange, "PermitRefused")
        .withArgs(await f.world.token.getAddress(), 0n);
      const tooSmall = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE);
      await expect(relayWithPermit(f, voucher, intent, tooSmall)).to.be.revertedWithCustomError(f.world.token, "ERC20InsufficientAllowance");
      await expect(relayWithPermit(f, voucher, intent)).to.be.revertedWithCustomError(f.world.token, "ERC20InsufficientAllowance");
    });

    it("buys on an allowance the buyer already gave, with no permit", async () => {
      const f = await loadFixture(gaslessFixture);
      const [carol] = f.world.players;
      await (await f.world.token.connect(carol).approve(f.exchange, TICKET_PRICE)).wait();
      const voucher = await voucherOf(f, carol.address, 1n);
      await expect(relayWithPermit(f, voucher, await intend(carol, f.world.exchange, carol.address, voucher))).to.changeTokenBalance(
        f.world.token,
        carol,
        -TICKET_PRICE,
      );
      expect(await f.world.ticket.balanceOf(carol.address)).to.equal(1n);
    });

    it("refuses a replayed intent", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address, 1n);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher);
      await (
        await relayWithPermit(f, voucher, intent, await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE * 2n))
      ).wait();
      await expect(relayWithPermit(f, voucher, intent))
        .to.be.revertedWithCustomError(f.world.exchange, "NonceAlreadyUsed")
        .withArgs(voucher.params.nonce);
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(1n);
    });

    it("refuses the intent for any other purchase or deadline, even with a genuine voucher and a standing allowance", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher);
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE * 100n);
      await (await f.world.token.permit(f.alice.address, f.exchange, permit.value, permit.deadline, permit.v, permit.r, permit.s)).wait();
      for (const [field, altered] of await alteredVouchers(f, f.alice.address, voucher)) {
        await expect(relayWithPermit(f, altered, intent), field)
          .to.be.revertedWithCustomError(f.world.exchange, "BuyerSignatureInvalid")
          .withArgs(f.alice.address);
      }
      await expect(relayWithPermit(f, voucher, { ...intent, deadline: intent.deadline + 1n }))
        .to.be.revertedWithCustomError(f.world.exchange, "BuyerSignatureInvalid")
        .withArgs(f.alice.address);
      expect(await f.world.token.balanceOf(f.alice.address)).to.equal(parseUnits("1000", 18));
      await (await relayWithPermit(f, voucher, intent)).wait();
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(FIVE);
    });

    it("refuses an expired intent", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address, 1n);
      const deadline = (await latestTimestamp()) + 60n;
      const intent = await intend(f.alice, f.world.exchange, f.alice.address, voucher, deadline);
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE);
      await time.increaseTo(deadline + 1n);
      await expect(relayWithPermit(f, voucher, intent, permit))
        .to.be.revertedWithCustomError(f.world.exchange, "IntentExpired")
        .withArgs(deadline);
    });

    it("refuses another buyer's intent and signatures made for another purpose (the voucher type, an ERC-3009 authorization)", async () => {
      const f = await loadFixture(gaslessFixture);
      const voucher = await voucherOf(f, f.alice.address);
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE * FIVE);
      const deadline = (await latestTimestamp()) + 600n;
      const byEve = await intend(f.eve, f.world.exchange, f.alice.address, voucher, deadline);
      const { chainId } = await ethers.provider.getNetwork();
      const voucherTyped = await f.alice.signTypedData(exchangeDomain(chainId, f.exchange), PURCHASE_TYPES, {
        account: f.alice.address,
        params: voucher.params,
        item: voucher.item,
        price: voucher.price,
      });
      const authorization = await authorize(f.alice, f.world.token, f.world.exchange, f.alice.address, voucher, { validBefore: deadline });
      for (const signature of [byEve.signature, voucherTyped, authorization.signature]) {
        await expect(relayWithPermit(f, voucher, { buyer: f.alice.address, deadline, signature }, permit))
          .to.be.revertedWithCustomError(f.world.exchange, "BuyerSignatureInvalid")
          .withArgs(f.alice.address);
      }
    });

    it("sells to an ERC-1271 wallet on its key's permit and intent", async () => {
      const f = await loadFixture(gaslessFixture);
      const wallet = await new SigningWallet__factory(f.relayer).deploy(f.alice.address);
      const owner = await wallet.getAddress();
      await (await f.world.token.mint(owner, TICKET_PRICE * FIVE)).wait();
      const voucher = await voucherOf(f, owner);
      const intent = await intend(f.alice, f.world.exchange, owner, voucher);
      const permit = await permitFor(f.alice, f.world.token, owner, f.exchange, TICKET_PRICE * FIVE);
      await expect(relayWithPermit(f, voucher, intent, permit)).to.changeTokenBalances(
        f.world.token,
        [owner, f.world.address],
        [-TICKET_PRICE * FIVE, TICKET_PRICE * FIVE],
      );
      expect(await f.world.ticket.balanceOf(owner)).to.equal(FIVE);
      const again = await voucherOf(f, owner, 1n);
      await expect(relayWithPermit(f, again, await intend(f.eve, f.world.exchange, owner, again)))
        .to.be.revertedWithCustomError(f.world.exchange, "BuyerSignatureInvalid")
        .withArgs(owner);
    });

    it("refuses a token without permit by name when the allowance is short", async () => {
      const f = await loadFixture(gaslessFixture);
      const token = await new PlainToken__factory(f.world.admin).deploy();
      await (await token.mint(f.alice.address, TICKET_PRICE)).wait();
      await listPriceToken(f.world, token);
      const raffle = await deployRaffle(f.world);
      const price = erc20Price(await token.getAddress());
      await (await raffle.raffle.startRound(ticketAsset(raffle.ticketAddress), price, 0n)).wait();
      const voucher = await voucherOf(f, f.alice.address, 1n, { receiver: raffle.address, item: ticketAsset(raffle.ticketAddress), price });
      const permit = await permitFor(f.alice, f.world.token, f.alice.address, f.exchange, TICKET_PRICE);
      await expect(relayWithPermit(f, voucher, await intend(f.alice, f.world.exchange, f.alice.address, voucher), permit))
        .to.be.revertedWithCustomError(f.world.exchange, "PermitRefused")
        .withArgs(await token.getAddress(), 0n);
    });
  });

  it("publishes the intent's type string as the typed data encodes it", () => {
    expect(TypedDataEncoder.from(PURCHASE_INTENT_TYPES).encodeType("PurchaseIntent")).to.equal(PURCHASE_INTENT_TYPE_STRING);
  });
});
