import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import { MaxUint256, TypedDataEncoder, ZeroAddress, recoverAddress } from "ethers";

import {
  NonceSequence,
  PURCHASE_TYPES,
  RAFFLE_PURCHASE_EXTRA,
  buildPurchaseArgs,
  exchangeDomain,
  tokenTypeName,
  type RoundForPurchase,
  type TicketSignatureForPurchase,
} from "@raffle/chain";

import { erc20Price, nativePrice } from "./support/fixtures";
import { latestTimestamp } from "./support/vouchers";
import { deployWorld, plainAsset, startErc20Round, startRound, type RaffleWorld } from "./support/scenario";

/** Above 2^53, so any trip through a JS number would lose it. */
const BIG_ERC20_PRICE = 123_456_789_012_345_678_901n;
const ROUND_RESOURCE_ID = 4_242;
const nonces = new NonceSequence();

function contractResource(id: number, address: string, contractType: string | null) {
  const now = new Date().toISOString();
  return {
    id,
    createdAt: now,
    updatedAt: now,
    address,
    chainId: 31337,
    title: "",
    description: JSON.stringify({ blocks: [], entityMap: {} }),
    merchantId: 1,
    imageUrl: "https://example.test/image.png",
    name: "",
    symbol: "",
    decimals: contractType === "ERC20" ? 18 : 0,
    fromBlock: 0,
    royalty: 0,
    baseTokenURI: "",
    parameters: {},
    isPaused: false,
    contractStatus: "ACTIVE",
    contractType,
    contractFeatures: [],
    contractModule: "RAFFLE",
    contractSecurity: "ACCESS_CONTROL",
  };
}

/** The current round as `GET /rounds/current` returns it (spec 2.3), built from the chain like the API's projection. */
async function roundResource(world: RaffleWorld): Promise<RoundForPurchase & { roundId: string }> {
  const info = await world.raffle.getCurrentRoundInfo();
  const price = info.acceptedAsset;
  const tokenType = tokenTypeName(price.tokenType);
  const now = new Date().toISOString();
  const resource = {
    id: ROUND_RESOURCE_ID,
    createdAt: now,
    updatedAt: now,
    number: null,
    roundId: info.roundId.toString(),
    contractId: 1,
    ticketContractId: 2,
    priceId: 3,
    maxTickets: Number(info.maxTicket),
    startTimestamp: new Date(Number(info.startTimestamp) * 1000).toISOString(),
    endTimestamp: null,
    contract: contractResource(1, world.address, null),
    ticketContract: contractResource(2, world.ticketAddress, "ERC721"),
    price: {
      id: 3,
      components: [
        {
          id: 1,
          tokenType,
          contractId: 4,
          templateId: 5,
          tokenId: null,
          amount: price.amount.toString(),
          contract: contractResource(4, price.token, tokenType === "NATIVE" ? null : tokenType),
          template: { id: 5, tokens: [{ id: 6, tokenId: price.tokenId.toString() }] },
        },
      ],
    },
    ticketCount: 0,
  };
  return resource;
}

/**
 * What `POST /raffle/ticket/sign` does: sign the voucher for `account` with the libs/chain EIP-712 types, from the
 * chain's view of the round (not from the client's arguments), and answer `{ nonce, signature, expiresAt }`.
 */
async function signTicket(world: RaffleWorld, account: string, referrer: string = ZeroAddress): Promise<TicketSignatureForPurchase> {
  const info = await world.raffle.getCurrentRoundInfo();
  const nonce = nonces.take();
  const expiresAt = (await latestTimestamp()) + 600n;
  const { chainId } = await ethers.provider.getNetwork();
  const value = {
    account,
    params: {
      externalId: BigInt(ROUND_RESOURCE_ID),
      expiresAt,
      nonce,
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: world.address,
      referrer,
    },
    item: plainAsset(info.ticketAsset),
    price: plainAsset(info.acceptedAsset),
  };
  const signature = await world.signer.signTypedData(exchangeDomain(chainId, await world.exchange.getAddress()), PURCHASE_TYPES, value);
  return { nonce, signature, expiresAt: Number(expiresAt) };
}

/** What a client (libs/sdk buyTicket) does with the two responses: build the arguments and send the purchase. */
async function submit(
  world: RaffleWorld,
  buyer: HardhatEthersSigner,
  round: RoundForPurchase,
  signed: TicketSignatureForPurchase,
  referrer?: string,
) {
  const args = buildPurchaseArgs(round, signed, referrer);
  return {
    args,
    tx: world.exchange.connect(buyer).purchaseRaffle(args.params, args.item, args.price, args.signature, { value: args.value }),
  };
}

async function erc20Fixture() {
  const world = await deployWorld();
  await startErc20Round(world, 100n, BIG_ERC20_PRICE);
  const [alice, bob] = world.players;
  await (await world.token.connect(alice).approve(await world.exchange.getAddress(), MaxUint256)).wait();
  return { world, alice, bob };
}

