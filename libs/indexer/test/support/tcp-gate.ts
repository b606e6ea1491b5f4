import * as net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP pass-through in front of a node (HTTP and WebSocket JSON-RPC alike) that a test can cut and restore: cut, it
 * drops every open connection and refuses new ones, as a node that went down does to its clients; the node itself
 * keeps running with its state, which a restarted Hardhat node would not. (tools/reliability/tcp-proxy.ts does the
 * same for the reliability scripts; a library's tests cannot import from tools/.)
 */
export class TcpGate {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  get rpcUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Opens the gate; the first call picks a free port, later calls reopen on the same one. */
  async open(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Cuts every client off: open connections are dropped, new ones refused, until `open()`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
