import { getSchemaPath, type OpenAPIObject } from "@nestjs/swagger";

import { WebhookMessageDto } from "./webhooks.dto";

const HEADERS = [
  [
    "webhook-id",
    "The message id: the body's `id`. The same on every retry of the message; ignore an id seen before.",
    "msg_5f0c1e2d3c4b5a69788796a5b4c3d2e1",
  ],
  ["webhook-timestamp", "Unix seconds when this attempt was signed; refuse one far from now (the SDK allows 5 minutes).", "1795536000"],
  [
    "webhook-signature",
    "`v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret (base64 after `whsec_`); during a rotation's grace period one per secret, space separated.",
    "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  ],
] as const;

/**
 * OpenAPI 3.0 has no top-level `webhooks`: the messages are documented as the callback of `createWebhook` (POSTed to the
 * registered `url`), with their schema, the Standard Webhooks headers and how answers are treated.
 */
export function describeWebhookMessages(document: OpenAPIObject): void {
  const create = document.paths["/webhooks"]?.post;
  if (!create) return;
  create.callbacks = {
    webhookMessage: {
      "{$request.body#/url}": {
        post: {
          summary: "A signed message about one chain event of the merchant's raffles, POSTed to the endpoint's URL.",
          description:
            "Delivered at least once, per endpoint in chain order. Verify the signature over the raw body before parsing (the SDK's `verifyWebhook`). A message with `removed: true` retracts the earlier one with the same `eventId` (a reorg removed the event).",
          parameters: HEADERS.map(([name, description, example]) => ({
            name,
            in: "header" as const,
            required: true,
            description,
            schema: { type: "string" },
            example,
          })),
          requestBody: { required: true, content: { "application/json": { schema: { $ref: getSchemaPath(WebhookMessageDto) } } } },
          responses: {
            "2XX": { description: "The message is acknowledged and will not be sent again (but for a manual retry)." },
            "4XX": {
              description:
                "Not acknowledged: retried with exponential backoff for 24 hours, like any non-2xx answer, timeout (10 s) or connection error.",
            },
            "5XX": { description: "Not acknowledged: retried the same way." },
          },
        },
      },
    },
  };
}
