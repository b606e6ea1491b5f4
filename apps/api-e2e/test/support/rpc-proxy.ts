import * as http from "node:http";
import type { AddressInfo } from "node:net";

interface JsonRpcMessage {
  id?: unknown;
  method?: string;
  result?: unknown;
}

/**
 * A JSON-RPC proxy in front of a node that can pretend the node serves another chain (answers eth_chainId itself), or
 * that the node is down (drops every connection) while the node itself keeps its state.
 */
export interface RpcProxy {
  url: string;
  /** A hex chain id to answer eth_chainId with, or null to pass the node's answer through. */
  pretendChainId(chainId: string | null): void;
  /** While true, every request's connection is dropped unanswered, as by a node that went away. */
  pretendDown(down: boolean): void;
  /** JSON-RPC calls passed to the node so far (each call of a batch counted). */
  calls(): number;
  close(): Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let chainId: string | null = null;
  let down = false;
  let calls = 0;
  const server = http.createServer((request, response) => {
    if (down) {
      request.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      try {
        const body = Buffer.concat(chunks).toString();
        const message = JSON.parse(body) as JsonRpcMessage | JsonRpcMessage[];
        calls += Array.isArray(message) ? message.length : 1;
        const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
        let answer = await upstream.text();
        if (chainId !== null) {
          const sent = JSON.parse(body) as JsonRpcMessage | JsonRpcMessage[];
          const asked = new Set((Array.isArray(sent) ? sent : [sent]).filter((m) => m.method === "eth_chainId").map((m) => JSON.stringify(m.id)));
          if (asked.size > 0) {
            const received = JSON.parse(answer) as JsonRpcMessage | JsonRpcMessage[];
            const patch = (message: JsonRpcMessage) => (asked.has(JSON.stringify(message.id)) ? { ...message, result: chainId } : message);
            answer = JSON.stringify(Array.isArray(received) ? received.map(patch) : patch(received));
          }
        }
        response.writeHead(upstream.status, { "content-type": "application/json" }).end(answer);
      } catch (error) {
        response.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pretendChainId: (value) => (chainId = value),
    pretendDown: (value) => (down = value),
    calls: () => calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
