import { Webhook } from "standardwebhooks";

/**
 * Signs messages with Standard Webhooks headers. During a secret rotation's grace period every live secret signs, so
 * the header holds `v1,<sig>` once per secret (space separated) and a receiver holding either one verifies. Built once
 * per run of an endpoint's messages: the secrets are decoded once, not per message.
 */
export class MessageSigner {
  private readonly hooks: Webhook[];

  constructor(secrets: string[]) {
    this.hooks = secrets.map((secret) => new Webhook(secret));
  }

  headers(messageId: string, timestamp: Date, body: string): Record<string, string> {
    return {
      "webhook-id": messageId,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": this.hooks.map((hook) => hook.sign(messageId, timestamp, body)).join(" "),
    };
  }
}

/** The Standard Webhooks headers of one message (see MessageSigner). */
export function signedHeaders(secrets: string[], messageId: string, timestamp: Date, body: string): Record<string, string> {
  return new MessageSigner(secrets).headers(messageId, timestamp, body);
}
