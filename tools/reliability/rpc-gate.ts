import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Transaction } from "ethers";
import { Raffle__factory } from "@raffle/chain";

const raffleInterface = Raffle__factory.createInterface();

/** A transaction the gate saw on its way to the node. */
export interface GatedTransaction {
  /** Raffle function name (`endRound`, `startRound`), else the 4-byte selector. */
  call: string;
  hash: string;
  from: string;
  nonce: number;
}

export interface GateHooks {
  /** Before the node sees the transaction. False: it never reaches the node and the caller gets no answer. */
  before?(tx: GatedTransaction): boolean | Promise<boolean>;
  /** After the node accepted it and before the caller hears so: the place to cut the caller off or mine. */
  after?(tx: GatedTransaction): void | Promise<void>;
}

interface RpcRequest {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

interface RpcReply {
  id?: unknown;
  error?: unknown;
}

function describe(raw: string): GatedTransaction {
  const tx = Transaction.from(raw);
  const call = raffleInterface.parseTransaction({ data: tx.data })?.name ?? tx.data.slice(0, 10);
  return { call, hash: tx.hash!, from: tx.from!, nonce: tx.nonce };
}

/**
 * An HTTP JSON-RPC pass-through in front of a node that lets a test act at the exact moment a transaction is sent:
 * every `eth_sendRawTransaction` (alone or inside a batch) goes through `hooks` first. Everything else is forwarded
 * untouched. This is what makes the worker's kill points deterministic instead of timing guesses.
 */
export class RpcGate {
  hooks: GateHooks = {};
  readonly seen: GatedTransaction[] = [];
  private server?: http.Server;

  constructor(private readonly target: string) {}

  /** Listens on a free port of 127.0.0.1; resolves with the port. */
  async listen(): Promise<number> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        this.handle(Buffer.concat(chunks).toString(), response).catch(() => response.destroy());
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(body: string, response: http.ServerResponse): Promise<void> {
    const parsed = JSON.parse(body) as RpcRequest | RpcRequest[];
    const sends = (Array.isArray(parsed) ? parsed : [parsed])
      .filter((entry) => entry.method === "eth_sendRawTransaction")
      .map((entry) => ({ id: entry.id, tx: describe(String(entry.params?.[0])) }));
    for (const { tx } of sends) {
      this.seen.push(tx);
      if (this.hooks.before && !(await this.hooks.before(tx))) {
        response.destroy();
        return;
      }
    }
    const answer = await fetch(this.target, { method: "POST", headers: { "content-type": "application/json" }, body });
    const text = await answer.text();
    const replies = [JSON.parse(text) as RpcReply | RpcReply[]].flat();
    for (const { id, tx } of sends) {
      // Only transactions the node took: a refused one (nonce too low, ...) changed nothing.
      if (replies.some((reply) => reply.id === id && reply.error === undefined)) await this.hooks.after?.(tx);
    }
    if (response.destroyed) return;
    response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
  }
}
