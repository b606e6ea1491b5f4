import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

import type { Reception } from "./launch-accounting";

/** A request as the receiver saw it: the accounting's fields, whether its signature checked out, and its answer. */
export interface Received extends Reception {
  verified: boolean;
  /** 200, or null for a request held open and never answered (its sender was killed meanwhile). */
  status: number | null;
  /** The sender's end of the connection (its local port), to find which process sent it. */
  peerPort: number;
}

/**
 * The game backend's endpoint of the launch run, on 127.0.0.1: records every request (webhook-id, type, transaction),
 * verifies its Standard Webhooks signature and answers 200 at once. `holdNext()` keeps the next request open without
 * an answer, so a delivery worker can be killed in the middle of a delivery (sent, never answered, never recorded).
 */
export class LaunchReceiver {
  readonly received: Received[] = [];
  secret = "";
  private server: http.Server | null = null;
  private held: http.ServerResponse[] = [];
  private holding: ((peerPort: number) => void) | null = null;

  async start(port: number): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        let verified = false;
        try {
          new Webhook(this.secret).verify(raw, headers);
          verified = true;
        } catch {
          // Counted as unverified; the run fails on any.
        }
        const body = JSON.parse(raw) as { type?: string; txHash?: string | null; removed?: boolean };
        const peerPort = request.socket.remotePort ?? 0;
        const holding = this.holding;
        this.received.push({
          id: headers["webhook-id"] ?? "",
          at: Date.now(),
          type: body.type ?? "",
          txHash: body.txHash ?? null,
          removed: body.removed === true,
          verified,
          status: holding ? null : 200,
          peerPort,
        });
        if (holding) {
          this.holding = null;
          this.held.push(response);
          holding(peerPort);
          return;
        }
        response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", resolve);
    });
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Resolves with the sender's port of the next request, which stays unanswered. */
  holdNext(): Promise<number> {
    return new Promise((resolve) => (this.holding = resolve));
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const response of this.held) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Which of `pids` owns the TCP connection from 127.0.0.1:`localPort` to `peerPort` (Linux: /proc/net/tcp names the
 * socket's inode; /proc/<pid>/fd links to it). Answers undefined when none does.
 */
export function socketOwner(localPort: number, peerPort: number, pids: number[]): number | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
  const line = fs
    .readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((entry) => entry.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(`:${hex(localPort)}`) && fields[2]?.endsWith(`:${hex(peerPort)}`));
  const inode = line?.[9];
  if (!inode || inode === "0") return undefined;
  return pids.find((pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
