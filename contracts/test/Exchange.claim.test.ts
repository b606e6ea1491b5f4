import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture, time } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import {
  MaxUint256,
  TypedDataEncoder,
  ZeroAddress,
  concat,
  dataSlice,
  encodeBytes32String,
  getBytes,
  hexlify,
  id,
  type Log,
  parseUnits,
  toBeHex,
  zeroPadValue,
} from "ethers";

import {
  CLAIM_TYPE_STRING,
  CLAIM_TYPES,
  PURCHASE_TYPES,
  ReentrantToken__factory,
  TestCollectible__factory,
  TestToken__factory,
  TokenType,
  exchangeDomain,
  type AssetStruct,
  type PurchaseParamsStruct,
} from "@raffle/chain";

import { approveExchange, deployWorld, impersonate, purchase, startErc20Round, voucherFor } from "./support/scenario";
import { latestTimestamp, recoverClaimSigner, signClaim, type Claim } from "./support/vouchers";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const MINTER_ROLE = id("MINTER_ROLE");
const REWARD_SUPPLY = parseUnits("1000", 18);
const BONUS_SUPPLY = parseUnits("50", 18);
/** An odd amount, so an off-by-one anywhere shows. */
const REWARD_AMOUNT = parseUnits("25", 18) + 1n;

function erc20Item(token: string, amount: bigint): AssetStruct {
  return { tokenType: TokenType.ERC20, token, tokenId: 0n, amount };
}

function erc721Item(token: string, tokenId: bigint): AssetStruct {
  return { tokenType: TokenType.ERC721, token, tokenId, amount: 1n };
}

/** An ERC721 with token id 0: the Exchange mints one on the collection. */
function mintItem(token: string): AssetStruct {
  return erc721Item(token, 0n);
}

/**
 * A platform with a raffle selling GOLD tickets (for the shared nonce space; alice approved the Exchange for GOLD as
 * buyers do), and a merchant that grants items: two ERC20s it approved to the Exchange, and a collection it is a
 * minter of, whose ids 1-3 it holds, approved to the Exchange for all, that the Exchange may mint from. The merchant
 * opted in as a claim source for those three tokens (and only those: never GOLD).
 */
async function claimFixture() {
  const world = await deployWorld();
  const price = await startErc20Round(world);
  const [alice, bob, carol] = world.players;
  await approveExchange(world, [alice]);
  const { merchant, exchange } = world;
  const exchangeAddress = await exchange.getAddress();

  const reward = await new TestToken__factory(merchant).deploy("Reward", "RWD", merchant.address);
  const bonus = await new TestToken__factory(merchant).deploy("Bonus", "BNS", merchant.address);
  await (await reward.mint(merchant.address, REWARD_SUPPLY)).wait();
  await (await bonus.mint(merchant.address, BONUS_SUPPLY)).wait();
  await (await reward.approve(exchangeAddress, MaxUint256)).wait();
  await (await bonus.approve(exchangeAddress, MaxUint256)).wait();

  const collectible = await new TestCollectible__factory(merchant).deploy("Item", "ITEM", merchant.address);
  for (let i = 0; i < 3; i += 1) await (await collectible.mint(merchant.address)).wait(); // ids 1, 2, 3
  await (await collectible.setApprovalForAll(exchangeAddress, true)).wait();
  await (await collectible.grantRole(MINTER_ROLE, exchangeAddress)).wait();

  const rewardAddress = await reward.getAddress();
  const bonusAddress = await bonus.getAddress();
  const collectibleAddress = await collectible.getAddress();
  for (const token of [rewardAddress, bonusAddress, collectibleAddress]) {
    await (await exchange.connect(merchant).setClaimSource(token, true)).wait();
  }

  return {
    world,
    price,
    merchant,
    exchange,
    exchangeAddress,
    alice,
    bob,
    carol,
    reward,
    bonus,
    collectible,
    rewardAddress,
    bonusAddress,
    collectibleAddress,
    goldAddress: await world.token.getAddress(),
  };
}

type Fixture = Awaited<ReturnType<typeof claimFixture>>;

/** A claim voucher for `account` signed by the platform signer, delivering from the fixture's merchant. */
function claimFor(
  f: Fixture,
  account: HardhatEthersSigner | string,
  items: AssetStruct[],
  overrides: Partial<Parameters<typeof signClaim>[0]> = {},
): Promise<Claim> {
  return signClaim({
    exchange: f.exchange,
    signer: f.world.signer,
    account: typeof account === "string" ? account : account.address,
    receiver: f.merchant.address,
    items,
    ...overrides,
  });
}

function sendClaim(f: Fixture, claimer: HardhatEthersSigner, voucher: Claim) {
  return f.exchange.connect(claimer).claim(voucher.params, voucher.items, voucher.signature);
}

/** The signature with s replaced by n - s and v flipped: the same signer for raw ecrecover, but high-s. */
function malleate(signature: string): string {
  const r = dataSlice(signature, 0, 32);
  const s = BigInt(dataSlice(signature, 32, 64));
  const v = getBytes(signature)[64];
  return concat([r, zeroPadValue(toBeHex(SECP256K1_N - s), 32), new Uint8Array([v === 27 ? 28 : 27])]);
}

