import { Wallet, ZeroAddress, getAddress, verifyTypedData } from "ethers";
import { LOCAL_DEV_KEYS, PURCHASE_TYPES, RAFFLE_PURCHASE_EXTRA, TokenType, deployMerchantRaffle, exchangeDomain } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { RoundEntity, TicketVoucherEntity } from "@raffle/db";

import { toRoundDto } from "../../api/src/common/dto/round.dto";
import { DATA_SOURCE } from "../../api/src/services/tokens";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem } from "./support/problem";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const integer = () => expect.any(Number);

/** The shape of spec 2.1 shared by every nested contract. */
function contractShape(extra: Record<string, unknown> = {}) {
  return {
    id: integer(),
    createdAt: expect.stringMatching(ISO_UTC),
    updatedAt: expect.stringMatching(ISO_UTC),
    address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    chainId: 31337,
    title: expect.any(String),
    description: expect.any(String),
    merchantId: integer(),
    imageUrl: expect.any(String),
    name: expect.any(String),
    symbol: expect.any(String),
    decimals: integer(),
    fromBlock: integer(),
    royalty: integer(),
    baseTokenURI: expect.any(String),
    parameters: expect.any(Object),
    isPaused: false,
    publicSale: false,
    contractStatus: "ACTIVE",
    contractFeatures: expect.any(Array),
    contractModule: expect.any(String),
    contractSecurity: "ACCESS_CONTROL",
    ...extra,
  };
}

