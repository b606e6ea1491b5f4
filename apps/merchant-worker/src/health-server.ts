import * as http from "node:http";
import type { AddressInfo } from "node:net";

import type { ChainHealth } from "./chain-runner";
import type { RaffleRunRecord } from "./run-status";

export interface HealthReport {
  status: "ok" | "degraded";
  merchant: string;
  startedAt: string;
  /** One entry per configured chain, in CHAIN_IDS order. */
  chains: ChainHealth[];
  /** The last run of every raffle of every chain (each record names its chainId). */
  raffles: RaffleRunRecord[];
}

const UNHEALTHY: ReadonlySet<string> = new Set(["failed", "failedPermanently", "invalidSchedule"]);

/**
 * `degraded` when a chain does not run (node unreachable, or stopped by a fatal error), when a chain's last list
 * refresh failed, or when any raffle's last run did not succeed.
 */
export function overallStatus(chains: ChainHealth[], raffles: RaffleRunRecord[]): HealthReport["status"] {
  if (chains.some((chain) => chain.state !== "running" || !chain.reachable || chain.lastRefresh?.ok === false)) return "degraded";
  return raffles.some((raffle) => UNHEALTHY.has(raffle.status)) ? "degraded" : "ok";
}

/**
 * `GET /health`: the worker answers (always 200, so a misconfigured raffle never gets the process restarted) with
 * the last run of every raffle. Plain node:http: one route needs no framework.
 */
export class HealthServer {
  private server?: http.Server;

  constructor(
    private readonly report: () => HealthReport,
    private readonly port: number,
    private readonly host = "0.0.0.0",
  ) {}

  /** Starts listening and resolves with the bound port (useful with port 0). */
  listen(): Promise<number> {
    const server = http.createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0];
      if (request.method !== "GET" || path !== "/health") {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "notFound" }));
        return;
      }
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(this.report()));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, this.host, () => resolve((server.address() as AddressInfo).port));
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
