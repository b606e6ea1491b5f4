import { Webhook } from "standardwebhooks";

/**
 * The Standard Webhooks headers of a message. During a secret rotation's grace period every live secret signs, so
 * the header holds `v1,<sig>` once per secret (space separated) and a receiver holding either one verifies.
 */
export function signedHeaders(secrets: string[], messageId: string, timestamp: Date, body: string): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body));
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
