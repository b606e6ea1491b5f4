import { deployTestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { WebhookReceiver } from "./support/webhook-receiver";

/** Retries end: a delivery past the retry horizon is FAILED, an endpoint failing long enough is disabled. */
describe("webhook failure handling", () => {
  let harness: ApiHarness;
  let key: string;
  const receiver = new WebhookReceiver();
  const auth = () => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    harness = await startApiHarness("webhooks_failure", {
      webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100, retryMaxDelayMs: 200, retryHorizonMs: 2500, disableAfterMs: 1000 }),
    });
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  it("marks a delivery FAILED after the retry horizon, disables an endpoint failing for long, and a manual retry that succeeds re-enables it", async () => {
    receiver.respond = () => 500;
    const { body: created } = await harness.http.post("/webhooks").set(auth()).send({ url: receiver.url }).expect(201);
    receiver.secrets = [created.secret];
    await deployTestRaffle(harness.world, "ERC20");

    // Failing since the first attempt; disabled once it has failed for WEBHOOK_DISABLE_AFTER_MS.
    const disabled = await eventually(async () => {
      const { body } = await harness.http.get("/webhooks").set(auth()).expect(200);
      expect(body.rows[0]).toMatchObject({ id: created.id, disabled: true, disabledAt: expect.any(String), failingSince: expect.any(String) });
      return body.rows[0];
    }, 20_000);
    expect(Date.parse(disabled.disabledAt) - Date.parse(disabled.failingSince)).toBeGreaterThanOrEqual(1_000);

    // Past the retry horizon every delivery is FAILED; the first one was attempted several times, the second one,
    // held back behind it (chain order), never before the first one's last attempt.
    const rows = await eventually(async () => {
      const { body } = await harness.http.get(`/webhooks/${created.id}/deliveries`).set(auth()).expect(200);
      expect(body.rows.map((row: { type: string; status: string }) => [row.type, row.status])).toEqual([
        ["round.started", "FAILED"],
        ["raffle.deployed", "FAILED"],
      ]);
      return body.rows;
    }, 20_000);
    const failed = rows[1];
    expect(failed).toMatchObject({ failed: true, delivered: false, lastStatusCode: 500, nextAttemptAt: null });
    expect(failed.attempts).toBeGreaterThanOrEqual(2);
    expect(receiver.received.filter((message) => message.id === failed.messageId)).toHaveLength(failed.attempts);
    const firstOfNext = receiver.received.findIndex((message) => message.body.type === "round.started");
    const lastOfFirst = receiver.received.map((message) => message.id).lastIndexOf(failed.messageId);
    expect(firstOfNext === -1 || firstOfNext > lastOfFirst).toBe(true);
    const sentWhenDisabled = receiver.received.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.length).toBe(sentWhenDisabled);

    receiver.respond = () => 204;
    const { body: retried } = await harness.http.post(`/webhooks/${created.id}/deliveries/${failed.id}/retry`).set(auth()).expect(200);
    expect(retried).toMatchObject({ status: "DELIVERED", delivered: true, failed: false, lastStatusCode: 204, attempts: failed.attempts + 1 });
    const { body: endpoint } = await harness.http.get(`/webhooks/${created.id}`).set(auth()).expect(200);
    expect(endpoint).toMatchObject({ disabled: false, disabledAt: null, failingSince: null });
  }, 60_000);
});