describe("Exchange.claim", () => {
  describe("delivering items from the merchant to the claimer", () => {
    it("signs exactly the Claim type the contract hashes", async () => {
      // libs/chain's typed data and the on-chain type string agree; the successful claims below prove the typehash.
      expect(TypedDataEncoder.from(CLAIM_TYPES).encodeType("Claim")).to.equal(CLAIM_TYPE_STRING);
      const f = await loadFixture(claimFixture);
      expect(await f.exchange.MAX_CLAIM_ITEMS()).to.equal(20n);
    });

    it("transfers an ERC20 amount from the merchant to the claimer, to the wei, and emits Claimed once", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, merchant, exchange, reward } = f;
      const voucher = await claimFor(f, alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)], { externalId: 42n });

      const tx = sendClaim(f, alice, voucher);
      await expect(tx).to.changeTokenBalances(reward, [alice, merchant, exchange], [REWARD_AMOUNT, -REWARD_AMOUNT, 0n]);
      await expect(tx).to.emit(reward, "Transfer").withArgs(merchant.address, alice.address, REWARD_AMOUNT);
      await expect(tx).to.emit(exchange, "Claimed").withArgs(alice.address, voucher.params.nonce, 42n, merchant.address);
      expect(await exchange.isNonceUsed(voucher.params.nonce)).to.equal(true);
      expect(await reward.balanceOf(alice.address)).to.equal(REWARD_AMOUNT);
      expect(await reward.balanceOf(merchant.address)).to.equal(REWARD_SUPPLY - REWARD_AMOUNT);
    });

    it("transfers an ERC721 token id from the merchant to the claimer", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, merchant, exchange, collectible } = f;
      const voucher = await claimFor(f, alice, [erc721Item(f.collectibleAddress, 2n)]);

      const tx = sendClaim(f, alice, voucher);
      await expect(tx).to.emit(collectible, "Transfer").withArgs(merchant.address, alice.address, 2n);
      await expect(tx).to.emit(exchange, "Claimed").withArgs(alice.address, voucher.params.nonce, 1n, merchant.address);
      expect(await collectible.ownerOf(2n)).to.equal(alice.address);
      expect(await collectible.ownerOf(1n)).to.equal(merchant.address);
      expect(await collectible.ownerOf(3n)).to.equal(merchant.address);
      expect(await collectible.balanceOf(merchant.address)).to.equal(2n);
      expect(await collectible.balanceOf(alice.address)).to.equal(1n);
    });

    it("mints a new token of the collection for an ERC721 item with token id 0", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, merchant, collectible } = f;
      const voucher = await claimFor(f, alice, [mintItem(f.collectibleAddress)]);

      const tx = sendClaim(f, alice, voucher);
      await expect(tx).to.emit(collectible, "Transfer").withArgs(ZeroAddress, alice.address, 4n);
      await expect(tx).to.emit(f.exchange, "Claimed").withArgs(alice.address, voucher.params.nonce, 1n, merchant.address);
      expect(await collectible.ownerOf(4n)).to.equal(alice.address);
      expect(await collectible.balanceOf(merchant.address)).to.equal(3n); // nothing taken from the merchant
      await expect(collectible.ownerOf(5n)).to.be.revertedWithCustomError(collectible, "ERC721NonexistentToken").withArgs(5n);
    });

    it("delivers several items of every kind in one claim, with a single Claimed event", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, merchant, exchange, reward, bonus, collectible } = f;
      const bonusAmount = 7n;
      const items = [
        erc20Item(f.rewardAddress, REWARD_AMOUNT),
        erc721Item(f.collectibleAddress, 1n),
        mintItem(f.collectibleAddress),
        erc20Item(f.bonusAddress, bonusAmount),
        erc721Item(f.collectibleAddress, 3n),
        mintItem(f.collectibleAddress),
        erc20Item(f.rewardAddress, 1n),
      ];
      const voucher = await claimFor(f, alice, items, { externalId: 9n });

      const tx = sendClaim(f, alice, voucher);
      await expect(tx).to.changeTokenBalances(reward, [alice, merchant], [REWARD_AMOUNT + 1n, -(REWARD_AMOUNT + 1n)]);
      await expect(tx).to.changeTokenBalances(bonus, [alice, merchant], [bonusAmount, -bonusAmount]);
      const receipt = await (await tx).wait();
      const claimed = receipt!.logs.filter((log) => log.address === f.exchangeAddress).map((log) => exchange.interface.parseLog(log));
      expect(claimed.map((parsed) => parsed?.name)).to.deep.equal(["Claimed"]);
      expect(claimed[0]!.args.toArray()).to.deep.equal([alice.address, voucher.params.nonce, 9n, merchant.address]);
      // One Transfer per item, then Claimed: it is emitted once every item was delivered.
      expect(receipt!.logs).to.have.length(items.length + 1);
      expect(receipt!.logs[items.length]!.address).to.equal(f.exchangeAddress);

      for (const tokenId of [1n, 3n, 4n, 5n]) expect(await collectible.ownerOf(tokenId)).to.equal(alice.address);
      expect(await collectible.ownerOf(2n)).to.equal(merchant.address);
      expect(await collectible.balanceOf(alice.address)).to.equal(4n);
    });

    it("accepts exactly MAX_CLAIM_ITEMS (20) items", async () => {
      const f = await loadFixture(claimFixture);
      const items = Array.from({ length: 20 }, (_, i) => erc20Item(f.rewardAddress, BigInt(i + 1)));
      const voucher = await claimFor(f, f.alice, items);
      await expect(sendClaim(f, f.alice, voucher)).to.changeTokenBalances(f.reward, [f.alice, f.merchant], [210n, -210n]);
    });

    it("rejects 0 and 21 items with InvalidClaimItemCount, even when the voucher is correctly signed", async () => {
      const f = await loadFixture(claimFixture);
      for (const count of [0, 21]) {
        const items = Array.from({ length: count }, () => erc20Item(f.rewardAddress, 1n));
        const voucher = await claimFor(f, f.alice, items);
        await expect(sendClaim(f, f.alice, voucher))
          .to.be.revertedWithCustomError(f.exchange, "InvalidClaimItemCount")
          .withArgs(BigInt(count));
        expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      }
      expect(await f.reward.balanceOf(f.alice.address)).to.equal(0n);
    });
  });

  describe("a voucher bound to its claimer and contents", () => {
    it("rejects a voucher submitted by another account, without burning its nonce", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, bob } = f;
      const voucher = await claimFor(f, alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      const recovered = await recoverClaimSigner(f.exchange, bob.address, voucher, voucher.signature);
      expect(recovered).not.to.equal(f.world.signer.address);

      await expect(sendClaim(f, bob, voucher))
        .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
        .withArgs(recovered);
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await expect(sendClaim(f, alice, voucher)).to.changeTokenBalances(f.reward, [alice, bob], [REWARD_AMOUNT, 0n]);
    });

    const itemTampers: Array<[string, (items: AssetStruct[], f: Fixture) => AssetStruct[]]> = [
      ["an ERC20 amount raised", ([a, b]) => [{ ...a, amount: BigInt(a.amount) + 1n }, b]],
      ["an ERC20 token swapped", ([a, b], f) => [{ ...a, token: f.bonusAddress }, b]],
      ["an ERC721 token id changed", ([a, b]) => [a, { ...b, tokenId: 3n }]],
      ["an ERC721 turned into a mint", ([a, b]) => [a, { ...b, tokenId: 0n }]],
      ["a token type changed", ([a, b]) => [a, { ...b, tokenType: TokenType.ERC1155 }]],
      ["an item dropped", ([a]) => [a]],
      ["an item duplicated", ([a, b]) => [a, b, a]],
      ["the items reordered", ([a, b]) => [b, a]],
    ];
    for (const [name, tamper] of itemTampers) {
      it(`rejects a voucher with ${name} (InvalidSigner)`, async () => {
        const f = await loadFixture(claimFixture);
        const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT), erc721Item(f.collectibleAddress, 2n)]);
        const tampered: Claim = { ...voucher, items: tamper(voucher.items, f) };
        const recovered = await recoverClaimSigner(f.exchange, f.alice.address, tampered, voucher.signature);
        expect(recovered).not.to.equal(f.world.signer.address);

        await expect(sendClaim(f, f.alice, tampered))
          .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
          .withArgs(recovered);
        expect(await f.reward.balanceOf(f.merchant.address)).to.equal(REWARD_SUPPLY);
        expect(await f.collectible.balanceOf(f.merchant.address)).to.equal(3n);
      });
    }

    const paramTampers: Array<[keyof PurchaseParamsStruct, (p: PurchaseParamsStruct, f: Fixture) => Promise<PurchaseParamsStruct>]> = [
      ["externalId", async (p) => ({ ...p, externalId: BigInt(p.externalId) + 1n })],
      ["expiresAt", async (p) => ({ ...p, expiresAt: BigInt(p.expiresAt) + 1_000n })],
      ["nonce", async (p) => ({ ...p, nonce: zeroPadValue(toBeHex(BigInt(p.nonce) ^ 1n), 32) })],
      ["extra", async (p) => ({ ...p, extra: encodeBytes32String("0x") })],
      [
        "receiver",
        async (p, f) => {
          // A second, funded source that approved the Exchange and opted in too: only the signature stops the switch.
          await (await f.reward.mint(f.carol.address, REWARD_SUPPLY)).wait();
          await (await f.reward.connect(f.carol).approve(f.exchangeAddress, MaxUint256)).wait();
          await (await f.exchange.connect(f.carol).setClaimSource(f.rewardAddress, true)).wait();
          return { ...p, receiver: f.carol.address };
        },
      ],
      ["referrer", async (p, f) => ({ ...p, referrer: f.bob.address })],
    ];
    for (const [field, tamper] of paramTampers) {
      it(`rejects a voucher whose params.${field} was changed (InvalidSigner)`, async () => {
        const f = await loadFixture(claimFixture);
        const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
        const tampered: Claim = { ...voucher, params: await tamper(voucher.params, f) };
        expect(tampered.params[field]).not.to.equal(voucher.params[field]);
        const recovered = await recoverClaimSigner(f.exchange, f.alice.address, tampered, voucher.signature);
        expect(recovered).not.to.equal(f.world.signer.address);

        await expect(sendClaim(f, f.alice, tampered))
          .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
          .withArgs(recovered);
        expect(await f.reward.balanceOf(f.alice.address)).to.equal(0n);
        await expect(sendClaim(f, f.alice, voucher)).to.changeTokenBalance(f.reward, f.alice, REWARD_AMOUNT);
      });
    }

    it("rejects a purchase-typed signature over the same account and params (the types do not cross)", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      const { chainId } = await ethers.provider.getNetwork();
      const item = voucher.items[0];
      const purchaseSignature = await f.world.signer.signTypedData(exchangeDomain(chainId, f.exchangeAddress), PURCHASE_TYPES, {
        account: f.alice.address,
        params: voucher.params,
        item,
        price: item,
      });
      const recovered = await recoverClaimSigner(f.exchange, f.alice.address, voucher, purchaseSignature);
      expect(recovered).not.to.equal(f.world.signer.address);
      await expect(sendClaim(f, f.alice, { ...voucher, signature: purchaseSignature }))
        .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
        .withArgs(recovered);
    });

    it("rejects a voucher signed by a key without SIGNER_ROLE, and the old key after a rotation", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, bob, carol, world } = f;
      const items = [erc20Item(f.rewardAddress, REWARD_AMOUNT)];
      const byBob = await claimFor(f, alice, items, { signer: bob });
      await expect(sendClaim(f, alice, byBob))
        .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
        .withArgs(bob.address);

      const byOldSigner = await claimFor(f, alice, items);
      await (await f.exchange.connect(world.admin).rotateSigner(world.signer.address, carol.address)).wait();
      await expect(sendClaim(f, alice, byOldSigner))
        .to.be.revertedWithCustomError(f.exchange, "InvalidSigner")
        .withArgs(world.signer.address);
      const byNewSigner = await claimFor(f, alice, items, { signer: carol });
      await expect(sendClaim(f, alice, byNewSigner)).to.changeTokenBalance(f.reward, alice, REWARD_AMOUNT);
    });

    it("rejects malformed signatures: wrong length, empty, bad v", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      const short = dataSlice(voucher.signature, 0, 64);
      const badV = concat([dataSlice(voucher.signature, 0, 64), new Uint8Array([29])]);
      for (const signature of [short, "0x", badV, concat([voucher.signature, "0x00"])]) {
        await expect(sendClaim(f, f.alice, { ...voucher, signature })).to.be.revertedWithCustomError(f.exchange, "InvalidSignature");
      }
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await expect(sendClaim(f, f.alice, voucher)).to.changeTokenBalance(f.reward, f.alice, REWARD_AMOUNT);
    });

    it("rejects the high-s twin of a valid signature (malleability)", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      const twin = malleate(voucher.signature);
      expect(twin).not.to.equal(voucher.signature);
      expect(BigInt(dataSlice(twin, 32, 64))).to.be.greaterThan(SECP256K1_N / 2n);
      await expect(sendClaim(f, f.alice, { ...voucher, signature: twin })).to.be.revertedWithCustomError(f.exchange, "InvalidSignature");
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
    });
  });

  describe("replay, the shared nonce space and expiry", () => {
    it("rejects a replayed claim with NonceAlreadyUsed and delivers only once", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT), mintItem(f.collectibleAddress)]);
      await (await sendClaim(f, f.alice, voucher)).wait();
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.exchange, "NonceAlreadyUsed")
        .withArgs(voucher.params.nonce);
      expect(await f.reward.balanceOf(f.alice.address)).to.equal(REWARD_AMOUNT);
      expect(await f.collectible.balanceOf(f.alice.address)).to.equal(1n);
    });

    it("rejects a second, correctly signed claim reusing a nonce, even for another account", async () => {
      const f = await loadFixture(claimFixture);
      const first = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, 1n)]);
      await (await sendClaim(f, f.alice, first)).wait();
      const again = await claimFor(f, f.bob, [erc20Item(f.rewardAddress, 2n)], { nonce: String(first.params.nonce) });
      await expect(sendClaim(f, f.bob, again))
        .to.be.revertedWithCustomError(f.exchange, "NonceAlreadyUsed")
        .withArgs(first.params.nonce);
      expect(await f.reward.balanceOf(f.bob.address)).to.equal(0n);
    });

    it("rejects a claim whose nonce a purchase already used", async () => {
      const f = await loadFixture(claimFixture);
      const purchaseVoucher = await voucherFor(f.world, f.alice, f.price);
      await expect(purchase(f.world, f.alice, purchaseVoucher)).to.emit(f.world.raffle, "TicketsPurchased");
      const nonce = String(purchaseVoucher.params.nonce);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)], { nonce });
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.exchange, "NonceAlreadyUsed")
        .withArgs(nonce);
      expect(await f.reward.balanceOf(f.alice.address)).to.equal(0n);
    });

    it("rejects a purchase whose nonce a claim already used", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      await (await sendClaim(f, f.alice, voucher)).wait();
      const nonce = String(voucher.params.nonce);
      const purchaseVoucher = await voucherFor(f.world, f.alice, f.price, { nonce });
      await expect(purchase(f.world, f.alice, purchaseVoucher))
        .to.be.revertedWithCustomError(f.exchange, "NonceAlreadyUsed")
        .withArgs(nonce);
      expect(await f.world.ticket.balanceOf(f.alice.address)).to.equal(0n);
    });

    it("keeps a claim nonce and a purchase nonce of the same bitmap word independent", async () => {
      const f = await loadFixture(claimFixture);
      const prefix = hexlify(ethers.randomBytes(31));
      const claimNonce = `${prefix}00`;
      const purchaseNonce = `${prefix}01`;
      await (await sendClaim(f, f.alice, await claimFor(f, f.alice, [erc20Item(f.rewardAddress, 1n)], { nonce: claimNonce }))).wait();
      expect(await f.exchange.isNonceUsed(purchaseNonce)).to.equal(false);
      await expect(purchase(f.world, f.alice, await voucherFor(f.world, f.alice, f.price, { nonce: purchaseNonce }))).to.emit(
        f.world.raffle,
        "TicketsPurchased",
      );
      expect(await f.exchange.isNonceUsed(claimNonce)).to.equal(true);
      expect(await f.exchange.isNonceUsed(purchaseNonce)).to.equal(true);
    });

    it("accepts a claim up to its expiresAt second and rejects it one second later with SignatureExpired", async () => {
      const f = await loadFixture(claimFixture);
      const expiresAt = (await latestTimestamp()) + 100n;
      const items = [erc20Item(f.rewardAddress, REWARD_AMOUNT)];
      const lastSecond = await claimFor(f, f.alice, items, { expiresAt });
      const late = await claimFor(f, f.alice, items, { expiresAt });

      await time.setNextBlockTimestamp(expiresAt);
      await expect(sendClaim(f, f.alice, lastSecond)).to.emit(f.exchange, "Claimed");
      await time.setNextBlockTimestamp(expiresAt + 1n);
      await expect(sendClaim(f, f.alice, late))
        .to.be.revertedWithCustomError(f.exchange, "SignatureExpired")
        .withArgs(expiresAt);
      expect(await f.exchange.isNonceUsed(late.params.nonce)).to.equal(false);
      expect(await f.reward.balanceOf(f.alice.address)).to.equal(REWARD_AMOUNT);
    });

    it("rejects expiresAt = 0 with ExpiryMissing (never 'forever')", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)], { expiresAt: 0n });
      await expect(sendClaim(f, f.alice, voucher)).to.be.revertedWithCustomError(f.exchange, "ExpiryMissing");
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
    });
  });

  describe("unsupported items", () => {
    const unsupported: Array<[string, (f: Fixture) => AssetStruct]> = [
      ["NATIVE", () => ({ tokenType: TokenType.NATIVE, token: ZeroAddress, tokenId: 0n, amount: 1n })],
      ["ERC1155", (f) => ({ tokenType: TokenType.ERC1155, token: f.collectibleAddress, tokenId: 1n, amount: 1n })],
      ["ERC998", (f) => ({ tokenType: TokenType.ERC998, token: f.collectibleAddress, tokenId: 1n, amount: 1n })],
      ["ERC20 with a token id", (f) => ({ ...erc20Item(f.rewardAddress, 1n), tokenId: 1n })],
      ["ERC20 with amount 0", (f) => erc20Item(f.rewardAddress, 0n)],
      ["ERC721 with amount 2", (f) => ({ ...erc721Item(f.collectibleAddress, 1n), amount: 2n })],
      ["ERC721 mint with amount 2", (f) => ({ ...mintItem(f.collectibleAddress), amount: 2n })],
      ["ERC721 with amount 0", (f) => ({ ...erc721Item(f.collectibleAddress, 1n), amount: 0n })],
    ];
    for (const [name, make] of unsupported) {
      it(`rejects ${name} with UnsupportedClaimItem(index) and delivers none of the items before it`, async () => {
        const f = await loadFixture(claimFixture);
        const bad = make(f);
        // The merchant opted in for the item's token (even address(0) for NATIVE), so only its shape can reject it.
        await (await f.exchange.connect(f.merchant).setClaimSource(bad.token, true)).wait();
        const alone = await claimFor(f, f.alice, [bad]);
        await expect(sendClaim(f, f.alice, alone))
          .to.be.revertedWithCustomError(f.exchange, "UnsupportedClaimItem")
          .withArgs(0n);

        const items = [erc20Item(f.rewardAddress, REWARD_AMOUNT), mintItem(f.collectibleAddress), bad];
        const voucher = await claimFor(f, f.alice, items);
        await expect(sendClaim(f, f.alice, voucher))
          .to.be.revertedWithCustomError(f.exchange, "UnsupportedClaimItem")
          .withArgs(2n);
        expect(await f.reward.balanceOf(f.alice.address)).to.equal(0n);
        expect(await f.collectible.balanceOf(f.alice.address)).to.equal(0n);
        expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      });
    }
  });

  describe("what the merchant must have granted", () => {
    it("bubbles up the token's ERC20InsufficientAllowance when the merchant's allowance is short", async () => {
      const f = await loadFixture(claimFixture);
      await (await f.reward.approve(f.exchangeAddress, REWARD_AMOUNT - 1n)).wait();
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.reward, "ERC20InsufficientAllowance")
        .withArgs(f.exchangeAddress, REWARD_AMOUNT - 1n, REWARD_AMOUNT);
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
    });

    it("bubbles up ERC20InsufficientBalance when the merchant does not hold the amount", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.bonusAddress, BONUS_SUPPLY + 1n)]);
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.bonus, "ERC20InsufficientBalance")
        .withArgs(f.merchant.address, BONUS_SUPPLY, BONUS_SUPPLY + 1n);
    });

    it("bubbles up ERC721InsufficientApproval when the merchant did not approve the Exchange for the token", async () => {
      const f = await loadFixture(claimFixture);
      await (await f.collectible.setApprovalForAll(f.exchangeAddress, false)).wait();
      const voucher = await claimFor(f, f.alice, [erc721Item(f.collectibleAddress, 2n)]);
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.collectible, "ERC721InsufficientApproval")
        .withArgs(f.exchangeAddress, 2n);
      expect(await f.collectible.ownerOf(2n)).to.equal(f.merchant.address);

      // A single-token approval is enough.
      await (await f.collectible.approve(f.exchangeAddress, 2n)).wait();
      await expect(sendClaim(f, f.alice, voucher))
        .to.emit(f.collectible, "Transfer")
        .withArgs(f.merchant.address, f.alice.address, 2n);
    });

    it("never takes a token the merchant does not own, even from a holder who approved the Exchange", async () => {
      const f = await loadFixture(claimFixture);
      await (await f.collectible.transferFrom(f.merchant.address, f.carol.address, 3n)).wait();
      await (await f.collectible.connect(f.carol).setApprovalForAll(f.exchangeAddress, true)).wait();
      const voucher = await claimFor(f, f.alice, [erc721Item(f.collectibleAddress, 3n)]);
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.collectible, "ERC721IncorrectOwner")
        .withArgs(f.merchant.address, 3n, f.carol.address);
      expect(await f.collectible.ownerOf(3n)).to.equal(f.carol.address);
    });

    it("bubbles up AccessControlUnauthorizedAccount when the Exchange may not mint on the collection", async () => {
      const f = await loadFixture(claimFixture);
      await (await f.collectible.revokeRole(MINTER_ROLE, f.exchangeAddress)).wait();
      const voucher = await claimFor(f, f.alice, [mintItem(f.collectibleAddress)]);
      await expect(sendClaim(f, f.alice, voucher))
        .to.be.revertedWithCustomError(f.collectible, "AccessControlUnauthorizedAccount")
        .withArgs(f.exchangeAddress, MINTER_ROLE);
      expect(await f.collectible.balanceOf(f.alice.address)).to.equal(0n);
    });
  });

  describe("claim sources: only an account that opted in, per token, is ever delivered from", () => {
    /** Logs `exchange` emitted in a receipt, parsed. */
    function exchangeEvents(f: Fixture, logs: readonly Log[]) {
      return logs.filter((log) => log.address === f.exchangeAddress).map((log) => f.exchange.interface.parseLog(log)!);
    }

    it("starts with the merchant opted in for exactly its reward tokens and collection, and nobody for GOLD", async () => {
      const f = await loadFixture(claimFixture);
      for (const token of [f.rewardAddress, f.bonusAddress, f.collectibleAddress]) {
        expect(await f.exchange.isClaimSource(f.merchant.address, token)).to.equal(true);
      }
      for (const account of [f.merchant, f.alice, f.bob, f.carol]) {
        expect(await f.exchange.isClaimSource(account.address, f.goldAddress)).to.equal(false);
      }
      expect(await f.exchange.COLLECTION_MINTER_ROLE()).to.equal(MINTER_ROLE);
    });

    describe("setClaimSource", () => {
      it("records the caller's own choice for one token and emits ClaimSourceSet(source, token, allowed)", async () => {
        const f = await loadFixture(claimFixture);
        const { carol, merchant, exchange } = f;
        // Anyone may call it (no role): it only ever speaks for msg.sender.
        await expect(exchange.connect(carol).setClaimSource(f.goldAddress, true))
          .to.emit(exchange, "ClaimSourceSet")
          .withArgs(carol.address, f.goldAddress, true);
        expect(await exchange.isClaimSource(carol.address, f.goldAddress)).to.equal(true);
        expect(await exchange.isClaimSource(carol.address, f.rewardAddress)).to.equal(false);
        expect(await exchange.isClaimSource(merchant.address, f.goldAddress)).to.equal(false);

        // Setting the same value again is harmless and still announced.
        await expect(exchange.connect(carol).setClaimSource(f.goldAddress, true))
          .to.emit(exchange, "ClaimSourceSet")
          .withArgs(carol.address, f.goldAddress, true);
        expect(await exchange.isClaimSource(carol.address, f.goldAddress)).to.equal(true);

        await expect(exchange.connect(carol).setClaimSource(f.goldAddress, false))
          .to.emit(exchange, "ClaimSourceSet")
          .withArgs(carol.address, f.goldAddress, false);
        expect(await exchange.isClaimSource(carol.address, f.goldAddress)).to.equal(false);
        // Carol's opt-out touches nobody else's choice.
        expect(await exchange.isClaimSource(merchant.address, f.rewardAddress)).to.equal(true);

        // source and token are indexed: an indexer can follow one source, or one source and token.
        const carolGold = await exchange.queryFilter(exchange.filters.ClaimSourceSet(carol.address, f.goldAddress));
        expect(carolGold.map((event) => event.args.allowed)).to.deep.equal([true, true, false]);
        const merchantEvents = await exchange.queryFilter(exchange.filters.ClaimSourceSet(merchant.address));
        expect(merchantEvents.map((event) => [event.args.token, event.args.allowed])).to.deep.equal([
          [f.rewardAddress, true],
          [f.bonusAddress, true],
          [f.collectibleAddress, true],
        ]);
      });
    });

    describe("a buyer who approved the Exchange for purchases", () => {
      it("cannot be drained by a validly signed voucher naming her as the source, despite a MaxUint256 allowance", async () => {
        const f = await loadFixture(claimFixture);
        const { alice, carol, merchant, exchange, world } = f;
        // alice is a real buyer: she approved the Exchange for GOLD without limit and paid for a ticket with it.
        await expect(purchase(world, alice, await voucherFor(world, alice, f.price))).to.emit(world.raffle, "TicketsPurchased");
        expect(await world.token.allowance(alice.address, f.exchangeAddress)).to.equal(MaxUint256);
        const aliceBefore = await world.token.balanceOf(alice.address);
        const carolBefore = await world.token.balanceOf(carol.address);
        expect(aliceBefore).to.be.greaterThan(0n);

        // The platform's signer (or a leaked key) signs "everything alice holds, from alice, to carol".
        const drain = await claimFor(f, carol, [erc20Item(f.goldAddress, aliceBefore)], { receiver: alice.address });
        await expect(sendClaim(f, carol, drain))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(alice.address, f.goldAddress);

        // Another source opting in for GOLD does not expose her either: the opt-in is per source.
        await (await exchange.connect(merchant).setClaimSource(f.goldAddress, true)).wait();
        await expect(sendClaim(f, carol, drain))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(alice.address, f.goldAddress);

        expect(await world.token.balanceOf(alice.address)).to.equal(aliceBefore);
        expect(await world.token.balanceOf(carol.address)).to.equal(carolBefore);
        expect(await world.token.allowance(alice.address, f.exchangeAddress)).to.equal(MaxUint256);
        expect(await exchange.isNonceUsed(drain.params.nonce)).to.equal(false);
        // Her allowance still serves its purpose: she can buy again.
        await expect(purchase(world, alice, await voucherFor(world, alice, f.price))).to.changeTokenBalance(
          world.token,
          alice,
          -BigInt(f.price.amount),
        );
      });

      it("cannot lose an ERC721 she approved the Exchange for (setApprovalForAll)", async () => {
        const f = await loadFixture(claimFixture);
        const { alice, carol, exchange, collectible } = f;
        await (await collectible.transferFrom(f.merchant.address, alice.address, 3n)).wait();
        await (await collectible.connect(alice).setApprovalForAll(f.exchangeAddress, true)).wait();

        const alone = await claimFor(f, carol, [erc721Item(f.collectibleAddress, 3n)], { receiver: alice.address });
        await expect(sendClaim(f, carol, alone))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(alice.address, f.collectibleAddress);
        expect(await collectible.ownerOf(3n)).to.equal(alice.address);
      });
    });

    describe("opting out", () => {
      it("stops further claims of that token, even vouchers signed before, and opting back in resumes them", async () => {
        const f = await loadFixture(claimFixture);
        const { alice, bob, merchant, exchange, reward, bonus } = f;
        await expect(sendClaim(f, alice, await claimFor(f, alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]))).to.changeTokenBalance(
          reward,
          alice,
          REWARD_AMOUNT,
        );
        const pending = await claimFor(f, bob, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);

        await expect(exchange.connect(merchant).setClaimSource(f.rewardAddress, false))
          .to.emit(exchange, "ClaimSourceSet")
          .withArgs(merchant.address, f.rewardAddress, false);
        await expect(sendClaim(f, bob, pending))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.rewardAddress);
        expect(await exchange.isNonceUsed(pending.params.nonce)).to.equal(false);
        expect(await reward.balanceOf(bob.address)).to.equal(0n);
        expect(await reward.balanceOf(merchant.address)).to.equal(REWARD_SUPPLY - REWARD_AMOUNT);
        // The allowance is untouched: the opt-in alone gates the claim.
        expect(await reward.allowance(merchant.address, f.exchangeAddress)).to.equal(MaxUint256);

        // Tokens still opted in keep working, but not bundled with the opted-out one: the claim is all or nothing.
        const mixed = await claimFor(f, bob, [erc20Item(f.bonusAddress, 7n), erc20Item(f.rewardAddress, 1n)]);
        await expect(sendClaim(f, bob, mixed))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.rewardAddress);
        expect(await bonus.balanceOf(bob.address)).to.equal(0n);
        await expect(sendClaim(f, bob, await claimFor(f, bob, [erc20Item(f.bonusAddress, 7n)]))).to.changeTokenBalance(bonus, bob, 7n);

        await (await exchange.connect(merchant).setClaimSource(f.rewardAddress, true)).wait();
        await expect(sendClaim(f, bob, pending)).to.changeTokenBalances(reward, [bob, merchant], [REWARD_AMOUNT, -REWARD_AMOUNT]);
      });

      it("opting out of a collection stops both transfers of ids it holds and mints", async () => {
        const f = await loadFixture(claimFixture);
        const { alice, merchant, exchange, collectible } = f;
        await (await exchange.connect(merchant).setClaimSource(f.collectibleAddress, false)).wait();
        for (const item of [erc721Item(f.collectibleAddress, 2n), mintItem(f.collectibleAddress)]) {
          await expect(sendClaim(f, alice, await claimFor(f, alice, [item])))
            .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
            .withArgs(merchant.address, f.collectibleAddress);
        }
        expect(await collectible.ownerOf(2n)).to.equal(merchant.address);
        expect(await collectible.balanceOf(alice.address)).to.equal(0n);
        await expect(collectible.ownerOf(4n)).to.be.revertedWithCustomError(collectible, "ERC721NonexistentToken").withArgs(4n);
      });
    });

    it("is per token: a source opted in for GOLD only delivers GOLD, not another ERC20 nor an ERC721", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, carol, exchange, world, reward, collectible } = f;
      // carol holds GOLD, REWARD, collectible id 3 and a collection of her own, all usable by the Exchange...
      await (await world.token.connect(carol).approve(f.exchangeAddress, MaxUint256)).wait();
      await (await reward.mint(carol.address, REWARD_SUPPLY)).wait();
      await (await reward.connect(carol).approve(f.exchangeAddress, MaxUint256)).wait();
      await (await collectible.transferFrom(f.merchant.address, carol.address, 3n)).wait();
      await (await collectible.connect(carol).setApprovalForAll(f.exchangeAddress, true)).wait();
      const own = await new TestCollectible__factory(carol).deploy("Carol Item", "CITEM", carol.address);
      await (await own.grantRole(MINTER_ROLE, f.exchangeAddress)).wait();
      const ownAddress = await own.getAddress();
      // ...but opted in for GOLD only (the merchant's opt-ins for REWARD and the collection are the merchant's).
      await (await exchange.connect(carol).setClaimSource(f.goldAddress, true)).wait();
      const aliceGold = await world.token.balanceOf(alice.address);
      const fromCarol = { receiver: carol.address };

      for (const item of [erc20Item(f.rewardAddress, 1n), erc721Item(f.collectibleAddress, 3n), mintItem(ownAddress)]) {
        await expect(sendClaim(f, alice, await claimFor(f, alice, [item], fromCarol)))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(carol.address, item.token);
        // After a GOLD item, the whole claim still fails: nothing is delivered.
        await expect(sendClaim(f, alice, await claimFor(f, alice, [erc20Item(f.goldAddress, 5n), item], fromCarol)))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(carol.address, item.token);
        expect(await exchange.isClaimSource(carol.address, item.token)).to.equal(false);
      }
      expect(await world.token.balanceOf(alice.address)).to.equal(aliceGold);
      expect(await reward.balanceOf(alice.address)).to.equal(0n);
      expect(await collectible.ownerOf(3n)).to.equal(carol.address);
      expect(await own.balanceOf(alice.address)).to.equal(0n);

      const gold = await claimFor(f, alice, [erc20Item(f.goldAddress, 5n)], fromCarol);
      const tx = sendClaim(f, alice, gold);
      await expect(tx).to.changeTokenBalances(world.token, [alice, carol], [5n, -5n]);
      await expect(tx).to.emit(exchange, "Claimed").withArgs(alice.address, gold.params.nonce, 1n, carol.address);
    });

    describe("minting needs the source to be a minter of the collection", () => {
      /** Merchant B (bob) runs its own collection, lets the Exchange mint on it and opted in for it. */
      async function twoMerchantsFixture() {
        const f = await claimFixture();
        const merchantB = f.bob;
        const collectionB = await new TestCollectible__factory(merchantB).deploy("B Item", "BITEM", merchantB.address);
        const collectionBAddress = await collectionB.getAddress();
        await (await collectionB.grantRole(MINTER_ROLE, f.exchangeAddress)).wait();
        await (await f.exchange.connect(merchantB).setClaimSource(collectionBAddress, true)).wait();
        return { ...f, merchantB, collectionB, collectionBAddress };
      }

      it("rejects merchant A minting merchant B's collection, even opted in for it (ClaimSourceNotApproved)", async () => {
        const f = await loadFixture(twoMerchantsFixture);
        const { alice, merchant, exchange, collectionB } = f;
        await (await exchange.connect(merchant).setClaimSource(f.collectionBAddress, true)).wait();
        expect(await exchange.isClaimSource(merchant.address, f.collectionBAddress)).to.equal(true);
        expect(await collectionB.hasRole(MINTER_ROLE, merchant.address)).to.equal(false);
        expect(await collectionB.hasRole(MINTER_ROLE, f.exchangeAddress)).to.equal(true); // only the check stops it

        await expect(sendClaim(f, alice, await claimFor(f, alice, [mintItem(f.collectionBAddress)])))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.collectionBAddress);
        // Bundled after A's own items, nothing at all is delivered.
        const bundled = await claimFor(f, alice, [
          erc20Item(f.rewardAddress, REWARD_AMOUNT),
          mintItem(f.collectibleAddress),
          mintItem(f.collectionBAddress),
        ]);
        await expect(sendClaim(f, alice, bundled))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.collectionBAddress);
        expect(await exchange.isNonceUsed(bundled.params.nonce)).to.equal(false);
        expect(await f.reward.balanceOf(alice.address)).to.equal(0n);
        expect(await f.collectible.balanceOf(alice.address)).to.equal(0n);
        expect(await collectionB.balanceOf(alice.address)).to.equal(0n);
        await expect(collectionB.ownerOf(1n)).to.be.revertedWithCustomError(collectionB, "ERC721NonexistentToken").withArgs(1n);
      });

      it("mints when the source is a minter and opted in, and for A once B makes A a minter", async () => {
        const f = await loadFixture(twoMerchantsFixture);
        const { alice, merchant, merchantB, exchange, collectionB } = f;
        const byB = await claimFor(f, alice, [mintItem(f.collectionBAddress)], { receiver: merchantB.address, externalId: 3n });
        const tx = sendClaim(f, alice, byB);
        await expect(tx).to.emit(collectionB, "Transfer").withArgs(ZeroAddress, alice.address, 1n);
        await expect(tx).to.emit(exchange, "Claimed").withArgs(alice.address, byB.params.nonce, 3n, merchantB.address);
        expect(await collectionB.ownerOf(1n)).to.equal(alice.address);

        // A minter that did not opt in cannot be minted from: both conditions are needed.
        await (await collectionB.grantRole(MINTER_ROLE, merchant.address)).wait();
        const byA = await claimFor(f, alice, [mintItem(f.collectionBAddress)]);
        await expect(sendClaim(f, alice, byA))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.collectionBAddress);
        await (await exchange.connect(merchant).setClaimSource(f.collectionBAddress, true)).wait();
        await expect(sendClaim(f, alice, byA))
          .to.emit(collectionB, "Transfer")
          .withArgs(ZeroAddress, alice.address, 2n);
        expect(await collectionB.balanceOf(alice.address)).to.equal(2n);
      });

      it("stops minting when the source loses the minter role, while ids it holds need only the opt-in", async () => {
        const f = await loadFixture(twoMerchantsFixture);
        const { alice, merchant, exchange, collectible, collectionB } = f;
        // A renounces minting its own collection: the Exchange, still a minter, must not mint for A any more.
        await (await collectible.renounceRole(MINTER_ROLE, merchant.address)).wait();
        expect(await collectible.hasRole(MINTER_ROLE, f.exchangeAddress)).to.equal(true);
        await expect(sendClaim(f, alice, await claimFor(f, alice, [mintItem(f.collectibleAddress)])))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.collectibleAddress);
        await expect(sendClaim(f, alice, await claimFor(f, alice, [erc721Item(f.collectibleAddress, 2n)])))
          .to.emit(collectible, "Transfer")
          .withArgs(merchant.address, alice.address, 2n);

        // A holds an id of B's collection (B minted it to A): A may hand it out once opted in, yet still not mint.
        await (await collectionB.connect(f.merchantB).mint(merchant.address)).wait(); // id 1
        await (await collectionB.connect(merchant).approve(f.exchangeAddress, 1n)).wait();
        await (await exchange.connect(merchant).setClaimSource(f.collectionBAddress, true)).wait();
        await expect(sendClaim(f, alice, await claimFor(f, alice, [erc721Item(f.collectionBAddress, 1n)])))
          .to.emit(collectionB, "Transfer")
          .withArgs(merchant.address, alice.address, 1n);
        await expect(sendClaim(f, alice, await claimFor(f, alice, [mintItem(f.collectionBAddress)])))
          .to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved")
          .withArgs(merchant.address, f.collectionBAddress);
        expect(await collectionB.balanceOf(alice.address)).to.equal(1n);
      });
    });

    it("emits Claimed exactly once per successful claim, after its items, and never for a rejected one", async () => {
      const f = await loadFixture(claimFixture);
      const { alice, bob, carol, merchant, exchange } = f;
      const fromBlock = (await ethers.provider.getBlockNumber()) + 1;
      const first = await claimFor(f, alice, [erc20Item(f.rewardAddress, 1n), mintItem(f.collectibleAddress)], { externalId: 7n });
      const second = await claimFor(f, bob, [erc721Item(f.collectibleAddress, 2n)], { externalId: 8n });
      const rejected = await claimFor(f, carol, [erc20Item(f.goldAddress, 1n)], { receiver: alice.address, externalId: 9n });

      for (const [claimer, voucher] of [
        [alice, first],
        [bob, second],
      ] as const) {
        const receipt = (await (await sendClaim(f, claimer, voucher)).wait())!;
        const events = exchangeEvents(f, receipt.logs);
        expect(events.map((event) => event.name)).to.deep.equal(["Claimed"]);
        expect(events[0]!.args.toArray()).to.deep.equal([claimer.address, voucher.params.nonce, voucher.params.externalId, merchant.address]);
        // Emitted last, once every item was delivered.
        expect(receipt.logs).to.have.length(voucher.items.length + 1);
        expect(receipt.logs[voucher.items.length]!.address).to.equal(f.exchangeAddress);
      }
      await expect(sendClaim(f, carol, rejected)).to.be.revertedWithCustomError(exchange, "ClaimSourceNotApproved");

      const claimed = await exchange.queryFilter(exchange.filters.Claimed(), fromBlock);
      expect(claimed.map((event) => [event.args.account, event.args.nonce, event.args.externalId])).to.deep.equal([
        [alice.address, first.params.nonce, 7n],
        [bob.address, second.params.nonce, 8n],
      ]);
    });
  });

  describe("pause", () => {
    it("rejects claims while the Exchange is paused, and accepts them again after unpause", async () => {
      const f = await loadFixture(claimFixture);
      const voucher = await claimFor(f, f.alice, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      await (await f.exchange.connect(f.world.admin).pause()).wait();
      await expect(sendClaim(f, f.alice, voucher)).to.be.revertedWithCustomError(f.exchange, "EnforcedPause");
      expect(await f.exchange.isNonceUsed(voucher.params.nonce)).to.equal(false);
      await (await f.exchange.connect(f.world.admin).unpause()).wait();
      await expect(sendClaim(f, f.alice, voucher)).to.changeTokenBalance(f.reward, f.alice, REWARD_AMOUNT);
    });
  });

  describe("reentrancy through a malicious ERC20 claim item", () => {
    /**
     * The merchant grants an amount of a token that calls back into the Exchange from `transferFrom`, with a claim
     * (or a purchase) the platform validly signed for the token contract itself.
     */
    async function reentrantClaimFixture() {
      const f = await claimFixture();
      const evil = await new ReentrantToken__factory(f.world.admin).deploy();
      const evilAddress = await evil.getAddress();
      await (await evil.mint(f.merchant.address, REWARD_SUPPLY)).wait();
      await (await evil.connect(f.merchant).approve(f.exchangeAddress, MaxUint256)).wait();
      await (await f.exchange.connect(f.merchant).setClaimSource(evilAddress, true)).wait();
      const inner = await claimFor(f, evilAddress, [erc20Item(f.rewardAddress, REWARD_AMOUNT)]);
      const innerPayload = f.exchange.interface.encodeFunctionData("claim", [inner.params, inner.items, inner.signature]);
      const outer = await claimFor(f, f.alice, [erc20Item(evilAddress, REWARD_AMOUNT)]);
      return { ...f, evil, evilAddress, inner, innerPayload, outer };
    }

    it("makes the whole claim fail when the token re-enters claim from transferFrom", async () => {
      const f = await loadFixture(reentrantClaimFixture);
      await (await f.evil.arm(f.exchangeAddress, f.innerPayload, 1 /* TransferFrom */, false)).wait();
      await expect(sendClaim(f, f.alice, f.outer)).to.be.revertedWithCustomError(f.exchange, "ReentrancyGuardReentrantCall");
      expect(await f.evil.balanceOf(f.alice.address)).to.equal(0n);
      expect(await f.reward.balanceOf(f.evilAddress)).to.equal(0n);
      expect(await f.exchange.isNonceUsed(f.outer.params.nonce)).to.equal(false);
    });

    it("delivers the outer claim exactly once and never the nested one when the token swallows the failure", async () => {
      const f = await loadFixture(reentrantClaimFixture);
      await (await f.evil.arm(f.exchangeAddress, f.innerPayload, 1 /* TransferFrom */, true)).wait();
      await expect(sendClaim(f, f.alice, f.outer)).to.changeTokenBalances(f.evil, [f.alice, f.merchant], [REWARD_AMOUNT, -REWARD_AMOUNT]);
      expect(await f.evil.attacked()).to.equal(true);
      expect(await f.evil.reentrySucceeded()).to.equal(false);
      expect(await f.evil.reentryRevertData()).to.equal(f.exchange.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await f.reward.balanceOf(f.evilAddress)).to.equal(0n);
      expect(await f.exchange.isNonceUsed(f.inner.params.nonce)).to.equal(false);
    });

    it("also blocks a purchase nested in a claim (one guard for both entry points)", async () => {
      const f = await loadFixture(reentrantClaimFixture);
      // The token can pay for a ticket of its own, so only the guard can stop the nested purchase.
      const evilSigner = await impersonate(f.evilAddress);
      await (await f.world.token.connect(f.world.admin).mint(f.evilAddress, parseUnits("100", 18))).wait();
      await (await f.world.token.connect(evilSigner).approve(f.exchangeAddress, MaxUint256)).wait();
      const nested = await voucherFor(f.world, evilSigner, f.price);
      const payload = f.exchange.interface.encodeFunctionData("purchaseRaffle", [nested.params, nested.item, nested.price, nested.signature]);
      await (await f.evil.arm(f.exchangeAddress, payload, 1 /* TransferFrom */, true)).wait();

      await expect(sendClaim(f, f.alice, f.outer)).to.changeTokenBalance(f.evil, f.alice, REWARD_AMOUNT);
      expect(await f.evil.reentrySucceeded()).to.equal(false);
      expect(await f.evil.reentryRevertData()).to.equal(f.exchange.interface.getError("ReentrancyGuardReentrantCall")!.selector);
      expect(await f.world.ticket.balanceOf(f.evilAddress)).to.equal(0n);
      expect(await f.exchange.isNonceUsed(nested.params.nonce)).to.equal(false);
    });

    it("would let the token claim with that same voucher outside the nesting (the guard is what stops it)", async () => {
      const f = await loadFixture(reentrantClaimFixture);
      const evilSigner = await impersonate(f.evilAddress);
      await expect(sendClaim(f, evilSigner, f.inner)).to.changeTokenBalance(f.reward, f.evilAddress, REWARD_AMOUNT);
    });
  });
});
