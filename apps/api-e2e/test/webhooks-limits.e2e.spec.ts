import { randomBytes } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Wallet } from "ethers";
import type { DataSource } from "typeorm";
import { openDatabase } from "@raffle/db";
import { eventually } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { expectProblem } from "./support/problem";
import { WebhookReceiver } from "./support/webhook-receiver";

const TIMEOUT_MS = 2_000;

/** A receiver that answers 200 after `delayMs`, and counts the requests it holds at once. */
async function startSlowReceiver(
  delayMs: number,
): Promise<{ url: string; received: () => number; mostAtOnce: () => number; close: () => Promise<void> }> {
  let received = 0;
  let atOnce = 0;
  let mostAtOnce = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    received += 1;
    atOnce += 1;
    mostAtOnce = Math.max(mostAtOnce, atOnce);
    setTimeout(() => {
      atOnce -= 1;
      response.writeHead(200).end("ok");
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    received: () => received,
    mostAtOnce: () => mostAtOnce,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The webhook limits of issue 27: delivery shared fairly between merchants, at most 16 endpoints per merchant, and
 * manual retries limited. Messages are written to the outbox directly, as the indexer writes them, so each test
 * controls exactly which merchant has what pending.
 */
describe("webhook limits", () => {
  let harness: ApiHarness;
  let db: DataSource;
  const fast = new WebhookReceiver();

  beforeAll(async () => {
    harness = await startApiHarness("webhooks_limits", {
      webhooks: fastWebhooks({ pollIntervalMs: 50, timeoutMs: TIMEOUT_MS, concurrency: 8, concurrencyPerMerchant: 2 }),
    });
    db = await openDatabase({ url: harness.database.url });
    await fast.start();
  });

  afterAll(async () => {
    await fast.close();
    await db?.destroy();
    await harness?.close();
  });

  /** A new merchant's key and merchant id. */
  async function newMerchant(): Promise<{ key: string; merchantId: number; auth: Record<string, string> }> {
    const wallet = Wallet.createRandom().address;
    const key = await harness.apiKey(wallet);
    const [{ id }] = await db.query(`SELECT id FROM merchant WHERE wallet = $1`, [wallet]);
    return { key, merchantId: id, auth: { Authorization: `Bearer ${key}` } };
  }

  async function createEndpoint(auth: Record<string, string>, url: string): Promise<number> {
    return (await harness.http.post("/webhooks").set(auth).send({ url }).expect(201)).body.id;
  }

  /** Writes one message of the merchant to these endpoints, as the indexer does; answers its id. */
  async function writeMessage(merchantId: number, endpointIds: number[]): Promise<string> {
    const id = `msg_${randomBytes(16).toString("hex")}`;
    const txHash = `0x${randomBytes(32).toString("hex")}`;
    const body = {
      id,
      type: "ticket.purchased",
      removed: false,
      eventId: `31337:${txHash}:0`,
      chainId: 31337,
      contractId: null,
      roundId: null,
      blockNumber: 1,
      blockHash: `0x${"0".repeat(64)}`,
      txHash,
      logIndex: 0,
      createdAt: new Date().toISOString(),
      data: {},
    };
    const [{ seq }] = await db.query(
      `INSERT INTO webhook_message (id, merchant_id, type, removed, event_id, chain_id, block_number, body)
       VALUES ($1, $2, 'ticket.purchased', false, $3, 31337, 1, $4) RETURNING seq`,
      [id, merchantId, body.eventId, JSON.stringify(body)],
    );
    await db.query(`INSERT INTO webhook_delivery (endpoint_id, message_id, seq) SELECT unnest($1::int[]), $2, $3`, [endpointIds, id, seq]);
    return id;
  }

  it("delivers another merchant's message within one timeout while one merchant's 8 receivers are slow", async () => {
    const slow = await startSlowReceiver(1_500);
    try {
      const a = await newMerchant();
      const b = await newMerchant();
      const slowEndpoints: number[] = [];
      for (let index = 0; index < 8; index += 1) slowEndpoints.push(await createEndpoint(a.auth, `${slow.url}/${index}`));
      const fastEndpoint = await createEndpoint(b.auth, fast.url);
      // Merchant A's backlog is older than B's message: oldest-first alone would send all of A's first.
      for (let message = 0; message < 5; message += 1) await writeMessage(a.merchantId, slowEndpoints);
      await eventually(async () => expect(slow.received()).toBeGreaterThan(0), 5_000);
      const written = Date.now();
      const messageId = await writeMessage(b.merchantId, [fastEndpoint]);
      await eventually(async () => expect(fast.delivered().map((message) => message.id)).toContain(messageId), 10_000, 20);
      const waitedMs = Date.now() - written;
      // Held back by no more than one delivery timeout (it waits for no slow attempt at all here).
      expect(waitedMs).toBeLessThan(TIMEOUT_MS);
      // Merchant A never holds more than its share of the slots.
      expect(slow.mostAtOnce()).toBeLessThanOrEqual(2);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it("lets a merchant register 16 endpoints and refuses the 17th with 409 webhookLimitReached, even when all arrive at once", async () => {
    const c = await newMerchant();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        harness.http
          .post("/webhooks")
          .set(c.auth)
          .send({ url: `${fast.url}/${index}` }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(16);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(14);
    for (const answer of refused) {
      expect(expectProblem(answer, 409, "webhookLimitReached").detail).toBe(
        "A merchant may register at most 16 webhook endpoints; delete one to add another.",
      );
    }
    const { body } = await harness.http.get("/webhooks").set(c.auth).expect(200);
    expect(body.count).toBe(16);
    // Another merchant is not affected; a deleted endpoint frees its place.
    await createEndpoint((await newMerchant()).auth, fast.url);
    await harness.http.delete(`/webhooks/${body.rows[0].id}`).set(c.auth).expect(200);
    await createEndpoint(c.auth, fast.url);
    expectProblem(await harness.http.post("/webhooks").set(c.auth).send({ url: fast.url }), 409, "webhookLimitReached");
  });

  it("limits manual retries: a delivery once a minute, an endpoint 10 a minute, delivered ones included, concurrent ones too", async () => {
    const d = await newMerchant();
    const endpoint = await createEndpoint(d.auth, fast.url);
    for (let message = 0; message < 12; message += 1) await writeMessage(d.merchantId, [endpoint]);
    const deliveries = await eventually(async () => {
      const { body } = await harness.http.get(`/webhooks/${endpoint}/deliveries`).set(d.auth).expect(200);
      expect(body.rows.map((row: { status: string }) => row.status)).toEqual(Array(12).fill("DELIVERED"));
      return body.rows as Array<{ id: string; attempts: number }>;
    }, 20_000);
    const sentBefore = fast.received.length;
    const retry = (deliveryId: string) => harness.http.post(`/webhooks/${endpoint}/deliveries/${deliveryId}/retry`).set(d.auth);

    const first = await retry(deliveries[0].id).expect(200);
    expect(first.body).toMatchObject({ status: "DELIVERED", attempts: deliveries[0].attempts + 1 });
    const again = await retry(deliveries[0].id);
    expect(expectProblem(again, 429, "retryLimited").detail).toBe("Manual retry refused: this delivery was retried by hand less than 60 s ago.");
    expect(Number(again.headers["retry-after"])).toBeGreaterThanOrEqual(59);
    expect(Number(again.headers["retry-after"])).toBeLessThanOrEqual(60);

    // Eleven more at once, each of another delivery: nine fit the endpoint's minute, two do not.
    const answers = await Promise.all(deliveries.slice(1).map((delivery) => retry(delivery.id)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(9).fill(200), 429, 429]);
    for (const answer of answers.filter((response) => response.status === 429)) {
      expect(expectProblem(answer, 429, "retryLimited").detail).toBe("Manual retry refused: this endpoint had 10 manual retries in the last minute.");
      expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers["retry-after"])).toBeLessThanOrEqual(60);
    }
    // Exactly the ten accepted retries reached the receiver.
    expect(fast.received.length - sentBefore).toBe(10);
    // Another endpoint's budget is its own.
    const other = await createEndpoint(d.auth, fast.url);
    await writeMessage(d.merchantId, [other]);
    const [otherDelivery] = (await harness.http.get(`/webhooks/${other}/deliveries`).set(d.auth).expect(200)).body.rows;
    await retry(otherDelivery.id).expect(404);
    await harness.http.post(`/webhooks/${other}/deliveries/${otherDelivery.id}/retry`).set(d.auth).expect(200);
  }, 60_000);
});
