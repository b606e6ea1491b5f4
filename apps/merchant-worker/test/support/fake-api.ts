import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeApi {
  url: string;
  port: number;
  requests: Array<{ url: string; authorization?: string }>;
  /** Raffle contract rows served by `GET /raffle/contracts` (paged by skip/take like the real API). */
  rows: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A tiny stand-in for `GET /raffle/contracts`, for unit-level cases (paging, backoff, bad schedules). */
export async function startFakeApi(options: { port?: number; apiKey?: string; rows?: Array<Record<string, unknown>> } = {}): Promise<FakeApi> {
  const api: Omit<FakeApi, "url" | "port" | "close"> = { requests: [], rows: options.rows ?? [] };
  const server = http.createServer((request, response) => {
    api.requests.push({ url: request.url ?? "", authorization: request.headers.authorization });
    const url = new URL(request.url ?? "/", "http://localhost");
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      response.writeHead(401, { "content-type": "application/problem+json" }).end(JSON.stringify({ code: "unauthorized", statusCode: 401 }));
      return;
    }
    if (url.pathname !== "/raffle/contracts") {
      response.writeHead(404).end();
      return;
    }
    const chainId = Number(url.searchParams.get("chainId"));
    const rows = api.rows.filter((row) => row.chainId === chainId);
    const skip = Number(url.searchParams.get("skip") ?? 0);
    const take = Number(url.searchParams.get("take") ?? 25);
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ rows: rows.slice(skip, skip + take), count: rows.length }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return Object.assign(api, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

export function raffleRow(id: number, schedule: unknown, chainId = 31337): Record<string, unknown> {
  return {
    id,
    address: `0x${id.toString(16).padStart(40, "0")}`,
    chainId,
    parameters: { timeLagBeforeRelease: "86400", commission: "1000", schedule, roundId: 1 },
    merchant: { id: 1, wallet: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
  };
}
