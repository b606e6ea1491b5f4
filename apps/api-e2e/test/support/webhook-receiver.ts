import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedMessage {
  id: string;
  headers: Record<string, string>;
  raw: string;
  body: Record<string, unknown> & {
    id: string;
    type: string;
    removed: boolean;
    eventId: string;
    blockNumber: number;
    logIndex: number;
    data: Record<string, unknown>;
  };
  /** The status this receiver answered. */
  status: number;
  /** Verified with the secret(s) known when it arrived. */
  verified: boolean;
}

/**
 * A game backend's webhook endpoint on 127.0.0.1: records every request, verifies its signature with the secret it is
 * given, and answers what `respond` says (200 by default). `close()` stops listening (the receiver is "down").
 */
export class WebhookReceiver {
  readonly received: ReceivedMessage[] = [];
  secrets: string[] = [];
  respond: (body: ReceivedMessage["body"], attempt: number) => number = () => 200;
  /** The body of its answer of that status. */
  answer: (status: number) => string = (status) => (status < 300 ? "ok" : "no");
  private server: http.Server | null = null;
  private port = 0;

  async start(port = 0): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        const verified = this.secrets.some((secret) => {
          try {
            new Webhook(secret).verify(raw, headers);
            return true;
          } catch {
            return false;
          }
        });
        const body = JSON.parse(raw) as ReceivedMessage["body"];
        const attempt = this.received.filter((message) => message.id === headers["webhook-id"]).length + 1;
        const status = this.respond(body, attempt);
        this.received.push({ id: headers["webhook-id"], headers, raw, body, status, verified });
        response.writeHead(status, { "content-type": "text/plain" }).end(this.answer(status));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Messages answered 2xx, once per id. */
  delivered(): ReceivedMessage[] {
    return this.received.filter((message) => message.status >= 200 && message.status < 300);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
