/**
 * The demo's game backend: a small HTTP server on 127.0.0.1 that the demo registers as a webhook endpoint
 * (`POST /webhooks`), then prints every message it receives, verified with the SDK's `verifyWebhook`. The local stack
 * allows private URLs (WEBHOOK_ALLOW_PRIVATE_URLS=true), which is what lets a 127.0.0.1 endpoint be registered.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook, type WebhookMessage } from "@raffle/sdk";

export interface DemoWebhookReceiver {
  /** Waits (a few seconds at most) until the API has nothing pending for the endpoint, then deletes it and stops. */
  stop(): Promise<void>;
}

function describe(message: WebhookMessage): string {
  const data = message.data as Record<string, unknown>;
  const facts = ["ticketId", "account", "winner", "amount", "externalId"]
    .filter((key) => data[key] !== undefined)
    .map((key) => `${key} ${String(data[key])}`)
    .join(", ");
  return `${message.removed ? "REMOVED " : ""}${message.type} contract #${message.contractId ?? "-"} round ${message.roundId ?? "-"}${facts ? ` (${facts})` : ""}`;
}

export async function startDemoWebhookReceiver(apiUrl: string, apiKey: string, say: (line: string) => void): Promise<DemoWebhookReceiver> {
  let secret = "";
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        const message = verifyWebhook(secret, request.headers, Buffer.concat(chunks));
        say(`   [webhook ✓ signature] ${describe(message)}  id ${message.id}`);
        response.writeHead(204).end();
      } catch (error) {
        say(`   [webhook ✗] refused a request: ${error instanceof Error ? error.message : String(error)}`);
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const created = await fetch(`${apiUrl}/webhooks`, { method: "POST", headers, body: JSON.stringify({ url, description: "npm run demo" }) });
  const body = (await created.json()) as { id: number; secret: string; code?: string; detail?: string };
  if (created.status !== 201) {
    server.close();
    throw new Error(`registering the demo webhook failed: ${created.status} ${body.code ?? ""} ${body.detail ?? ""}`);
  }
  secret = body.secret;
  say(`0. A game backend listens for webhooks on ${url} (webhook #${body.id}, every event type; each message is verified)`);
  return {
    stop: async () => {
      try {
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const page = (await fetch(`${apiUrl}/webhooks/${body.id}/deliveries?take=100`, { headers }).then((answer) => answer.json())) as {
            rows?: Array<{ status: string }>;
          };
          if (!page.rows?.some((row) => row.status === "PENDING")) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        // The endpoint goes whatever happened above: left behind, it would fail its deliveries and be retried for days.
        const deleted = await fetch(`${apiUrl}/webhooks/${body.id}`, { method: "DELETE", headers }).catch(() => null);
        if (!deleted?.ok) say(`   could not delete webhook #${body.id}: delete it in the console or with DELETE /webhooks/${body.id}`);
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
