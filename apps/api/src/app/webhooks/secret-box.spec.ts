import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

import { retryDelayMs } from "./delivery-schedule";
import { SecretBox, newWebhookSecret } from "./secret-box";
import { signedHeaders } from "./webhook-signature";

describe("webhook secrets and signatures", () => {
  it("seals secrets with AES-256-GCM: only the same key opens them, and a changed byte is detected", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from(Buffer.from(parts[3], "base64").map((byte, i) => (i === 0 ? byte ^ 1 : byte))).toString("base64");
    expect(() => box.open(parts.join("."))).toThrow();
  });

  it("signs as Standard Webhooks verifies, once per live secret", () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ id: "msg_1", type: "round.started" });
    const headers = signedHeaders([current, previous], "msg_1", new Date(), body);
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace("round", "ticket"), headers)).toThrow();
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(retryDelayMs(1, 1_000, 60_000, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1_000, 60_000, () => 1)).toBe(1_000);
    expect(retryDelayMs(4, 1_000, 60_000, () => 1)).toBe(8_000);
    expect(retryDelayMs(40, 1_000, 60_000, () => 1)).toBe(60_000);
  });
});