async function nativeFixture() {
  const world = await deployWorld();
  const price = await startRound(world, nativePrice(25_000_000_000_000_001n));
  const [alice, bob] = world.players;
  return { world, alice, bob, amount: BigInt(price.amount) };
}

describe("Voucher end to end: libs/chain signing and buildPurchaseArgs against the deployed Exchange", () => {
  it("accepts an ERC20 purchase built from a Round resource and a sign response", async () => {
    const { world, alice } = await loadFixture(erc20Fixture);
    const round = await roundResource(world);
    const signed = await signTicket(world, alice.address);
    const { args, tx } = await submit(world, alice, round, signed);

    expect(args.value).to.equal(0n);
    expect(args.price.amount).to.equal(BIG_ERC20_PRICE);
    await expect(tx).to.changeTokenBalances(world.token, [alice, world.raffle], [-BIG_ERC20_PRICE, BIG_ERC20_PRICE]);
    await expect(tx).to.emit(world.raffle, "TicketsPurchased").withArgs(1n, alice.address, 1n, 1n, BIG_ERC20_PRICE, BigInt(ROUND_RESOURCE_ID));
    expect(round.roundId).to.equal("1");
    expect(await world.exchange.isNonceUsed(signed.nonce)).to.equal(true);
    expect(await world.ticket.ownerOf(1n)).to.equal(alice.address);
  });

  it("accepts a NATIVE purchase whose value comes from the price components", async () => {
    const { world, alice, amount } = await loadFixture(nativeFixture);
    const round = await roundResource(world);
    expect(round.price.components[0].tokenType).to.equal("NATIVE");
    const signed = await signTicket(world, alice.address);
    const { args, tx } = await submit(world, alice, round, signed);

    expect(args.value).to.equal(amount);
    expect(args.price.token).to.equal(ZeroAddress);
    await expect(tx).to.changeEtherBalances([alice, world.raffle], [-amount, amount]);
    await expect(tx).to.emit(world.raffle, "TicketsPurchased");
    expect(await world.ticket.ownerOf(1n)).to.equal(alice.address);
  });

  it("signs exactly the digest the Exchange checks (same domain separator, same type hash)", async () => {
    const { world, alice } = await loadFixture(erc20Fixture);
    const round = await roundResource(world);
    const signed = await signTicket(world, alice.address);
    const args = buildPurchaseArgs(round, signed);
    const { chainId } = await ethers.provider.getNetwork();
    const domain = exchangeDomain(chainId, await world.exchange.getAddress());

    expect(await world.exchange.domainSeparator()).to.equal(TypedDataEncoder.hashDomain(domain));
    const digest = TypedDataEncoder.hash(domain, PURCHASE_TYPES, { account: alice.address, ...args });
    expect(recoverAddress(digest, signed.signature)).to.equal(world.signer.address);
    await expect(world.exchange.connect(alice).purchaseRaffle(args.params, args.item, args.price, args.signature)).to.emit(
      world.raffle,
      "TicketsPurchased",
    );
  });

  it("carries a referrer named in the sign request through to the Referral event", async () => {
    const { world, alice, bob } = await loadFixture(erc20Fixture);
    const round = await roundResource(world);
    const signed = await signTicket(world, alice.address, bob.address);
    const { tx } = await submit(world, alice, round, signed, bob.address);
    await expect(tx)
      .to.emit(world.exchange, "Referral")
      .withArgs(bob.address, alice.address, world.address, [1n, await world.token.getAddress(), 0n, BIG_ERC20_PRICE]);
  });

  it("fails when the client drops the referrer the voucher was signed with", async () => {
    const { world, alice, bob } = await loadFixture(erc20Fixture);
    const round = await roundResource(world);
    const signed = await signTicket(world, alice.address, bob.address);
    const { tx } = await submit(world, alice, round, signed);
    await expect(tx).to.be.revertedWithCustomError(world.exchange, "InvalidSigner");
  });

  it("fails for a buyer other than the account the API signed for", async () => {
    const { world, alice, bob } = await loadFixture(nativeFixture);
    const round = await roundResource(world);
    const signed = await signTicket(world, alice.address);
    const { tx } = await submit(world, bob, round, signed);
    await expect(tx).to.be.revertedWithCustomError(world.exchange, "InvalidSigner");
  });

  it("fails with PriceMismatch when the round's price changed after the voucher was signed", async () => {
    const { world, alice } = await loadFixture(erc20Fixture);
    const staleRound = await roundResource(world);
    const signed = await signTicket(world, alice.address);
    await (await world.raffle.endRound()).wait();
    await startRound(world, erc20Price(await world.token.getAddress(), BIG_ERC20_PRICE + 1n));
    const { tx } = await submit(world, alice, staleRound, signed);
    await expect(tx).to.be.revertedWithCustomError(world.raffle, "PriceMismatch");
  });
});
