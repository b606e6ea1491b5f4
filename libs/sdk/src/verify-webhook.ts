import { Webhook, WebhookVerificationError } from "standardwebhooks";

import type { WebhookMessage } from "./types";

export { WebhookVerificationError };

function isFetchHeaders(headers: object): headers is Headers {
  return typeof (headers as Headers).get === "function" && typeof (headers as Headers).forEach === "function";
}

/**
 * Verifies a webhook request of the raffle API (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and answers its message. Pass the endpoint's `whsec_...` secret, the request headers (a Node
 * `IncomingHttpHeaders` object or fetch `Headers`) and the raw body exactly as received, not re-serialized JSON.
 * Throws WebhookVerificationError on a bad or missing signature, or a timestamp more than 5 minutes away. Delivery is
 * at least once: use the message's `id` to ignore one seen before.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  body: string | Buffer,
): WebhookMessage {
  const entries: Array<[string, string | string[] | undefined]> = [];
  if (isFetchHeaders(headers)) headers.forEach((value, name) => entries.push([name, value]));
  else entries.push(...Object.entries(headers));
  const plain: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return new Webhook(secret).verify(body, plain) as WebhookMessage;
}
