import { Wallet } from "ethers";
import { createSiweMessage } from "viem/siwe";
import { Exchange__factory, Raffle__factory, localDevPrivateKey } from "@raffle/chain";
import { deployTestRaffle, type TestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import type { ApiConfig } from "../../api/src/config/api-config";
import { API_CONFIG } from "../../api/src/services/tokens";
import { browserSessions, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem, fieldsOf } from "./support/problem";
import { buyTickets, endAndDraw, restartRound, setRules } from "../../../libs/indexer/test/support/v2-world";

const WEB_ORIGIN = "http://127.0.0.1:5173";

/** Public sale through the real API and PostgreSQL: the merchant's switch, Sign-In with Ethereum, vouchers, tickets. */
describe("public sale and Sign-In with Ethereum", () => {
  let harness: ApiHarness;
  let key: string;
  let config: ApiConfig;
  const raffles = {} as Record<"open" | "closed" | "small", { deployed: TestRaffle; id: number }>;
  /** The three-winner raffle whose round 2 is drawn (and one prize claimed) by the last journeys. */
  let drawn: { deployed: TestRaffle; id: number } | undefined;
  // Hardhat's accounts #5 and #6: funded with ETH by the node (TestWorld's players[0] and [1]).
  const alice = new Wallet(localDevPrivateKey(5));
  const bob = new Wallet(localDevPrivateKey(6));

  beforeAll(async () => {
    harness = await startApiHarness("player", {
      player: browserSessions(WEB_ORIGIN),
    });
    config = harness.app.get(API_CONFIG);
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    for (const name of ["open", "closed", "small"] as const) {
      const deployed = await deployTestRaffle(harness.world, "NATIVE", name === "small" ? 1n : 100n);
      raffles[name] = { deployed, id: await indexedRaffleId(harness, key, deployed.raffle) };
    }
  });

  afterAll(async () => {
    await harness?.close();
  });

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function siweMessage(wallet: Wallet, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}): Promise<string> {
    const { body } = await harness.http.post("/player/siwe/nonce").expect(200);
    const now = Date.now();
    return createSiweMessage({
      domain: "127.0.0.1:5173",
      uri: WEB_ORIGIN,
      address: wallet.address as `0x${string}`,
      chainId: harness.world.deployment.chainId,
      version: "1",
      nonce: body.nonce,
      issuedAt: new Date(now),
      expirationTime: new Date(now + 30 * 60_000),
      statement: "Sign in to buy raffle tickets.",
      ...overrides,
    });
  }

  async function signIn(wallet: Wallet): Promise<string> {
    const message = await siweMessage(wallet);
    const { body } = await harness.http
      .post("/player/siwe/verify")
      .send({ message, signature: await wallet.signMessage(message) })
      .expect(200);
    return body.token;
  }

  const setPublicSale = (id: number, publicSale: boolean, apiKey = key) =>
    harness.http.put(`/raffle/contracts/${id}/public-sale`).set(auth(apiKey)).send({ publicSale });

  it("keeps raffles off public sale until their merchant puts them on it", async () => {
    const { body } = await harness.http.get("/raffle/contracts").set(auth(key)).expect(200);
    expect(body.rows.map((row: { publicSale: boolean }) => row.publicSale)).toEqual([false, false, false]);
    expect((await harness.http.get("/player/raffles").expect(200)).body.rows).toEqual([]);
    expectProblem(await harness.http.get(`/player/raffles/${raffles.open.id}`), 404, "publicRaffleNotFound");

    const stranger = await harness.apiKey(Wallet.createRandom().address);
    expectProblem(await setPublicSale(raffles.open.id, true, stranger), 404, "contractNotFound");
    expectProblem(await setPublicSale(raffles.open.id, "yes" as unknown as boolean), 400, "validationFailed");
    expect((await setPublicSale(raffles.open.id, true).expect(200)).body).toMatchObject({ id: raffles.open.id, publicSale: true });
    await setPublicSale(raffles.small.id, true).expect(200);

    const list = (await harness.http.get("/player/raffles").query({ chainId: harness.world.deployment.chainId }).expect(200)).body.rows;
    expect(list.map((row: { raffle: { id: number } }) => row.raffle.id)).toEqual([raffles.open.id, raffles.small.id]);
    const open = (await harness.http.get(`/player/raffles/${raffles.open.id}`).expect(200)).body;
    expect(open).toMatchObject({ raffle: { id: raffles.open.id, publicSale: true }, round: { ticketCount: 0, maxTickets: 100 }, pot: "0" });
    expect(new Date(open.nextDrawAt).getTime()).toBeGreaterThan(Date.now());
    expectProblem(await harness.http.get(`/player/raffles/${raffles.closed.id}`), 404, "publicRaffleNotFound");
    expectProblem(await harness.http.get("/player/raffles").query({ chainId: 999 }), 422, "chainNotServed");
  });

  it("signs a player in once per nonce, for the app's domain, a served chain and a current message", async () => {
    const message = await siweMessage(alice);
    const signature = await alice.signMessage(message);
    const { body } = await harness.http.post("/player/siwe/verify").send({ message, signature }).expect(200);
    expect(body).toMatchObject({ address: alice.address, chainId: harness.world.deployment.chainId, token: expect.stringMatching(/^ps_/) });
    expect((await harness.http.get("/player/session").set(auth(body.token)).expect(200)).body.address).toBe(alice.address);
    expectProblem(await harness.http.post("/player/siwe/verify").send({ message, signature }), 401, "siweNonceInvalid");

    const refused = async (messageText: string, status: number, code: string, signer = alice) =>
      expectProblem(
        await harness.http.post("/player/siwe/verify").send({ message: messageText, signature: await signer.signMessage(messageText) }),
        status,
        code,
      );
    await refused(await siweMessage(alice, { domain: "evil.example", uri: "https://evil.example" }), 403, "siweDomainMismatch");
    await refused(await siweMessage(alice, { uri: "https://evil.example/login" }), 403, "siweDomainMismatch");
    await refused(
      await siweMessage(alice, { issuedAt: new Date(Date.now() - 7200_000), expirationTime: new Date(Date.now() - 60_000) }),
      401,
      "siweExpired",
    );
    await refused(await siweMessage(alice, { chainId: 999 }), 422, "chainNotServed");
    await refused(await siweMessage(alice, { nonce: "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6" }), 401, "siweNonceInvalid");
    await refused(await siweMessage(alice), 401, "siweSignatureInvalid", bob);
    await refused(await siweMessage(alice, { expirationTime: undefined }), 400, "siweMessageInvalid");
    await refused("hello", 400, "siweMessageInvalid");
    expectProblem(await harness.http.post("/player/siwe/verify").send({ message, signature: "0x12" }), 400, "validationFailed");
  });

  it("refuses player routes without a live session, and ends one at logout", async () => {
    expectProblem(await harness.http.get("/player/tickets"), 401, "sessionRequired");
    expectProblem(await harness.http.get("/player/tickets").set(auth(key)), 401, "sessionRequired");
    const token = await signIn(bob);
    await harness.http.get("/player/tickets").set(auth(token)).expect(200);
    await harness.http.post("/player/logout").set(auth(token)).expect(204);
    expectProblem(await harness.http.get("/player/session").set(auth(token)), 401, "sessionRequired");
    expectProblem(await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.open.id }), 401, "sessionRequired");
  });

  it("answers the player app's origin with CORS headers, and no other", async () => {
    const preflight = await harness.http
      .options("/player/vouchers")
      .set({ Origin: WEB_ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type" });
    expect(preflight.headers["access-control-allow-origin"]).toBe(WEB_ORIGIN);
    const other = await harness.http.get("/player/raffles").set({ Origin: "https://evil.example" });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("signs vouchers for the session's own address on public-sale raffles only, and the purchase goes through", async () => {
    const token = await signIn(alice);
    expectProblem(await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.closed.id }), 404, "publicRaffleNotFound");
    expectProblem(
      await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.open.id, account: bob.address }),
      400,
      "validationFailed",
    );
    // null is no value (as on POST /raffle/ticket/sign): refused, never read as "omitted".
    for (const field of ["quantity", "referrer"]) {
      const body = { contractId: raffles.open.id, [field]: null };
      const refused = expectProblem(await harness.http.post("/player/vouchers").set(auth(token)).send(body), 400, "validationFailed");
      expect(fieldsOf(refused)).toEqual([field]);
      const signRoute = await harness.http
        .post("/raffle/ticket/sign")
        .set(auth(key))
        .send({ ...body, account: alice.address });
      expect(fieldsOf(expectProblem(signRoute, 400, "validationFailed"))).toEqual([field]);
    }

    const { body: voucher } = await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.open.id }).expect(200);
    expect(voucher).toMatchObject({
      chainId: harness.world.deployment.chainId,
      exchange: harness.world.deployment.exchange,
      params: { receiver: raffles.open.deployed.raffle },
    });
    const exchange = Exchange__factory.connect(voucher.exchange, alice.connect(harness.world.provider));
    const receipt = await (
      await exchange.purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value: BigInt(voucher.value) })
    ).wait();

    const tickets = await eventually(async () => {
      const { body } = await harness.http.get("/player/tickets").set(auth(token)).expect(200);
      if (body.rows.length === 0) throw new Error("ticket not indexed yet");
      return body.rows;
    });
    expect(tickets).toEqual([
      expect.objectContaining({
        contractId: raffles.open.id,
        state: "ACTIVE",
        txHash: receipt!.hash,
        priceType: "NATIVE",
        price: voucher.price.amount,
        prize: null,
      }),
    ]);
    // Bob's session sees none of Alice's tickets.
    expect(
      (
        await harness.http
          .get("/player/tickets")
          .set(auth(await signIn(bob)))
          .expect(200)
      ).body.rows,
    ).toEqual([]);
  });

  it("refuses a sold-out round, and limits vouchers per address and requests per client IP", async () => {
    const token = await signIn(bob);
    const { body: voucher } = await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.small.id }).expect(200);
    const exchange = Exchange__factory.connect(voucher.exchange, bob.connect(harness.world.provider));
    await (await exchange.purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value: BigInt(voucher.value) })).wait();
    await eventually(async () =>
      expectProblem(await harness.http.post("/player/vouchers").set(auth(token)).send({ contractId: raffles.small.id }), 409, "roundFull"),
    );

    config.player.signPerAddress = 2;
    try {
      const carol = await signIn(new Wallet(localDevPrivateKey(7)));
      for (let i = 0; i < 2; i += 1) await harness.http.post("/player/vouchers").set(auth(carol)).send({ contractId: raffles.open.id }).expect(200);
      const limited = expectProblem(
        await harness.http.post("/player/vouchers").set(auth(carol)).send({ contractId: raffles.open.id }),
        429,
        "tooManyRequests",
      );
      expect(limited.detail).toContain("address");
    } finally {
      config.player.signPerAddress = 1000;
    }
    config.player.requestsPerIp = 0;
    try {
      const limited = expectProblem(await harness.http.post("/player/siwe/nonce"), 429, "tooManyRequests");
      expect(limited.detail).toContain("ip");
      // Players behind the same address (a merchant's NAT) used up theirs; the console's sign-in has its own budget.
      await harness.http.post("/merchant/siwe/nonce").expect(200);
    } finally {
      config.player.requestsPerIp = 1000;
    }
    config.player.consoleSignInPerIp = 0;
    try {
      expectProblem(await harness.http.post("/merchant/siwe/nonce"), 429, "tooManyRequests");
      await harness.http.post("/player/siwe/nonce").expect(200);
    } finally {
      config.player.consoleSignInPerIp = 1000;
    }
  });

  it("answers the public reads within a budget per client IP, then 429 with Retry-After", async () => {
    // The reads of the tests before counted too (the window is a minute): a spent budget is one below them.
    config.player.publicReadsPerIp = 0;
    try {
      for (const path of ["/player/raffles", `/player/raffles/${raffles.open.id}`, `/player/raffles/${raffles.open.id}/rounds`]) {
        const response = await harness.http.get(path);
        expect(expectProblem(response, 429, "tooManyRequests").detail).toContain("ip");
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
      }
      // A signed-in player's own routes are counted elsewhere: the read budget never locks out a purchase.
      await harness.http
        .post("/player/vouchers")
        .set(auth(await signIn(alice)))
        .send({ contractId: raffles.open.id })
        .expect(200);
    } finally {
      config.player.publicReadsPerIp = 1000;
    }
    await harness.http.get("/player/raffles").expect(200);
  });

  it("buys several tickets per voucher and shows each of a round's several winners as WON until its own prize is claimed", async () => {
    const deployed = await deployTestRaffle(harness.world, "NATIVE");
    await setRules(harness.world, deployed, { prizeShares: [5000, 3000, 2000] });
    await restartRound(harness.world, deployed);
    const id = await indexedRaffleId(harness, key, deployed.raffle);
    await eventually(async () =>
      expect((await harness.http.get("/rounds/current").query({ contractId: id }).set(auth(key)).expect(200)).body.roundId).toBe("2"),
    );
    await setPublicSale(id, true).expect(200);
    const tokens = { alice: await signIn(alice), bob: await signIn(bob) };
    for (const [name, wallet, quantity] of [
      ["alice", alice, 3],
      ["bob", bob, 2],
    ] as const) {
      const { body: voucher } = await harness.http.post("/player/vouchers").set(auth(tokens[name])).send({ contractId: id, quantity }).expect(200);
      expect(voucher.item.amount).toBe(String(quantity));
      const exchange = Exchange__factory.connect(voucher.exchange, wallet.connect(harness.world.provider));
      await (await exchange.purchaseRaffle(voucher.params, voucher.item, voucher.price, voucher.signature, { value: BigInt(voucher.value) })).wait();
    }
    await endAndDraw(harness.world, deployed);
    const winners = await Raffle__factory.connect(deployed.raffle, harness.world.provider).getWinners(2n);
    const winning = new Set(winners.map((winner) => winner.ticketId.toString()));
    const ticketsOf = async (token: string) =>
      (
        (await harness.http.get("/player/tickets").set(auth(token)).expect(200)).body.rows as Array<{
          contractId: number;
          tokenId: string;
          state: string;
          prize: string | null;
          grossShare: string | null;
          commission: string | null;
          roundTicketCount: number;
          roundMinTickets: number;
          refundReason: string | null;
        }>
      ).filter((ticket) => ticket.contractId === id);
    const all = await eventually(async () => {
      const rows = [...(await ticketsOf(tokens.alice)), ...(await ticketsOf(tokens.bob))];
      expect(rows.filter((ticket) => ticket.state === "WON")).toHaveLength(3);
      return rows;
    });
    expect(all).toHaveLength(5);
    for (const ticket of all) {
      const position = winners.findIndex((winner) => winner.ticketId.toString() === ticket.tokenId);
      // Each prize's figures: the gross share of the pot, the commission rate and the prize the claim pays (10% less).
      expect([ticket.state, ticket.grossShare, ticket.prize]).toEqual(
        winning.has(ticket.tokenId)
          ? ["WON", winners[position].amount.toString(), ((winners[position].amount * 9n) / 10n).toString()]
          : ["LOST", null, null],
      );
      expect(ticket).toMatchObject({ commission: "1000", roundTicketCount: 5, roundMinTickets: 0, refundReason: null });
    }

    // One winner claims: that ticket is CLAIMED, the round's other winners stay WON.
    const first = all.find((ticket) => ticket.tokenId === winners[0].ticketId.toString())!;
    const owner = (await ticketsOf(tokens.alice)).some((ticket) => ticket.tokenId === first.tokenId) ? alice : bob;
    await (
      await Raffle__factory.connect(deployed.raffle, owner.connect(harness.world.provider)).claimPrizes([
        { roundId: 2n, ticketId: winners[0].ticketId },
      ])
    ).wait();
    await eventually(async () => {
      const rows = [...(await ticketsOf(tokens.alice)), ...(await ticketsOf(tokens.bob))];
      expect(rows.filter((ticket) => ticket.state === "CLAIMED").map((ticket) => ticket.tokenId)).toEqual([first.tokenId]);
      expect(rows.filter((ticket) => ticket.state === "WON")).toHaveLength(2);
    });
    drawn = { deployed, id };
  });

  it("says of a ticket whose round ended below its minimum how many tickets the round sold of how many it needed", async () => {
    const deployed = await deployTestRaffle(harness.world, "NATIVE");
    await setRules(harness.world, deployed, { prizeShares: [10000], minTickets: 3 });
    await restartRound(harness.world, deployed);
    const id = await indexedRaffleId(harness, key, deployed.raffle);
    await setPublicSale(id, true).expect(200);
    await eventually(async () =>
      expect((await harness.http.get("/rounds/current").query({ contractId: id }).set(auth(key)).expect(200)).body.roundId).toBe("2"),
    );
    await buyTickets(harness.world, deployed, harness.world.players[0], 2);
    await (await Raffle__factory.connect(deployed.raffle, harness.world.merchant).endRound()).wait();

    const token = await signIn(alice);
    const rows = await eventually(async () => {
      const { body } = await harness.http.get("/player/tickets").set(auth(token)).expect(200);
      const mine = body.rows.filter((ticket: { contractId: number }) => ticket.contractId === id);
      expect(mine.map((ticket: { state: string }) => ticket.state)).toEqual(["REFUNDABLE", "REFUNDABLE"]);
      return mine;
    });
    for (const ticket of rows) {
      expect(ticket).toMatchObject({
        roundId: "2",
        roundTicketCount: 2,
        roundMinTickets: 3,
        refundReason: "MINIMUM_NOT_REACHED",
        prize: null,
        grossShare: null,
        commission: "1000",
      });
    }
    // Another player's session never sees them.
    const theirs = (
      await harness.http
        .get("/player/tickets")
        .set(auth(await signIn(bob)))
        .expect(200)
    ).body.rows;
    expect(theirs.filter((ticket: { contractId: number }) => ticket.contractId === id)).toEqual([]);
  });

  it("shows a public-sale raffle's round history to anyone, newest first, with its winners and the draw's record", async () => {
    const { deployed, id } = drawn!;
    const raffle = Raffle__factory.connect(deployed.raffle, harness.world.provider);
    const [round, winners, [drawnLog]] = await Promise.all([
      raffle.getRound(2n),
      raffle.getWinners(2n),
      raffle.queryFilter(raffle.filters.WinnersDrawn(2n)),
    ]);

    // No session, no key: the history is as public as the raffle.
    const { body } = await harness.http.get(`/player/raffles/${id}/rounds`).expect(200);
    expect(body.count).toBe(2);
    expect(body.rows.map((row: { roundId: string }) => row.roundId)).toEqual(["2", "1"]);
    const [latest, earliest] = body.rows;
    expect(latest).toMatchObject({
      contractId: id,
      status: "DRAWN",
      ticketCount: 5,
      maxTickets: 100,
      pot: round.pot.toString(),
      rules: { prizeShares: [5000, 3000, 2000] },
      vrfRequestId: round.vrfRequestId.toString(),
      randomWord: round.randomWord.toString(),
      firstTicketId: round.firstTicketId.toString(),
      drawTxHash: drawnLog.transactionHash,
    });
    expect(latest.endTimestamp).not.toBeNull();
    expect(latest.winners.map((winner: { position: number; ticketId: string; amount: string; claimStatus: string }) => winner)).toEqual(
      winners.map((winner, position) => ({
        position,
        ticketId: winner.ticketId.toString(),
        account: expect.stringMatching(new RegExp(`^(${alice.address}|${bob.address})$`)),
        share: [5000, 3000, 2000][position],
        amount: winner.amount.toString(),
        claimStatus: position === 0 ? "CLAIMED" : "UNCLAIMED",
      })),
    );
    // The round's tickets, which the draw picks from, are the 5 ids from firstTicketId (what SDK verifyDraw needs).
    for (const winner of winners) expect(winner.ticketId >= round.firstTicketId && winner.ticketId < round.firstTicketId + 5n).toBe(true);
    expect(earliest).toMatchObject({ roundId: "1", status: "CLOSED", ticketCount: 0, winners: [], randomWord: null, drawTxHash: null });

    const page = (await harness.http.get(`/player/raffles/${id}/rounds`).query({ skip: 1, take: 1 }).expect(200)).body;
    expect({ count: page.count, rounds: page.rows.map((row: { roundId: string }) => row.roundId) }).toEqual({ count: 2, rounds: ["1"] });
  });

  it("refuses the round history of a raffle off public sale, an unknown raffle and a bad page", async () => {
    const { body: open } = await harness.http.get(`/player/raffles/${raffles.open.id}/rounds`).expect(200);
    expect(open.rows.map((row: { roundId: string; drawTxHash: string | null }) => [row.roundId, row.drawTxHash])).toEqual([["1", null]]);
    expectProblem(await harness.http.get(`/player/raffles/${raffles.closed.id}/rounds`), 404, "publicRaffleNotFound");
    expectProblem(await harness.http.get("/player/raffles/999999/rounds"), 404, "publicRaffleNotFound");
    expectProblem(await harness.http.get("/player/raffles/abc/rounds"), 404, "publicRaffleNotFound");
    expectProblem(await harness.http.get(`/player/raffles/${raffles.open.id}/rounds`).query({ take: 0 }), 400, "validationFailed");
    expectProblem(await harness.http.get(`/player/raffles/${raffles.open.id}/rounds`).query({ take: 101 }), 400, "validationFailed");
    expectProblem(await harness.http.get(`/player/raffles/${raffles.open.id}/rounds`).query({ skip: -1 }), 400, "validationFailed");
    // Taken off public sale by its merchant, the history goes with the raffle.
    await setPublicSale(raffles.small.id, false).expect(200);
    try {
      expectProblem(await harness.http.get(`/player/raffles/${raffles.small.id}/rounds`), 404, "publicRaffleNotFound");
    } finally {
      await setPublicSale(raffles.small.id, true).expect(200);
    }
  });
});