/** The resources of spec 2 as the API serves them: list, round and ticket signature. */
describe("resource shapes of spec 2", () => {
  let harness: ApiHarness;
  let key: string;
  let raffle: TestRaffle;
  let raffleId: number;
  let roundless: { raffle: string; id: number };

  beforeAll(async () => {
    harness = await startApiHarness("resources");
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    raffle = await deployTestRaffle(harness.world, "ERC20");
    const deployed = await deployMerchantRaffle(harness.world.merchant, {
      factory: harness.world.deployment.raffleFactory,
      commission: 250n,
      timeLagBeforeRelease: 86_400n,
      ticketName: "Roundless",
      ticketSymbol: "RL",
    });
    raffleId = await indexedRaffleId(harness, key, raffle.raffle);
    roundless = { raffle: deployed.raffle, id: await indexedRaffleId(harness, key, deployed.raffle, false) };
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });

  it("lists raffle contracts per spec 2.1 and 2.2, with their merchant and raffle parameters", async () => {
    const { body } = await harness.http.get("/raffle/contracts").query({ chainId: 31337, skip: 0, take: 25 }).set(auth()).expect(200);
    expect(body.count).toBe(2);
    const row = body.rows.find((candidate: { id: number }) => candidate.id === raffleId);
    expect(row).toEqual(
      contractShape({
        address: raffle.raffle,
        contractType: null,
        contractModule: "RAFFLE",
        merchant: { id: row.merchantId, wallet: getAddress(await harness.world.merchant.getAddress()) },
      }),
    );
    expect(row.parameters).toEqual({ timeLagBeforeRelease: "86400", commission: "1000", schedule: expect.any(String), roundId: 1 });
    expect(row.parameters.schedule.split(" ")).toHaveLength(5);
    const description = JSON.parse(row.description);
    expect(description).toEqual({ blocks: expect.any(Array), entityMap: expect.any(Object) });
  });

  it("serves the current round per spec 2.3 to 2.7", async () => {
    const { body: round } = await harness.http.get("/rounds/current").query({ contractId: raffleId }).set(auth()).expect(200);
    expect(round).toEqual({
      id: integer(),
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
      number: 1,
      roundId: "1",
      contractId: raffleId,
      ticketContractId: round.ticketContract.id,
      priceId: round.price.id,
      maxTickets: 100,
      startTimestamp: expect.stringMatching(ISO_UTC),
      endTimestamp: null,
      contract: contractShape({ id: raffleId, address: raffle.raffle, contractType: null }),
      ticketContract: contractShape({ address: raffle.ticket, contractType: "ERC721", decimals: 0 }),
      price: { id: integer(), components: [expect.any(Object)] },
      ticketCount: 0,
      // Raffle v2 (issue #28): added fields; a raffle that never set rules plays by the contract's version 0.
      status: "ACTIVE",
      rules: { prizeShares: [10000], minTickets: 0, maxTicketsPerWallet: 0, bundles: [] },
      pot: "0",
      winners: [],
      // Item prizes (issue #53): none unless the merchant set some.
      itemPrizes: [],
      vrfRequestId: null,
      randomWord: null,
      refundReason: null,
    });
    const [component] = round.price.components;
    expect(component).toEqual({
      id: integer(),
      tokenType: "ERC20",
      contractId: component.contract.id,
      templateId: component.template.id,
      tokenId: component.tokenId,
      amount: raffle.price.amount.toString(),
      contract: contractShape({ address: harness.world.token, contractType: "ERC20" }),
      template: expect.objectContaining({
        id: integer(),
        contractId: component.contract.id,
        cap: expect.stringMatching(/^\d+$/),
        tokens: [expect.any(Object)],
      }),
    });
    expect(component.tokenId === null || /^\d+$/.test(component.tokenId)).toBe(true);
    expect(component.template.tokens[0]).toEqual(
      expect.objectContaining({ id: integer(), tokenId: expect.stringMatching(/^\d+$/), tokenStatus: "MINTED", templateId: component.template.id }),
    );
    // The API assembles the round from light queries and a cached price; it serves what one many-joined read gives.
    const joined = await harness.app
      .get(DATA_SOURCE)
      .getRepository(RoundEntity)
      .findOneOrFail({
        where: { contractId: raffleId },
        relations: { contract: true, ticketContract: true, price: { components: { contract: true, template: { tokens: true } } } },
        order: { roundId: "DESC" },
      });
    expect(round).toEqual(JSON.parse(JSON.stringify(toRoundDto(joined))));
  });

  it("answers 404 roundNotFound for a raffle whose first round has not started, on both endpoints", async () => {
    const { body } = await harness.http.get("/raffle/contracts").set(auth()).expect(200);
    expect(body.rows.find((row: { id: number }) => row.id === roundless.id).parameters.roundId).toBe(0);
    expectProblem(await harness.http.get("/rounds/current").query({ contractId: roundless.id }).set(auth()), 404, "roundNotFound");
    const account = await harness.world.players[0].getAddress();
    const sign = await harness.http.post("/raffle/ticket/sign").set(auth()).send({ account, contractId: roundless.id });
    expectProblem(sign, 404, "roundNotFound");
  });

  it("signs per spec 2.8 with ready-made purchase arguments, a fresh nonce each time, and records the voucher", async () => {
    const round = (await harness.http.get("/rounds/current").query({ contractId: raffleId }).set(auth()).expect(200)).body;
    const account = await harness.world.players[0].getAddress();
    const referrer = await harness.world.players[1].getAddress();
    const before = Math.floor(Date.now() / 1000);
    const { body } = await harness.http
      .post("/raffle/ticket/sign")
      .set(auth())
      .send({ account: account.toLowerCase(), referrer, contractId: raffleId })
      .expect(200);

    expect(body.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(body.expiresAt).toBeGreaterThanOrEqual(before + harness.config.signatureTtlSeconds);
    expect(body.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + harness.config.signatureTtlSeconds);
    expect(body.params).toEqual({
      externalId: String(round.id),
      expiresAt: String(body.expiresAt),
      nonce: body.nonce,
      extra: RAFFLE_PURCHASE_EXTRA,
      receiver: raffle.raffle,
      referrer,
    });
    expect(body.item).toEqual({ tokenType: TokenType.ERC721, token: raffle.ticket, tokenId: "0", amount: "1" });
    expect(body.price).toEqual({
      tokenType: TokenType.ERC20,
      token: harness.world.token,
      tokenId: expect.stringMatching(/^\d+$/),
      amount: raffle.price.amount.toString(),
    });
    expect(body.value).toBe("0");

    const { deployment } = harness.world;
    const voucher = { account, params: body.params, item: body.item, price: body.price };
    const signer = verifyTypedData(exchangeDomain(deployment.chainId, deployment.exchange), PURCHASE_TYPES, voucher, body.signature);
    expect(signer).toBe(new Wallet(LOCAL_DEV_KEYS.voucherSigner).address);

    const stored = await harness.app.get(DATA_SOURCE).getRepository(TicketVoucherEntity).findOneByOrFail({ nonce: body.nonce });
    expect(stored).toMatchObject({ account, referrer, contractId: raffleId, roundId: round.id });
    expect(Number(stored.expiresAt)).toBe(body.expiresAt);

    const again = (await harness.http.post("/raffle/ticket/sign").set(auth()).send({ account, contractId: raffleId }).expect(200)).body;
    expect(again.nonce).not.toBe(body.nonce);
    expect(again.params.referrer).toBe(ZeroAddress);
  });
});
