import * as http from "node:http";
import type { AddressInfo } from "node:net";

import type { ChainHealth } from "./chain-runner";
import type { WorkerMetrics } from "./worker-metrics";
import type { RaffleRunRecord } from "./run-status";

export interface HealthReport {
  /** `unavailable` (HTTP 503): a chain's node or the API cannot be reached; `degraded` (200): some raffle's run failed. */
  status: "ok" | "degraded" | "unavailable";
  merchant: string;
  startedAt: string;
  /** One entry per configured chain, in CHAIN_IDS order. */
  chains: ChainHealth[];
  /** The last run of every raffle of every chain (each record names its chainId). */
  raffles: RaffleRunRecord[];
}

const UNHEALTHY: ReadonlySet<string> = new Set(["failed", "failedPermanently", "invalidSchedule"]);

/**
 * `degraded` too while a chain's relayer cannot claim jobs from the API (each chain's `relayer` shows its last claim).
 * `unavailable` when the worker cannot do its job: a chain does not run (node unreachable, or stopped by a fatal
 * error) or a chain's last raffle list refresh failed (the API is unreachable or refuses the key). `degraded` when
 * only some raffle's last run did not succeed: that is the raffle's problem, which a restart would not fix.
 */
export function overallStatus(chains: ChainHealth[], raffles: RaffleRunRecord[]): HealthReport["status"] {
  if (chains.some((chain) => chain.state !== "running" || !chain.reachable || chain.lastRefresh?.ok === false)) return "unavailable";
  // A relayer that cannot claim leaves the rotations running: degraded, not a reason to restart the worker.
  if (chains.some((chain) => chain.relayer?.lastClaim?.ok === false)) return "degraded";
  return raffles.some((raffle) => UNHEALTHY.has(raffle.status)) ? "degraded" : "ok";
}

/**
 * `GET /health`: the last run of every raffle and every chain's state; 503 while the worker cannot do its job (a
 * chain's node or the API unreachable), 200 otherwise, `degraded` included (a misconfigured raffle never gets the
 * process restarted). `GET /metrics`: Prometheus metrics. Plain node:http: two routes need no framework.
 */
export class HealthServer {
  private server?: http.Server;

  constructor(
    private readonly report: () => HealthReport,
    private readonly port: number,
    private readonly host: string,
    private readonly metrics?: WorkerMetrics,
  ) {}

  /** Starts listening and resolves with the bound port (useful with port 0). */
  listen(): Promise<number> {
    const server = http.createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0];
      if (request.method === "GET" && path === "/metrics" && this.metrics) {
        const metrics = this.metrics;
        metrics.exposition().then(
          (text) => response.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" }).end(text),
          () => response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ code: "internalError" })),
        );
        return;
      }
      if (request.method !== "GET" || path !== "/health") {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ code: "notFound" }));
        return;
      }
      const report = this.report();
      const status = report.status === "unavailable" ? 503 : 200;
      response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(report));
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
