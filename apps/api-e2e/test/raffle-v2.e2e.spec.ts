import { parseUnits, type Signer } from "ethers";
import { Exchange__factory, RaffleTicket__factory, Raffle__factory, TestToken__factory } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import type { TicketSignatureDto } from "../../api/src/app/ticket-sign/ticket-sign.dto";
import { startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";
import { buyTickets, endAndDraw, restartRound, setRules } from "../../../libs/indexer/test/support/v2-world";

const gold = (amount: number) => parseUnits(String(amount), 18);

/**
 * Raffle v2 through the API, against a real chain and its indexer: vouchers for several tickets at the round's bundle
 * price, the roundFull and walletLimitReached refusals, a three-winner round in /rounds and /claims, and a round below
 * its minimum refunding through RAFFLE_REFUND claims.
 */
describe("raffle v2 through the API", () => {
  let harness: ApiHarness;
  let key: string;
  let raffle: TestRaffle;
  let contractId: number;
  let alice: Signer, bob: Signer, carol: Signer, dave: Signer;
  const rules = {
    prizeShares: [5000, 3000, 2000],
    minTickets: 3,
    maxTicketsPerWallet: 10,
    bundles: [
      { quantity: 5, price: gold(45) },
      { quantity: 10, price: gold(80) },
    ],
  };

  beforeAll(async () => {
    harness = await startApiHarness("raffle_v2");
    const { world } = harness;
    [alice, bob, carol, dave] = world.players;
    for (const player of world.players) addresses.set(player, await player.getAddress());
    key = await harness.apiKey(await world.merchant.getAddress());
    raffle = await deployTestRaffle(world, "ERC20");
    await setRules(world, raffle, rules);
    await restartRound(world, raffle, 20n); // round 1 ends empty; round 2 has the rules and 20 tickets at most
    contractId = await indexedRaffleId(harness, key, raffle.raffle);
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });
  const addresses = new Map<Signer, string>();
  const sign = (buyer: Signer, quantity?: number) =>
    harness.http
      .post("/raffle/ticket/sign")
      .set(auth())
      .send({ account: addresses.get(buyer), contractId, ...(quantity === undefined ? {} : { quantity }) });
  const current = async () => (await harness.http.get("/rounds/current").query({ contractId }).set(auth()).expect(200)).body;

  /** Sends the signed voucher's exact arguments to the Exchange, approving the ERC20 price first. */
  async function purchase(buyer: Signer, voucher: TicketSignatureDto) {
    await (await TestToken__factory.connect(voucher.price.token, buyer).approve(harness.world.deployment.exchange, voucher.price.amount)).wait();
    const exchange = Exchange__factory.connect(harness.world.deployment.exchange, buyer);
    return (await exchange.purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value: BigInt(voucher.value) })).wait();
  }

  it("shows the round's rules, and signs a bundle at the contract's priceOf, which the Exchange accepts", async () => {
    const round = await eventually(async () => {
      const body = await current();
      expect(body.roundId).toBe("2");
      return body;
    });
    expect(round).toMatchObject({
      status: "ACTIVE",
      maxTickets: 20,
      rules: {
        prizeShares: [5000, 3000, 2000],
        minTickets: 3,
        maxTicketsPerWallet: 10,
        bundles: [
          { quantity: 5, price: gold(45).toString() },
          { quantity: 10, price: gold(80).toString() },
        ],
      },
      pot: "0",
      winners: [],
      vrfRequestId: null,
      randomWord: null,
    });

    // A body without quantity signs one ticket at the round's price, exactly as before.
    const single = (await sign(dave).expect(200)).body;
    expect(single.item).toEqual({ tokenType: 2, token: raffle.ticket, tokenId: "0", amount: "1" });
    expect(single.price).toMatchObject({ tokenType: 1, token: raffle.price.token, amount: gold(10).toString() });
    // Every quantity is priced as the contract prices it.
    const onChain = Raffle__factory.connect(raffle.raffle, harness.node.provider);
    for (const quantity of [1, 4, 5, 9, 10]) {
      const voucher = (await sign(dave, quantity).expect(200)).body;
      expect({ quantity, item: voucher.item.amount, price: voucher.price.amount }).toEqual({
        quantity,
        item: String(quantity),
        price: (await onChain.priceOf(quantity)).amount.toString(),
      });
    }

    const bundle = (await sign(alice, 5).expect(200)).body;
    expect(bundle.price.amount).toBe(gold(45).toString());
    const receipt = await purchase(alice, bundle);
    const [purchased] = receipt!.logs.map((log) => onChain.interface.parseLog(log)).filter((log) => log?.name === "TicketsPurchased");
    expect(purchased!.args.quantity).toBe(5n);
    expect(await RaffleTicket__factory.connect(raffle.ticket, harness.node.provider).balanceOf(await alice.getAddress())).toBe(5n);
    await eventually(async () => expect(await current()).toMatchObject({ ticketCount: 5, pot: gold(45).toString() }));
  });

  it("refuses a quantity beyond 100 or below 1 (400), past the wallet cap (409 walletLimitReached) and past the tickets left (409 roundFull)", async () => {
    for (const quantity of [101, 0, 2.5, "5"]) {
      const response = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth())
        .send({ account: await bob.getAddress(), contractId, quantity });
      expect(fieldsOf(expectProblem(response, 400, "validationFailed"))).toEqual(["quantity"]);
    }

    // Alice holds 5 of her 10: 6 more pass the cap, 5 do not.
    const capped = expectProblem(await sign(alice, 6), 409, "walletLimitReached");
    expect(capped.detail).toContain(`${await alice.getAddress()} bought 5 tickets`);
    expect(capped.detail).toContain("cap of 10 per wallet");
    await sign(alice, 5).expect(200);

    // Carol buys ten (the 10-ticket bundle): 5 of the round's 20 are left.
    await purchase(carol, (await sign(carol, 10).expect(200)).body);
    await eventually(async () => expect((await current()).ticketCount).toBe(15));
    const full = expectProblem(await sign(bob, 6), 409, "roundFull");
    expect(full.detail).toBe(`The active round of raffle contract ${contractId} has 5 of its 20 tickets left, fewer than the 6 asked.`);
    await purchase(bob, (await sign(bob, 5).expect(200)).body);
    await eventually(async () => expect((await current()).ticketCount).toBe(20));
    expect(expectProblem(await sign(dave), 409, "roundFull").detail).toBe(`The active round of raffle contract ${contractId} sold all 20 tickets.`);
  });

  it("lists a three-winner round in /rounds and /rounds/:id with its winners and draw record, and a prize claim per position in /claims", async () => {
    const roundId = await endAndDraw(harness.world, raffle);
    const onChain = Raffle__factory.connect(raffle.raffle, harness.node.provider);
    const [winners, view] = await Promise.all([onChain.getWinners(roundId), onChain.getRound(roundId)]);
    const ticket = RaffleTicket__factory.connect(raffle.ticket, harness.node.provider);
    const holders = await Promise.all(winners.map((winner) => ticket.ownerOf(winner.ticketId)));

    const round = await eventually(async () => {
      const body = await current();
      expect(body.status).toBe("DRAWN");
      return body;
    });
    const expectedWinners = winners.map((winner, position) => ({
      position,
      ticketId: winner.ticketId.toString(),
      account: holders[position],
      share: Number(winner.share),
      amount: winner.amount.toString(),
      claimStatus: "UNCLAIMED",
    }));
    expect(round).toMatchObject({
      roundId: "2",
      ticketCount: 20,
      pot: view.pot.toString(),
      winners: expectedWinners,
      vrfRequestId: view.vrfRequestId.toString(),
      randomWord: view.randomWord.toString(),
      refundReason: null,
    });
    expect((await harness.http.get(`/rounds/${round.id}`).set(auth()).expect(200)).body).toEqual(round);
    const list = (await harness.http.get("/rounds").query({ contractId }).set(auth()).expect(200)).body;
    expect(list.count).toBe(2);
    expect(list.rows.map((row: { roundId: string; status: string }) => [row.roundId, row.status])).toEqual([
      ["2", "DRAWN"],
      ["1", "CLOSED"],
    ]);
    expect(list.rows[0]).toEqual(round);
    expect(list.rows[1]).toMatchObject({ rules: { prizeShares: [10000], minTickets: 0, maxTicketsPerWallet: 0, bundles: [] }, winners: [] });

    // One RAFFLE_PRIZE claim per position, to its holder, for its amount less the 10% commission.
    for (const winner of expectedWinners) {
      const claims = (await harness.http.get("/claims").query({ account: winner.account }).set(auth()).expect(200)).body.rows;
      const prize = claims.find(
        (claim: { claimType: string; tokenId: string }) => claim.claimType === "RAFFLE_PRIZE" && claim.tokenId === winner.ticketId,
      );
      expect(prize).toMatchObject({
        claimStatus: "NEW",
        roundId: round.id,
        items: [{ tokenType: "ERC20", token: raffle.price.token, tokenId: "0", amount: ((BigInt(winner.amount) * 9n) / 10n).toString() }],
        parameters: { raffle: raffle.raffle, roundId: "2", ticketId: winner.ticketId, position: winner.position },
      });
    }

    // The first winner claims with the claim's parameters; its claim and position say so.
    const first = expectedWinners[0];
    const signer = await harness.node.provider.getSigner(first.account);
    await (await Raffle__factory.connect(raffle.raffle, signer).claimPrizes([{ roundId: 2n, ticketId: BigInt(first.ticketId) }])).wait();
    await eventually(async () => {
      const body = (await harness.http.get(`/rounds/${round.id}`).set(auth()).expect(200)).body;
      expect(body.winners[0].claimStatus).toBe("CLAIMED");
      expect(body.status).toBe("DRAWN");
    });
    const claims = (await harness.http.get("/claims").query({ account: first.account, claimStatus: "REDEEMED" }).set(auth()).expect(200)).body.rows;
    expect(claims.map((claim: { tokenId: string }) => claim.tokenId)).toContain(first.ticketId);
  });

  it("refunds a round below its minimum: REFUNDABLE with its reason, and a RAFFLE_REFUND claim per ticket at what it paid", async () => {
    await setRules(harness.world, raffle, { ...rules, minTickets: 20 });
    await restartRound(harness.world, raffle, 50n);
    const bundle = await buyTickets(harness.world, raffle, dave, 5, 3n);
    await (await Raffle__factory.connect(raffle.raffle, harness.world.merchant).endRound()).wait();

    const round = await eventually(async () => {
      const body = await current();
      expect(body).toMatchObject({ roundId: "3", status: "REFUNDABLE", refundReason: "MINIMUM_NOT_REACHED", ticketCount: 5, winners: [] });
      return body;
    });
    const account = await dave.getAddress();
    const refunds = async () =>
      (await harness.http.get("/claims").query({ account }).set(auth()).expect(200)).body.rows.filter(
        (claim: { claimType: string }) => claim.claimType === "RAFFLE_REFUND",
      );
    const open = await refunds();
    expect(open.map((claim: { tokenId: string }) => claim.tokenId).sort()).toEqual(bundle.map(String).sort());
    for (const claim of open) {
      expect(claim).toMatchObject({
        account,
        claimStatus: "NEW",
        chainId: 31337,
        contractId,
        roundId: round.id,
        endTimestamp: null,
        items: [{ tokenType: "ERC20", token: raffle.price.token, tokenId: "0", amount: gold(9).toString() }],
        parameters: { raffle: raffle.raffle, roundId: "3", ticketId: claim.tokenId },
      });
    }

    // Refunded in one batch from the claims' parameters; every claim is then REDEEMED by that transaction.
    const refs = open.map((claim: { parameters: { roundId: string; ticketId: string } }) => ({
      roundId: BigInt(claim.parameters.roundId),
      ticketId: BigInt(claim.parameters.ticketId),
    }));
    const receipt = await (await Raffle__factory.connect(raffle.raffle, dave).refundTickets(refs)).wait();
    await eventually(async () => {
      const settled = await refunds();
      expect(settled.map((claim: { claimStatus: string; redeemedTxHash: string }) => [claim.claimStatus, claim.redeemedTxHash])).toEqual(
        Array(5).fill(["REDEEMED", receipt!.hash]),
      );
    });
  });

  it("answers 404 roundIdNotFound for an unknown round, a malformed id and another merchant's round, and pages /rounds", async () => {
    const { rows } = (await harness.http.get("/rounds").query({ contractId, take: 1, skip: 1 }).set(auth()).expect(200)).body;
    expect(rows.map((row: { roundId: string }) => row.roundId)).toEqual(["2"]);
    expectProblem(await harness.http.get("/rounds/999999").set(auth()), 404, "roundIdNotFound");
    expectProblem(await harness.http.get("/rounds/abc").set(auth()), 404, "roundIdNotFound");
    const other = await harness.apiKey(await harness.world.players[3].getAddress());
    expectProblem(await harness.http.get(`/rounds/${rows[0].id}`).set({ Authorization: `Bearer ${other}` }), 404, "roundIdNotFound");
    expectProblem(
      await harness.http
        .get("/rounds")
        .query({ contractId })
        .set({ Authorization: `Bearer ${other}` }),
      404,
      "contractNotFound",
    );
    expect(fieldsOf(expectProblem(await harness.http.get("/rounds").query({ contractId, take: 101 }).set(auth()), 400, "validationFailed"))).toEqual([
      "take",
    ]);
  });
});
