import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RpcProxy {
  url: string;
  /** The JSON-RPC methods of each HTTP request, in the order the requests came (a batch is one request). */
  requests: string[][];
  /** How many calls of `method` went through, batched or not. */
  calls(method: string): number;
  close(): Promise<void>;
}

/** A JSON-RPC proxy in front of a node that keeps what the indexer really asks it. */
export async function rpcProxy(target: string): Promise<RpcProxy> {
  const requests: string[][] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const parsed = JSON.parse(body) as { method?: string } | Array<{ method?: string }>;
      requests.push((Array.isArray(parsed) ? parsed : [parsed]).map((call) => String(call.method)));
      const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    calls: (method) => requests.reduce((sum, methods) => sum + methods.filter((each) => each === method).length, 0),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
