import { parseUnits } from "ethers";
import { Exchange__factory, RaffleTicket__factory, Raffle__factory, TestToken__factory, type TestToken } from "@raffle/chain";
import { buyTicket, deployTestRaffle } from "@raffle/chain/testing";

import { eventually } from "@raffle/testing";

import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";
import { expectRevert } from "./support/revert";
import { endAndDraw } from "../../../libs/indexer/test/support/v2-world";

const exchangeInterface = Exchange__factory.createInterface();

describe("claims: raffle prizes and merchant vouchers", () => {
  let harness: ApiHarness;
  let key: string;
  let otherKey: string;
  let reward: TestToken;
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    harness = await startApiHarness("claims");
    const { world } = harness;
    const merchantAddress = await world.merchant.getAddress();
    key = await harness.apiKey(merchantAddress);
    otherKey = await harness.apiKey(await (await harness.node.provider.getSigner(3)).getAddress());
    // The merchant's reward token: it holds a supply, approves the Exchange and opts in as a claim source.
    reward = await new TestToken__factory(world.admin).deploy("Reward", "RWD", await world.admin.getAddress());
    await reward.waitForDeployment();
    await (await reward.mint(merchantAddress, parseUnits("1000", 18))).wait();
    await (await reward.connect(world.merchant).approve(world.deployment.exchange, parseUnits("1000", 18))).wait();
    await (await Exchange__factory.connect(world.deployment.exchange, world.merchant).setClaimSource(await reward.getAddress(), true)).wait();
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function listClaims(account: string, query: Record<string, unknown> = {}, apiKey = key) {
    return (
      await harness.http
        .get("/claims")
        .query({ account, ...query })
        .set({ Authorization: `Bearer ${apiKey}` })
        .expect(200)
    ).body;
  }

  it("a drawn round gives its winner a NEW prize claim, which becomes REDEEMED once claimed on-chain", async () => {
    const { world } = harness;
    const raffle = await deployTestRaffle(world, "ERC20");
    await indexedRaffleId(harness, key, raffle.raffle);
    const [alice, bob] = world.players;
    await buyTicket(world, raffle, alice, 1n);
    await buyTicket(world, raffle, bob, 1n);
    await endAndDraw(world, raffle);
    const { winningTicketId } = await Raffle__factory.connect(raffle.raffle, harness.node.provider).getRound(1n);
    const winner = await RaffleTicket__factory.connect(raffle.ticket, harness.node.provider).ownerOf(winningTicketId);

    const claim = await eventually(async () => {
      const { rows } = await listClaims(winner, { claimStatus: "NEW" });
      const prize = rows.find((row: { claimType: string }) => row.claimType === "RAFFLE_PRIZE");
      if (!prize) throw new Error("prize not indexed yet");
      return prize;
    });
    const pot = raffle.price.amount * 2n;
    expect(claim).toMatchObject({
      account: winner,
      claimStatus: "NEW",
      // A prize is redeemed on its raffle's chain, and says which.
      chainId: 31337,
      tokenId: winningTicketId.toString(),
      items: [{ tokenType: "ERC20", token: raffle.price.token, amount: (pot - pot / 10n).toString() }],
      parameters: { raffle: raffle.raffle, roundId: "1", ticketId: winningTicketId.toString() },
    });

    expect(claim.redeemedTxHash).toBeNull();

    const claimed = await (
      await Raffle__factory.connect(raffle.raffle, await harness.node.provider.getSigner(winner)).claimPrizes([
        { roundId: 1n, ticketId: winningTicketId },
      ])
    ).wait();
    const redeemed = await eventually(async () => {
      const { rows } = await listClaims(winner, { claimStatus: "REDEEMED" });
      const found = rows.find((row: { id: number }) => row.id === claim.id);
      if (!found) throw new Error("claim not redeemed yet");
      return found;
    });
    // The PrizeClaimed transaction, as GET /claims/:id shows it too.
    expect(redeemed.redeemedTxHash).toBe(claimed!.hash);
    expect((await harness.http.get(`/claims/${claim.id}`).set(auth()).expect(200)).body.redeemedTxHash).toBe(claimed!.hash);
  });

  it("a voucher is created, listed, redeemed once on-chain and then REDEEMED; a replay is rejected", async () => {
    const { world } = harness;
    const [, , carol] = world.players;
    const account = await carol.getAddress();
    const amount = parseUnits("5", 18);
    const created = await harness.http
      .post("/claims")
      .set(auth())
      .send({ account, items: [{ tokenType: "ERC20", token: await reward.getAddress(), tokenId: "0", amount: amount.toString() }] })
      .expect(201);
    expect(created.body).toMatchObject({ account, claimType: "VOUCHER", claimStatus: "NEW", signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) });
    const { parameters, signature, id } = created.body;
    expect(parameters.params.externalId).toBe(String(id));
    expect(parameters.params.receiver).toBe(await world.merchant.getAddress());

    const listed = await listClaims(account);
    expect(listed.rows[0]).toMatchObject({ id, claimStatus: "NEW" });

    const exchange = Exchange__factory.connect(parameters.exchange, carol);
    const before = await reward.balanceOf(account);
    const receipt = await (await exchange.claim(parameters.params, parameters.items, signature)).wait();
    expect((await reward.balanceOf(account)) - before).toBe(amount);
    await eventually(async () => {
      const { body } = await harness.http.get(`/claims/${id}`).set(auth()).expect(200);
      expect(body).toMatchObject({ claimStatus: "REDEEMED", redeemedTxHash: receipt!.hash });
    });
    await expectRevert(exchange.claim.staticCall(parameters.params, parameters.items, signature), exchangeInterface, "NonceAlreadyUsed");
  });

  it("a voucher past its expiry becomes EXPIRED and is rejected on-chain", async () => {
    const { world } = harness;
    const [, , , dave] = world.players;
    const account = await dave.getAddress();
    const { body } = await harness.http
      .post("/claims")
      .set(auth())
      .send({ account, ttlSeconds: 1, items: [{ tokenType: "ERC20", token: await reward.getAddress(), tokenId: "0", amount: "7" }] })
      .expect(201);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await eventually(async () => {
      const { body: claim } = await harness.http.get(`/claims/${body.id}`).set(auth()).expect(200);
      expect(claim.claimStatus).toBe("EXPIRED");
    });
    await harness.node.provider.send("evm_mine", []);
    const exchange = Exchange__factory.connect(body.parameters.exchange, dave);
    await expectRevert(
      exchange.claim.staticCall(body.parameters.params, body.parameters.items, body.signature),
      exchangeInterface,
      "SignatureExpired",
    );
  });

  it("a merchant cancels a NEW voucher once; its signature is no longer handed out", async () => {
    const account = await harness.world.players[0].getAddress();
    const { body } = await harness.http
      .post("/claims")
      .set(auth())
      .send({ account, items: [{ tokenType: "ERC20", token: await reward.getAddress(), tokenId: "0", amount: "1" }] })
      .expect(201);
    const canceled = await harness.http.delete(`/claims/${body.id}`).set(auth()).expect(200);
    expect(canceled.body).toMatchObject({ id: body.id, claimStatus: "CANCELED", signature: null });
    expectProblem(await harness.http.delete(`/claims/${body.id}`).set(auth()), 409, "claimNotCancelable");
  });

  it("another merchant's claims are invisible", async () => {
    const account = await harness.world.players[2].getAddress();
    const mine = await listClaims(account);
    expect(mine.count).toBeGreaterThan(0);
    const theirs = await listClaims(account, {}, otherKey);
    expect(theirs).toEqual({ rows: [], count: 0 });
    const other = { Authorization: `Bearer ${otherKey}` };
    expectProblem(await harness.http.get(`/claims/${mine.rows[0].id}`).set(other), 404, "claimNotFound");
    expectProblem(await harness.http.delete(`/claims/${mine.rows[0].id}`).set(other), 404, "claimNotFound");
  });

  it("answers 400 with each bad field for bad input", async () => {
    const token = await reward.getAddress();
    const account = await harness.world.players[0].getAddress();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ account: "0x123", items: [{ tokenType: "ERC20", token, tokenId: "0", amount: "1" }] }, ["account"]],
      [{ account, items: [] }, ["items"]],
      [{ account, items: [{ tokenType: "NATIVE", token, tokenId: "0", amount: "1" }] }, ["items.0.tokenType"]],
      [
        { account, items: [{ tokenType: "ERC20", token: "nope", tokenId: "x", amount: "-1" }] },
        ["items.0.amount", "items.0.token", "items.0.tokenId"],
      ],
      [{ account, items: [{ tokenType: "ERC721", token, tokenId: "5", amount: "2" }] }, ["items.0.amount"]],
      [{ account, items: [{ tokenType: "ERC20", token, tokenId: "0", amount: "1" }], ttlSeconds: 0 }, ["ttlSeconds"]],
      [{ account, items: [{ tokenType: "ERC20", token, tokenId: "0", amount: "1" }], merchantId: 9 }, ["merchantId"]],
      [{ account, items: [{ tokenType: "ERC20", token, tokenId: "0", amount: (2n ** 256n).toString() }] }, ["items.0.amount"]],
    ];
    for (const [body, fields] of cases) {
      const response = await harness.http.post("/claims").set(auth()).send(body);
      expect(fieldsOf(expectProblem(response, 400, "validationFailed"))).toEqual(fields);
    }
    expectProblem(await harness.http.get("/claims/abc").set(auth()), 404, "claimNotFound");
    expectProblem(await harness.http.get("/claims/99999999999").set(auth()), 404, "claimNotFound");
  });
});
