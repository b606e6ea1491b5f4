import { buyTicket, deployTestRaffle } from "@raffle/chain/testing";
import { eventually } from "@raffle/testing";

import { fastWebhooks, startApiHarness, type ApiHarness } from "./support/api-harness";
import { indexedRaffleId } from "./support/indexed-raffle";
import { WebhookReceiver } from "./support/webhook-receiver";

/** A reorg that removes an announced event sends a retraction: `removed: true`, the same eventId and data, a new id. */
describe("webhooks across a reorg", () => {
  let harness: ApiHarness;
  let key: string;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    harness = await startApiHarness("webhooks_reorg", {
      webhooks: fastWebhooks({ pollIntervalMs: 50, retryBaseMs: 100 }),
    });
    key = await harness.apiKey(await harness.world.merchant.getAddress());
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
    await harness?.close();
  });

  it("retracts the purchase of a removed block and announces the new branch's", async () => {
    const { world, node } = harness;
    const { body: created } = await harness.http
      .post("/webhooks")
      .set({ Authorization: `Bearer ${key}` })
      .send({ url: receiver.url })
      .expect(201);
    receiver.secrets = [created.secret];
    const raffle = await deployTestRaffle(world, "ERC20");
    await indexedRaffleId(harness, key, raffle.raffle);
    await eventually(async () => expect(receiver.delivered().map((message) => message.body.type)).toContain("round.started"), 20_000);

    const snapshot: string = await node.provider.send("evm_snapshot", []);
    const [alice, bob] = world.players;
    await buyTicket(world, raffle, alice, 41n);
    const announced = await eventually(async () => {
      const found = receiver.delivered().find((message) => message.body.type === "ticket.purchased");
      if (!found) throw new Error("purchase not delivered yet");
      return found;
    }, 20_000);

    // The branch with that purchase disappears; the new one is longer and holds another purchase.
    expect(await node.provider.send("evm_revert", [snapshot])).toBe(true);
    await buyTicket(world, raffle, bob, 42n);
    for (let i = 0; i < 5; i += 1) await node.provider.send("evm_mine", []);

    const retraction = await eventually(async () => {
      const found = receiver.delivered().find((message) => message.body.removed);
      if (!found) throw new Error("retraction not delivered yet");
      return found;
    }, 20_000);
    expect(retraction.verified).toBe(true);
    expect(retraction.id).not.toBe(announced.id);
    expect(retraction.body).toEqual({ ...announced.body, id: retraction.id, removed: true, createdAt: expect.any(String) });
    expect(receiver.delivered().filter((message) => message.body.removed)).toHaveLength(1);

    const replacement = await eventually(async () => {
      const found = receiver.delivered().find((message) => message.body.type === "ticket.purchased" && message.body.data.externalId === "42");
      if (!found) throw new Error("new branch's purchase not delivered yet");
      return found;
    }, 20_000);
    expect(replacement.body.removed).toBe(false);
    expect(replacement.body.eventId).not.toBe(announced.body.eventId);
    // The retraction goes out before anything of the new branch, in the order the chain took it back.
    const order = receiver.delivered().map((message) => message.id);
    expect(order.indexOf(retraction.id)).toBeLessThan(order.indexOf(replacement.id));
  }, 90_000);
});
