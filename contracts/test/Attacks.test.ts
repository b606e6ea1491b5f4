import { expect } from "chai";
import { ethers, network } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import { Signature, ZeroAddress } from "ethers";

import { LookAlikeFactory__factory, PURCHASE_TYPES, Raffle__factory, ReentrantToken__factory, exchangeDomain, type AssetStruct } from "@raffle/chain";
import { ONE_DAY, erc20Price, listPriceToken, ticketAsset } from "./support/fixtures";
import {
  approveExchange,
  deployWorld,
  endRound,
  purchase,
  startErc20Round,
  startNativeRound,
  startRound,
  voucherFor,
  type RaffleWorld,
} from "./support/scenario";
import { latestTimestamp, type Voucher } from "./support/vouchers";

/**
 * The on-chain attack catalogue of the reliability suite: each attack must fail with the error that names it.
 * The summary table printed at the end is what the README's Reliability section records.
 */
const report: Array<{ attack: string; refusedWith: string }> = [];

async function refused(attack: string, action: Promise<unknown>, contract: { interface: { getError(name: string): unknown } }, error: string) {
  await expect(action).to.be.revertedWithCustomError(contract as never, error);
  report.push({ attack, refusedWith: error });
}

async function world(): Promise<RaffleWorld & { price: AssetStruct; native: RaffleWorld & { price: AssetStruct } }> {
  const erc20World = await deployWorld();
  const price = await startErc20Round(erc20World, 100n);
  await approveExchange(erc20World, erc20World.players.slice(0, 4));
  const nativeWorld = await deployWorld();
  const nativePrice = await startNativeRound(nativeWorld, 2n);
  return { ...erc20World, price, native: { ...nativeWorld, price: nativePrice } };
}

/** Re-signs a voucher's content under another EIP-712 domain. */
async function signUnder(w: RaffleWorld, voucher: Voucher, account: string, chainId: bigint, verifyingContract: string): Promise<Voucher> {
  const value = { account, params: voucher.params, item: voucher.item, price: voucher.price };
  const signature = await w.signer.signTypedData(exchangeDomain(chainId, verifyingContract), PURCHASE_TYPES, value);
  return { ...voucher, signature };
}

