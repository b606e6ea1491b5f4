import { parseUnits } from "ethers";
import { Exchange__factory, RaffleTicket__factory, Raffle__factory, TestToken__factory } from "@raffle/chain";
import { buyTicket, deployTestRaffle, startNextRound, type TestRaffle } from "@raffle/chain/testing";
import { CHAIN_WEBHOOK_EVENT_TYPES, ITEM_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "@raffle/indexer";
import { eventually } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { expectProblem } from "./support/problem";
import { startSiblingApp } from "./support/sibling-app";
import { WebhookReceiver } from "./support/webhook-receiver";
import { endAndDraw } from "../../../libs/indexer/test/support/v2-world";

/** Chain event types of raffles without item prizes: item.* messages are item-prizes.e2e.spec.ts's. */
const RAFFLE_TYPES = CHAIN_WEBHOOK_EVENT_TYPES.filter((type) => !(ITEM_WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));

/** The API with its indexer and delivery loop on a real chain and PostgreSQL, sending to receivers on 127.0.0.1. */
describe("webhooks", () => {
  let harness: ApiHarness;
  let key: string;
  let otherKey: string;
  const receiver = new WebhookReceiver();
  const auth = (apiKey = key) => ({ Authorization: `Bearer ${apiKey}` });

  beforeAll(async () => {
    harness = await startApiHarness("webhooks", {
      webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100, timeoutMs: 2000 }),
    });
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    otherKey = await harness.apiKey(await (await harness.node.provider.getSigner(3)).getAddress());
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  async function register(url: string, body: Record<string, unknown> = {}, apiKey = key) {
    const { body: created } = await harness.http
      .post("/webhooks")
      .set(auth(apiKey))
      .send({ url, ...body })
      .expect(201);
    return created as { id: number; secret: string; events: string[] };
  }

  it("delivers every event type once, signed, in chain order, with the documented body", async () => {
    const { world, node } = harness;
    const created = await register(receiver.url, { description: "game server" });
    expect(created).toMatchObject({ url: receiver.url, events: [...WEBHOOK_EVENT_TYPES], description: "game server" });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.secrets = [created.secret];

    // A claim voucher source, for claim.redeemed.
    const merchantAddress = await world.merchant.getAddress();
    const reward = await new TestToken__factory(world.admin).deploy("Reward", "RWD", await world.admin.getAddress());
    await reward.waitForDeployment();
    await (await reward.mint(merchantAddress, parseUnits("100", 18))).wait();
    await (await reward.connect(world.merchant).approve(world.deployment.exchange, parseUnits("100", 18))).wait();
    await (await Exchange__factory.connect(world.deployment.exchange, world.merchant).setClaimSource(await reward.getAddress(), true)).wait();

    // Round 1: deployed, started, two purchases, drawn, claimed; the raffle paused and unpaused.
    const raffle: TestRaffle = await deployTestRaffle(world, "ERC20");
    const contractId = await indexedRaffleId(harness, key, raffle.raffle);
    const onChain = Raffle__factory.connect(raffle.raffle, world.merchant);
    const [alice, bob] = world.players;
    await buyTicket(world, raffle, alice, 7n);
    await buyTicket(world, raffle, bob, 8n);
    await endAndDraw(world, raffle);
    const { winningTicketId } = await onChain.getRound(1n);
    const winner = await RaffleTicket__factory.connect(raffle.ticket, node.provider).ownerOf(winningTicketId);
    await (
      await Raffle__factory.connect(raffle.raffle, await node.provider.getSigner(winner)).claimPrizes([{ roundId: 1n, ticketId: winningTicketId }])
    ).wait();
    await (await onChain.pause()).wait();
    await (await onChain.unpause()).wait();

    // Round 2: randomness never arrives, the round becomes refundable and a ticket is refunded.
    await startNextRound(world, raffle);
    const refunded = await buyTicket(world, raffle, alice, 9n);
    await buyTicket(world, raffle, bob, 10n);
    await (await onChain.endRound()).wait();
    const { refundableAt } = await onChain.getRound(2n);
    const latest = await node.provider.getBlock("latest");
    await node.provider.send("evm_increaseTime", [Number(refundableAt) - latest!.timestamp + 1]);
    await (await onChain.enableRefunds(2n)).wait();
    await (await Raffle__factory.connect(raffle.raffle, alice).refundTickets([{ roundId: 2n, ticketId: refunded }])).wait();

    // Round 3: one ticket wins at once; nobody claims, so the pot is released after the time lag.
    await startNextRound(world, raffle);
    await buyTicket(world, raffle, bob, 11n);
    await (await onChain.endRound()).wait();
    await node.provider.send("evm_increaseTime", [86_401]);
    await (await onChain.releasePrize(3n)).wait();

    // A merchant voucher redeemed on-chain.
    const carol = world.players[2];
    const voucher = await harness.http
      .post("/claims")
      .set(auth())
      .send({ account: await carol.getAddress(), items: [{ tokenType: "ERC20", token: await reward.getAddress(), tokenId: "0", amount: "5" }] })
      .expect(201);
    const { parameters, signature } = voucher.body;
    await (await Exchange__factory.connect(parameters.exchange, carol).claim(parameters.params, parameters.items, signature)).wait();

    const messages = await eventually(async () => {
      const delivered = receiver.delivered();
      const types = new Set(delivered.map((message) => message.body.type));
      const missing = RAFFLE_TYPES.filter((type) => !types.has(type));
      if (missing.length > 0) throw new Error(`not delivered yet: ${missing.join(", ")}`);
      return delivered;
    }, 30_000);

    // Each message once, each verified, id = webhook-id; in chain order.
    const ids = messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(messages.every((message) => message.verified && message.body.id === message.id)).toBe(true);
    const positions = messages.map((message) => [message.body.blockNumber, message.body.logIndex]);
    expect(positions).toEqual([...positions].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    const countOf = (type: string) => messages.filter((message) => message.body.type === type).length;
    // Every chain event's type (the gasless.* types are the mailbox's, gasless.e2e.spec.ts).
    expect(RAFFLE_TYPES.map((type) => [type, countOf(type)])).toEqual(
      RAFFLE_TYPES.map((type) => [type, { "round.started": 3, "ticket.purchased": 5, "round.ended": 3, "round.drawn": 2 }[type as string] ?? 1]),
    );

    const purchase = messages.find((message) => message.body.type === "ticket.purchased")!.body;
    expect(purchase).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      type: "ticket.purchased",
      removed: false,
      eventId: `31337:${purchase.txHash}:${purchase.logIndex}`,
      chainId: 31337,
      contractId,
      roundId: "1",
      blockNumber: expect.any(Number),
      blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      logIndex: expect.any(Number),
      createdAt: expect.any(String),
      data: expect.objectContaining({
        roundId: "1",
        account: await alice.getAddress(),
        externalId: "7",
        firstTicketId: expect.stringMatching(/^\d+$/),
        quantity: "1",
        amount: raffle.price.amount.toString(),
      }),
    });
    const drawn = messages.find((message) => message.body.type === "round.drawn")!.body;
    const pot = raffle.price.amount * 2n;
    const prize = { tokenType: "ERC20", token: raffle.price.token, tokenId: "0", amount: (pot - pot / 10n).toString() };
    expect(drawn.data).toMatchObject({
      roundId: "1",
      ticketIds: [winningTicketId.toString()],
      winners: [
        {
          position: 0,
          ticketId: winningTicketId.toString(),
          account: winner,
          share: 10000,
          amount: pot.toString(),
          prize,
          claimId: expect.any(Number),
        },
      ],
      winner,
      prize,
    });
    const refundable = messages.find((message) => message.body.type === "round.refundable")!.body;
    expect(refundable.data).toMatchObject({ roundId: "2", reason: "RANDOMNESS_TIMEOUT", ticketCount: 2 });
    const redeemed = messages.find((message) => message.body.type === "claim.redeemed")!.body;
    expect(redeemed.data).toMatchObject({ claimId: voucher.body.id, account: await carol.getAddress() });

    // The deliveries endpoint shows them delivered at the first attempt (once the last run has recorded its sends).
    const page = await eventually(async () => {
      const { body } = await harness.http.get(`/webhooks/${created.id}/deliveries`).query({ take: 100 }).set(auth()).expect(200);
      expect(body.rows.map((row: { status: string }) => row.status)).toEqual(Array(messages.length).fill("DELIVERED"));
      return body;
    }, 10_000);
    expect(page.count).toBe(messages.length);
    expect(page.rows[0]).toMatchObject({
      status: "DELIVERED",
      delivered: true,
      failed: false,
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    await harness.http.delete(`/webhooks/${created.id}`).set(auth()).expect(200);
  }, 90_000);

  it("a receiver answering 500 twice gets the same message id on the third try; one that is down gets everything when back", async () => {
    const { world } = harness;
    const flaky = new WebhookReceiver();
    await flaky.start();
    const created = await register(flaky.url, { events: ["raffle.deployed", "round.started", "ticket.purchased"] });
    flaky.secrets = [created.secret];
    flaky.respond = (_body, attempt) => (attempt <= 2 ? 500 : 200);
    flaky.answer = (status) => (status === 500 ? `orders database is down ${"x".repeat(2_000)}` : "ok");

    const raffle = await deployTestRaffle(world, "ERC20");
    await indexedRaffleId(harness, key, raffle.raffle);
    const first = await eventually(async () => {
      const deployed = flaky.received.filter((message) => message.body.type === "raffle.deployed");
      expect(deployed.map((message) => message.status)).toEqual([500, 500, 200]);
      return deployed;
    }, 20_000);
    expect(new Set(first.map((message) => message.id)).size).toBe(1);
    expect(first.every((message) => message.verified)).toBe(true);

    // The log tells why: each attempt, newest first, with its status and the answer's first KiB, and the payload sent.
    const detailOf = async (deliveryId: string) =>
      (await harness.http.get(`/webhooks/${created.id}/deliveries/${deliveryId}`).set(auth()).expect(200)).body;
    const listOf = async (query: Record<string, string>) =>
      (await harness.http.get(`/webhooks/${created.id}/deliveries`).query(query).set(auth()).expect(200)).body;
    const deployedRows = await listOf({ type: "raffle.deployed" });
    expect(deployedRows.count).toBe(1);
    const deployed = await detailOf(deployedRows.rows[0].id);
    expect(deployed).toMatchObject({ type: "raffle.deployed", status: "DELIVERED", attempts: 3, payload: JSON.parse(first[0].raw) });
    expect(deployed.attemptLog.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200, 500, 500]);
    const failedAttempt = deployed.attemptLog[1];
    expect(failedAttempt).toMatchObject({ error: null, manual: false, durationMs: expect.any(Number) });
    expect(failedAttempt.responseExcerpt).toBe(`orders database is down ${"x".repeat(1_024 - 24)}`);
    expect(Date.parse(deployed.attemptLog[0].attemptedAt)).toBeGreaterThanOrEqual(Date.parse(failedAttempt.attemptedAt));

    // Down: connection refused for a while; every message arrives once it listens again on the same port.
    const port = Number(new URL(flaky.url).port);
    await eventually(async () => expect(flaky.delivered().map((message) => message.body.type)).toContain("round.started"), 20_000);
    await flaky.close();
    flaky.respond = () => 200;
    await buyTicket(world, raffle, world.players[0], 1n);
    await buyTicket(world, raffle, world.players[1], 2n);
    await eventually(async () => {
      const { body } = await harness.http.get(`/webhooks/${created.id}/deliveries`).set(auth()).expect(200);
      // The first purchase's delivery (rows come newest first): the second one waits behind it, never attempted.
      const pending = [...body.rows].reverse().find((row: { type: string }) => row.type === "ticket.purchased");
      expect(pending).toMatchObject({ status: "PENDING", lastStatusCode: null, lastError: expect.stringContaining("ECONNREFUSED") });
      expect(pending.attempts).toBeGreaterThanOrEqual(2);
    }, 20_000);
    const { body: failing } = await harness.http.get(`/webhooks/${created.id}`).set(auth()).expect(200);
    expect(failing).toMatchObject({ disabled: false, failingSince: expect.any(String), health: "failing" });
    // No answer came: the attempt holds the network error, no status and no excerpt; filters find the message.
    const waiting = await eventually(async () => {
      const page = await listOf({ type: "ticket.purchased", status: "PENDING" });
      expect(page.count).toBe(2);
      return page;
    });
    expect((await listOf({ type: "ticket.purchased", status: "DELIVERED" })).count).toBe(0);
    expect((await listOf({ status: "DELIVERED" })).rows.map((row: { type: string }) => row.type)).toEqual(["round.started", "raffle.deployed"]);
    const refused = await detailOf(waiting.rows[1].id);
    expect(refused.attemptLog[0]).toMatchObject({ statusCode: null, responseExcerpt: null, error: expect.stringContaining("ECONNREFUSED") });
    expect(refused.payload).toMatchObject({ id: refused.messageId, type: "ticket.purchased", data: { externalId: "1" } });
    await flaky.start(port);
    const purchases = await eventually(async () => {
      const delivered = flaky.delivered().filter((message) => message.body.type === "ticket.purchased");
      expect(delivered).toHaveLength(2);
      return delivered;
    }, 30_000);
    expect(purchases.map((message) => message.body.data.externalId)).toEqual(["1", "2"]);
    await eventually(async () => {
      const { body } = await harness.http.get(`/webhooks/${created.id}`).set(auth()).expect(200);
      expect(body).toMatchObject({ failingSince: null, health: "healthy" });
    });

    // A manual retry sends a delivered message again now, with the same id.
    const { body: deliveries } = await harness.http.get(`/webhooks/${created.id}/deliveries`).set(auth()).expect(200);
    const last = deliveries.rows[0];
    const { body: retried } = await harness.http.post(`/webhooks/${created.id}/deliveries/${last.id}/retry`).set(auth()).expect(200);
    expect(retried).toMatchObject({ id: last.id, status: "DELIVERED", attempts: last.attempts + 1, lastStatusCode: 200 });
    expect(flaky.received.filter((message) => message.id === last.messageId).length).toBeGreaterThanOrEqual(2);
    expect((await detailOf(last.id)).attemptLog[0]).toMatchObject({ statusCode: 200, responseExcerpt: "ok", manual: true });

    // Choosing the types it receives: a purchase is no longer written for it, while an endpoint that chose it gets it.
    const { body: narrowed } = await harness.http
      .patch(`/webhooks/${created.id}`)
      .set(auth())
      .send({ events: ["raffle.deployed"] })
      .expect(200);
    expect(narrowed).toMatchObject({ events: ["raffle.deployed"], description: "", health: "healthy" });
    const witness = await register(receiver.url, { events: ["ticket.purchased"] });
    await buyTicket(world, raffle, world.players[2], 3n);
    await eventually(async () => expect((await harness.http.get(`/webhooks/${witness.id}/deliveries`).set(auth()).expect(200)).body.count).toBe(1));
    expect((await listOf({ type: "ticket.purchased" })).count).toBe(2);
    await harness.http.delete(`/webhooks/${witness.id}`).set(auth()).expect(200);
    await harness.http.delete(`/webhooks/${created.id}`).set(auth()).expect(200);
    await flaky.close();
  }, 90_000);

  it("rotating the secret signs with both secrets during the grace period", async () => {
    const rotating = new WebhookReceiver();
    await rotating.start();
    const created = await register(rotating.url, { events: ["raffle.deployed"] });
    const { body: rotated } = await harness.http.post(`/webhooks/${created.id}/secret`).set(auth()).expect(200);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt)).toBeGreaterThan(Date.now());
    await deployTestRaffle(harness.world, "NATIVE");
    const [message] = await eventually(async () => {
      expect(rotating.delivered()).toHaveLength(1);
      return rotating.delivered();
    }, 20_000);
    expect(message.headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [created.secret, rotated.secret]) {
      rotating.secrets = [secret];
      const { Webhook } = await import("standardwebhooks");
      expect(() => new Webhook(secret).verify(message.raw, message.headers)).not.toThrow();
    }
    await harness.http.delete(`/webhooks/${created.id}`).set(auth()).expect(200);
    await rotating.close();
  }, 60_000);

  it("answers only about the caller's own webhooks: another merchant's is a 404", async () => {
    const created = await register("http://127.0.0.1:9/hooks", { events: ["round.started"] });
    expectProblem(await harness.http.get(`/webhooks/${created.id}`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(await harness.http.delete(`/webhooks/${created.id}`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(await harness.http.post(`/webhooks/${created.id}/secret`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(await harness.http.get(`/webhooks/${created.id}/deliveries`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(await harness.http.post(`/webhooks/${created.id}/deliveries/1/retry`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(await harness.http.get(`/webhooks/${created.id}/deliveries/1`).set(auth(otherKey)), 404, "webhookNotFound");
    expectProblem(
      await harness.http
        .patch(`/webhooks/${created.id}`)
        .set(auth(otherKey))
        .send({ events: ["round.drawn"] }),
      404,
      "webhookNotFound",
    );
    expect((await harness.http.get(`/webhooks/${created.id}`).set(auth()).expect(200)).body.events).toEqual(["round.started"]);
    expect((await harness.http.get("/webhooks").set(auth(otherKey)).expect(200)).body).toEqual({ rows: [], count: 0 });
    const { body: mine } = await harness.http.get("/webhooks").set(auth()).expect(200);
    expect(mine.rows.map((row: { id: number }) => row.id)).toContain(created.id);
    expect(mine.rows.every((row: Record<string, unknown>) => !("secret" in row))).toBe(true);
    expectProblem(await harness.http.get("/webhooks/abc").set(auth()), 404, "webhookNotFound");
    expectProblem(await harness.http.post(`/webhooks/${created.id}/deliveries/999999/retry`).set(auth()), 404, "deliveryNotFound");
    expectProblem(await harness.http.get(`/webhooks/${created.id}/deliveries/999999`).set(auth()), 404, "deliveryNotFound");
    expectProblem(await harness.http.get(`/webhooks/${created.id}/deliveries/1%20OR%201=1`).set(auth()), 404, "deliveryNotFound");
    await harness.http.get("/webhooks").expect(401);
  });

  it("refuses bad input with a 400 and a stable code", async () => {
    expectProblem(await harness.http.post("/webhooks").set(auth()).send({ url: "not a url" }), 400, "webhookUrlInvalid");
    expectProblem(await harness.http.post("/webhooks").set(auth()).send({ url: "ftp://example.com/x" }), 400, "webhookUrlInvalid");
    expectProblem(await harness.http.post("/webhooks").set(auth()).send({ url: "https://u:p@example.com/x" }), 400, "webhookUrlInvalid");
    expectProblem(
      await harness.http
        .post("/webhooks")
        .set(auth())
        .send({ url: "https://example.com", events: ["ticket.sold"] }),
      400,
      "validationFailed",
    );
    expectProblem(await harness.http.post("/webhooks").set(auth()).send({ url: "https://example.com", events: [] }), 400, "validationFailed");
    expectProblem(
      await harness.http
        .post("/webhooks")
        .set(auth())
        .send({ events: ["round.started"] }),
      400,
      "validationFailed",
    );
    expectProblem(await harness.http.get("/webhooks").query({ take: 1000 }).set(auth()), 400, "validationFailed");
    const { body: endpoint } = await harness.http.get("/webhooks").set(auth()).expect(200);
    const id = endpoint.rows[0].id;
    for (const query of [{ type: "ticket.sold" }, { status: "RETRYING" }, { status: ["PENDING", "FAILED"] }, { take: 101 }]) {
      expectProblem(await harness.http.get(`/webhooks/${id}/deliveries`).query(query).set(auth()), 400, "validationFailed");
    }
    for (const body of [{ events: ["ticket.sold"] }, { events: [] }, { events: "round.drawn" }, { description: "a\u202Eb" }]) {
      expectProblem(await harness.http.patch(`/webhooks/${id}`).set(auth()).send(body), 400, "validationFailed");
    }
  });

  it("without WEBHOOK_ALLOW_PRIVATE_URLS, refuses http and hosts resolving to loopback, private, link-local or metadata addresses", async () => {
    const strict = await startSiblingApp(harness, { webhooks: { ...harness.config.webhooks, allowPrivateUrls: false, deliveryEnabled: false } });
    try {
      const post = (url: string) => strict.http.post("/webhooks").set(auth()).send({ url });
      expectProblem(await post(receiver.url), 400, "webhookUrlInvalid");
      for (const url of [
        "https://127.0.0.1/hooks",
        "https://localhost:8443/hooks",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/x",
        "https://192.168.0.10/",
      ]) {
        const problem = expectProblem(await post(url), 400, "webhookUrlRefused");
        expect(problem.errors).toEqual([{ field: "url", message: "the url's host must resolve, and only to public addresses" }]);
      }
      expect((await strict.http.get("/webhooks").set(auth(otherKey)).expect(200)).body.count).toBe(0);
    } finally {
      await strict.close();
    }
  });
});
