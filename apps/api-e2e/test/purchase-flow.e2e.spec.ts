import { Contract, ZeroAddress, type Signer } from "ethers";
import { Exchange__factory, Raffle__factory, buildPurchaseArgs } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";

import { eventually } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";

const ERC20_ABI = ["function approve(address spender, uint256 amount) returns (bool)"];

describe("the purchase flow of spec 1, against the API with its indexer", () => {
  let harness: ApiHarness;
  let key: string;
  let erc20: TestRaffle;
  let native: TestRaffle;

  beforeAll(async () => {
    harness = await startApiHarness("purchase_flow");
    erc20 = await deployTestRaffle(harness.world, "ERC20");
    native = await deployTestRaffle(harness.world, "NATIVE");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  /** Steps 1 to 4 exactly as the spec says, for one raffle address. */
  async function buyThroughTheApi(raffleAddress: string, buyer: Signer): Promise<{ ticketCount: number; round: Record<string, unknown> }> {
    // 1. GET /raffle/contracts to find the raffle and its id.
    const contracts = await eventually(async () => {
      const response = await harness.http.get("/raffle/contracts").query({ chainId: 31337, skip: 0, take: 25 }).set(auth()).expect(200);
      const found = response.body.rows.find((row: { address: string }) => row.address === raffleAddress);
      if (!found) throw new Error("raffle not indexed yet");
      return found;
    });
    // 2. GET /rounds/current with that id. The round starts a block after the deployment, so it can be projected
    //    one indexer poll after the contract: wait for it rather than race the indexer.
    const round = await eventually(
      async () => (await harness.http.get("/rounds/current").query({ contractId: contracts.id }).set(auth()).expect(200)).body,
    );
    // 3. POST /raffle/ticket/sign.
    const account = await buyer.getAddress();
    const signed = (
      await harness.http.post("/raffle/ticket/sign").set(auth()).send({ account, referrer: ZeroAddress, contractId: contracts.id }).expect(200)
    ).body;
    // 4. purchaseRaffle with the spec 4.5 mapping.
    const args = buildPurchaseArgs(round, signed);
    expect(signed.value).toBe(args.value.toString());
    expect(signed.params.externalId).toBe(String(round.id));
    if (round.price.components[0].tokenType === "ERC20") {
      const token = new Contract(round.price.components[0].contract.address, ERC20_ABI, buyer);
      await (await token.approve(harness.world.deployment.exchange, args.price.amount)).wait();
    }
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, buyer);
    await (await exchange.purchaseRaffle(args.params, args.item, args.price, args.signature, { value: args.value })).wait();
    return { ticketCount: round.ticketCount, round };
  }

  async function currentTicketCount(contractId: number): Promise<number> {
    return (await harness.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200)).body.ticketCount;
  }

  for (const kind of ["ERC20", "NATIVE"] as const) {
    it(`buys ${kind}-priced tickets and ticketCount rises by one after each purchase`, async () => {
      const raffle = kind === "ERC20" ? erc20 : native;
      const [alice, bob] = harness.world.players;
      const first = await buyThroughTheApi(raffle.raffle, alice);
      const contractId = (first.round.contract as { id: number }).id;
      expect(first.round).toMatchObject({
        roundId: "1",
        endTimestamp: null,
        maxTickets: 100,
        ticketContract: { address: raffle.ticket, contractType: "ERC721" },
        price: { components: [{ tokenType: kind, amount: raffle.price.amount.toString() }] },
      });
      await eventually(async () => expect(await currentTicketCount(contractId)).toBe(first.ticketCount + 1));
      const second = await buyThroughTheApi(raffle.raffle, bob);
      expect(second.ticketCount).toBe(first.ticketCount + 1);
      await eventually(async () => expect(await currentTicketCount(contractId)).toBe(first.ticketCount + 2));
      const onChain = await Raffle__factory.connect(raffle.raffle, harness.node.provider).getRound(1n);
      expect(Number(onChain.ticketCount)).toBe(first.ticketCount + 2);
    });
  }
});
