import { Wallet, ZeroAddress, id, type Signer } from "ethers";
import { Exchange__factory, LOCAL_DEV_KEYS, buildPurchaseArgs } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { ServedChains } from "../../api/src/services/served-chains";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";

const SIGNER_ROLE = id("SIGNER_ROLE");

/**
 * Issue 31, item 5: with SIGNER_NEXT_PRIVATE_KEY beside the current key, the API signs with whichever holds SIGNER_ROLE
 * (the next key as soon as it does), /ready never fails during the rotation, and every voucher it handed out is
 * accepted by the Exchange: those of the old key until it is revoked, the next key's afterwards.
 */
describe("signer rotation without downtime: the API signs with the key that holds SIGNER_ROLE", () => {
  const current = new Wallet(LOCAL_DEV_KEYS.voucherSigner).address;
  const next = Wallet.createRandom();
  let harness: ApiHarness;
  let raffle: TestRaffle;
  let key: string;
  let contractId: number;

  beforeAll(async () => {
    harness = await startApiHarness("signer_rotation", { chain: { nextSignerPrivateKey: next.privateKey } });
    raffle = await deployTestRaffle(harness.world, "NATIVE");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    contractId = await indexedRaffleId({ http: harness.http, world: harness.world }, key, raffle.raffle);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });
  const monitor = () => harness.app.get(ServedChains).get(31337).monitor;

  /** A voucher from the API for `buyer`, with the round it was signed for. */
  async function voucher(buyer: Signer) {
    const round = await eventually(async () => (await harness.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200)).body);
    const signed = (
      await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send({ account: await buyer.getAddress(), referrer: ZeroAddress, contractId })
        .expect(200)
    ).body;
    return { buyer, args: buildPurchaseArgs(round, signed) };
  }

  async function buy({ buyer, args }: Awaited<ReturnType<typeof voucher>>): Promise<void> {
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, buyer);
    await (await exchange.purchaseRaffle(args.params, args.item, args.price, args.signature, { value: args.value })).wait();
  }

  async function readySigner(): Promise<{ address: string; status: string }> {
    const answer = await harness.http.get("/ready");
    expect(answer.status).toBe(200);
    return answer.body.chains[0].signer;
  }

  it("signs with the current key until the next one holds the role, then with the next; old vouchers stay good until the revoke", async () => {
    const [alice, bob, carol, dave] = harness.world.players;
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, harness.world.admin);

    // Before the grant: the next key is configured but holds nothing; the current key signs and /ready is fine.
    await eventually(async () => expect(await readySigner()).toEqual({ address: current, status: "authorized" }));
    expect(monitor().activeKey).toBe("current");
    const signedByOld = await voucher(alice);
    await buy(await voucher(bob));

    // Grant: within a chain check, the API signs with the next key; /ready never fails.
    await (await exchange.grantRole(SIGNER_ROLE, next.address)).wait();
    await eventually(async () => expect(await readySigner()).toEqual({ address: next.address, status: "authorized" }));
    expect(monitor().activeKey).toBe("next");
    const signedByNext = await voucher(carol);
    // A voucher the old key signed before the switch is still accepted: the old key still holds the role.
    await buy(signedByOld);
    await buy(signedByNext);

    // Revoke the old key: nothing changes for the API.
    await (await exchange.revokeRole(SIGNER_ROLE, current)).wait();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await readySigner()).toEqual({ address: next.address, status: "authorized" });
    await buy(await voucher(dave));
  }, 120_000);
});
