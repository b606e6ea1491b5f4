import { Wallet, ZeroAddress, type Signer } from "ethers";
import { Exchange__factory, LOCAL_DEV_KEYS, Raffle__factory, buildPurchaseArgs, type PurchaseArgs } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectRevert } from "./support/revert";

const exchangeErrors = Exchange__factory.createInterface();

/** A voucher from the API is good for its account, once, until it expires: the Exchange enforces all three. */
describe("on-chain rejection of vouchers signed by the API", () => {
  let harness: ApiHarness;
  let key: string;
  let raffle: TestRaffle;
  let contractId: number;

  beforeAll(async () => {
    harness = await startApiHarness("onchain_rejection");
    raffle = await deployTestRaffle(harness.world, "NATIVE");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  /** Steps 2 and 3 of the purchase flow for `buyer`: the exact purchaseRaffle arguments the API hands out. */
  async function voucherFor(buyer: Signer): Promise<PurchaseArgs> {
    const round = (await harness.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200)).body;
    const signed = (
      await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send({ account: await buyer.getAddress(), referrer: ZeroAddress, contractId })
        .expect(200)
    ).body;
    return buildPurchaseArgs(round, signed);
  }

  function purchase(buyer: Signer, args: PurchaseArgs) {
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, buyer);
    return exchange.purchaseRaffle(args.params, args.item, args.price, args.signature, { value: args.value });
  }

  async function ticketsSold(): Promise<bigint> {
    const raffleContract = Raffle__factory.connect(raffle.raffle, harness.node.provider);
    return (await raffleContract.getRound((await raffleContract.getCurrentRoundInfo()).roundId)).ticketCount;
  }

  it("rejects a voucher sent by another account (InvalidSigner) and still honours it for its own account", async () => {
    const [alice, bob] = harness.world.players;
    const args = await voucherFor(alice);
    const before = await ticketsSold();

    const [recovered] = await expectRevert(purchase(bob, args), exchangeErrors, "InvalidSigner");
    // Bob's address went into the digest instead of Alice's, so the recovered key is nobody's signer.
    expect(recovered).not.toBe(new Wallet(LOCAL_DEV_KEYS.voucherSigner).address);
    expect(await ticketsSold()).toBe(before);

    await (await purchase(alice, args)).wait();
    expect(await ticketsSold()).toBe(before + 1n);
  });

  it("rejects a replayed voucher (NonceAlreadyUsed)", async () => {
    const [, , carol] = harness.world.players;
    const args = await voucherFor(carol);
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, harness.node.provider);
    expect(await exchange.isNonceUsed(args.params.nonce)).toBe(false);
    await (await purchase(carol, args)).wait();
    expect(await exchange.isNonceUsed(args.params.nonce)).toBe(true);
    const sold = await ticketsSold();

    const [nonce] = await expectRevert(purchase(carol, args), exchangeErrors, "NonceAlreadyUsed");
    expect(nonce).toBe(args.params.nonce);
    expect(await ticketsSold()).toBe(sold);
  });

  // Last in this file: it moves the chain's clock past the TTL, which would expire any voucher signed afterwards.
  it("rejects a voucher after its expiry (SignatureExpired)", async () => {
    const [, , , dave] = harness.world.players;
    const args = await voucherFor(dave);
    const latest = await harness.node.provider.getBlock("latest");
    expect(Number(args.params.expiresAt) - latest!.timestamp).toBeGreaterThan(harness.config.signatureTtlSeconds - 30);
    await harness.node.provider.send("evm_increaseTime", [Number(args.params.expiresAt) - latest!.timestamp + 1]);
    await harness.node.provider.send("evm_mine", []);
    const sold = await ticketsSold();

    const [expiresAt] = await expectRevert(purchase(dave, args), exchangeErrors, "SignatureExpired");
    expect(expiresAt).toBe(args.params.expiresAt);
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, harness.node.provider);
    expect(await exchange.isNonceUsed(args.params.nonce)).toBe(false);
    expect(await ticketsSold()).toBe(sold);
  });
});