describe("attacks on the purchase path (reliability catalogue)", () => {
  after(() => {
    console.table(report);
    expect(report.length).to.be.at.least(14);
  });

  it("voucher replay", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price);
    await (await purchase(w, w.players[0], voucher)).wait();
    await refused("voucher replay", purchase(w, w.players[0], voucher), w.exchange, "NonceAlreadyUsed");
  });

  it("a voucher used by another buyer", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price);
    await refused("voucher used by another buyer", purchase(w, w.players[1], voucher), w.exchange, "InvalidSigner");
  });

  it("tampered item, price, params and referrer", async () => {
    const w = await loadFixture(world);
    const buyer = w.players[0];
    const voucher = await voucherFor(w, buyer, w.price);
    const cheaper = { ...voucher, price: { ...voucher.price, amount: BigInt(voucher.price.amount) - 1n } };
    await refused("tampered price", purchase(w, buyer, cheaper), w.exchange, "InvalidSigner");
    const otherItem = { ...voucher, item: { ...voucher.item, amount: 2n } };
    await refused("tampered item", purchase(w, buyer, otherItem), w.exchange, "InvalidSigner");
    const otherRound = { ...voucher, params: { ...voucher.params, externalId: BigInt(voucher.params.externalId) + 1n } };
    await refused("tampered params (externalId)", purchase(w, buyer, otherRound), w.exchange, "InvalidSigner");
    const later = { ...voucher, params: { ...voucher.params, expiresAt: BigInt(voucher.params.expiresAt) + 3_600n } };
    await refused("tampered params (expiresAt)", purchase(w, buyer, later), w.exchange, "InvalidSigner");
    const referred = { ...voucher, params: { ...voucher.params, referrer: w.players[3].address } };
    await refused("tampered referrer", purchase(w, buyer, referred), w.exchange, "InvalidSigner");
  });

  it("a look-alike raffle: the genuine bytecode and the real Exchange, answered by an attacker's factory", async () => {
    const w = await loadFixture(world);
    const attacker = w.players[5];
    const fakeFactory = await new LookAlikeFactory__factory(attacker).deploy();
    const lookAlike = await new Raffle__factory(attacker).deploy({
      admin: attacker.address,
      factory: await fakeFactory.getAddress(),
      exchange: await w.exchange.getAddress(),
      ticketDeployer: await w.factory.ticketDeployer(),
      commission: 0n,
      timeLagBeforeRelease: ONE_DAY,
      ticketName: "Raffle Ticket",
      ticketSymbol: "TICKET",
    });
    const address = await lookAlike.getAddress();
    const item = ticketAsset(await lookAlike.ticketContract());
    // Its own factory lets it sell at the genuine raffle's price; even a voucher the platform's key signed for it
    // (a fooled or compromised API) buys nothing.
    await (await lookAlike.startRound(item, w.price, 0n)).wait();
    const buyer = w.players[0];
    const voucher = await voucherFor({ ...w, raffle: lookAlike, address, item }, buyer, w.price);
    await expect(purchase(w, buyer, voucher))
      .to.be.revertedWithCustomError(w.exchange, "RaffleNotListed")
      .withArgs(address);
    report.push({ attack: "look-alike raffle", refusedWith: "RaffleNotListed" });
    expect(await w.factory.merchantOf(address)).to.equal(ZeroAddress);
    expect(await w.exchange.isListedRaffle(address)).to.equal(false);
    expect(await w.exchange.isListedRaffle(w.address)).to.equal(true);
    expect(await w.token.balanceOf(address)).to.equal(0n);
  });

  it("an expired voucher", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price, { expiresAt: (await latestTimestamp()) + 5n });
    await network.provider.send("evm_increaseTime", [10]);
    await refused("expired voucher", purchase(w, w.players[0], voucher), w.exchange, "SignatureExpired");
  });

  it("a wrong chain id or verifying contract", async () => {
    const w = await loadFixture(world);
    const buyer = w.players[0];
    const voucher = await voucherFor(w, buyer, w.price);
    const { chainId } = await ethers.provider.getNetwork();
    const otherChain = await signUnder(w, voucher, buyer.address, 1n, await w.exchange.getAddress());
    await refused("wrong chain id", purchase(w, buyer, otherChain), w.exchange, "InvalidSigner");
    const otherContract = await signUnder(w, voucher, buyer.address, chainId, w.address);
    await refused("wrong verifying contract", purchase(w, buyer, otherContract), w.exchange, "InvalidSigner");
  });

  it("a signature from a key without the signer role", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price, { signer: w.players[2] });
    await refused("signer without SIGNER_ROLE", purchase(w, w.players[0], voucher), w.exchange, "InvalidSigner");
  });

  it("a malleable (high-s) signature", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price);
    const signature = Signature.from(voucher.signature);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS = `0x${signature.r.slice(2)}${(n - BigInt(signature.s)).toString(16).padStart(64, "0")}${(signature.v === 27 ? 28 : 27).toString(16)}`;
    await refused("malleable high-s signature", purchase(w, w.players[0], { ...voucher, signature: highS }), w.exchange, "InvalidSignature");
  });

  it("reentrancy through a malicious ERC20 price token", async () => {
    const w = await loadFixture(world);
    const token = await new ReentrantToken__factory(w.admin).deploy();
    await listPriceToken(w, token);
    const price = erc20Price(await token.getAddress(), 10n);
    await endRound(w);
    await startRound(w, price, 0n);
    const buyer = w.players[0];
    await (await token.mint(buyer.address, 1_000n)).wait();
    await (await token.connect(buyer).approve(await w.exchange.getAddress(), 1_000n)).wait();
    // The token re-enters purchaseRaffle with a valid voucher of its own while the buyer's purchase pays.
    await (await token.mint(await token.getAddress(), 1_000n)).wait();
    await (await token.approveFromSelf(await w.exchange.getAddress(), 1_000n)).wait();
    const inner = await voucherFor(w, { address: await token.getAddress() } as never, price);
    const payload = w.exchange.interface.encodeFunctionData("purchaseRaffle", [inner.params, inner.item, inner.price, inner.signature]);
    await (await token.arm(await w.exchange.getAddress(), payload, 1, false)).wait();
    const outer = await voucherFor(w, buyer, price);
    await refused("reentrancy through a malicious ERC20", purchase(w, buyer, outer), w.exchange, "ReentrancyGuardReentrantCall");
  });

  it("overpaying or underpaying the native value", async () => {
    const w = await loadFixture(world);
    const { native } = w;
    const buyer = native.players[0];
    const voucher = await voucherFor(native, buyer, native.price);
    await refused("native underpay", purchase(native, buyer, voucher, BigInt(native.price.amount) - 1n), native.exchange, "WrongPaymentValue");
    await refused("native overpay", purchase(native, buyer, voucher, BigInt(native.price.amount) + 1n), native.exchange, "WrongPaymentValue");
  });

  it("a purchase after endRound", async () => {
    const w = await loadFixture(world);
    const voucher = await voucherFor(w, w.players[0], w.price);
    await endRound(w);
    await refused("purchase after endRound", purchase(w, w.players[0], voucher), w.raffle, "NoActiveRound");
  });

  it("exceeding maxTicket within one block", async () => {
    const w = await loadFixture(world);
    const { native } = w;
    const buyers = native.players.slice(0, 3);
    const vouchers = await Promise.all(buyers.map((buyer) => voucherFor(native, buyer, native.price)));
    await network.provider.send("evm_setAutomine", [false]);
    try {
      const sent = await Promise.all(
        buyers.map((buyer, i) =>
          native.exchange.connect(buyer).purchaseRaffle(vouchers[i].params, vouchers[i].item, vouchers[i].price, vouchers[i].signature, {
            value: native.price.amount,
            gasLimit: 400_000n,
          }),
        ),
      );
      await network.provider.send("evm_mine", []);
      const statuses = await Promise.all(sent.map((tx) => ethers.provider.getTransactionReceipt(tx.hash).then((r) => r!.status)));
      expect(statuses.filter((status) => status === 1)).to.have.length(2);
      expect(statuses.filter((status) => status === 0)).to.have.length(1);
      const receipts = await Promise.all(sent.map((tx) => ethers.provider.getTransactionReceipt(tx.hash)));
      expect(new Set(receipts.map((receipt) => receipt!.blockNumber)).size).to.equal(1);
    } finally {
      await network.provider.send("evm_setAutomine", [true]);
    }
    expect((await native.raffle.getRound(1n)).ticketCount).to.equal(2n);
    const extra = await voucherFor(native, native.players[3], native.price);
    await refused("exceeding maxTicket within one block", purchase(native, native.players[3], extra), native.raffle, "RoundFull");
  });
});
