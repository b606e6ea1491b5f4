import * as net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP pass-through in front of a node (HTTP and WebSocket JSON-RPC alike) that can be cut and restored: cut, it
 * drops every open connection and refuses new ones, as a node that went down does to its clients; the node itself
 * keeps running with its state (a restarted Hardhat node would not), and the gate's address never changes.
 */
export class TcpGate {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();

  /** `port` 0 (the default) takes a free port at the first `open()`, kept for every later one. */
  constructor(
    private readonly target: { host: string; port: number },
    private port = 0,
  ) {}

  get rpcUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Opens the gate (again); resolves once it listens. */
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
