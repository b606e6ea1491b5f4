import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

import { WebhookVerificationError, verifyWebhook } from "./index";

describe("verifyWebhook", () => {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const message = {
    id: "msg_0123456789abcdef0123456789abcdef",
    type: "ticket.purchased",
    removed: false,
    eventId: "31337:0xabc:3",
    chainId: 31337,
    contractId: 3,
    roundId: "1",
    blockNumber: 12,
    blockHash: `0x${"1".repeat(64)}`,
    txHash: `0x${"2".repeat(64)}`,
    logIndex: 3,
    createdAt: "2026-11-23T16:00:00.000Z",
    data: { roundId: "1", ticketId: "1000001", account: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc" },
  };
  const body = JSON.stringify(message);

  function headersFor(key: string, at = new Date(), id = message.id) {
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(key).sign(id, at, body),
    };
  }

  it("answers the message of a correctly signed request, from Node headers or fetch Headers", () => {
    expect(verifyWebhook(secret, headersFor(secret), body)).toEqual(message);
    const upper = Object.fromEntries(Object.entries(headersFor(secret)).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(secret, upper, Buffer.from(body))).toEqual(message);
    expect(verifyWebhook(secret, new Headers(headersFor(secret)), body)).toEqual(message);
  });

  it("accepts a signature by either secret during a rotation", () => {
    const previous = `whsec_${randomBytes(32).toString("base64")}`;
    const headers = headersFor(secret);
    headers["webhook-signature"] = `${headersFor(previous)["webhook-signature"]} ${headers["webhook-signature"]}`;
    expect(verifyWebhook(secret, headers, body).id).toBe(message.id);
  });

  it("throws on another secret, a changed body, a missing header or a stale timestamp", () => {
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(() => verifyWebhook(other, headersFor(secret), body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headersFor(secret), body.replace('"1000001"', '"1000002"'))).toThrow(WebhookVerificationError);
    const { "webhook-signature": _dropped, ...unsigned } = headersFor(secret);
    expect(() => verifyWebhook(secret, unsigned, body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headersFor(secret, new Date(Date.now() - 10 * 60_000)), body)).toThrow(WebhookVerificationError);
  });
});
