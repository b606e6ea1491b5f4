import WebSocket from "ws";

import type { IndexerLogger } from "./logger";

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** A connection that answers no ping within this time is dead even if TCP never said so (a dropped NAT entry). */
const PING_INTERVAL_MS = 30_000;
const SUBSCRIBE_ID = 1;

/**
 * Follows the node's new heads over a WebSocket (`eth_subscribe` to `newHeads`) and reports each block number. It only
 * shortens the wait for a new block: its user keeps polling, so while the socket is down (it reconnects with backoff)
 * nothing is missed, only seen later.
 */
export class HeadWatcher {
  private socket: WebSocket | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private retryMs = FIRST_RETRY_MS;
  private running = false;
  /** Whether this outage was logged: a node down for an hour gives one warning, not one per retry. */
  private outageLogged = false;
  /** Only the host is ever logged: a provider's URL often carries the API key in its path or query. */
  private readonly host: string;

  constructor(
    private readonly url: string,
    private readonly onHead: (blockNumber: number) => void,
    private readonly logger: IndexerLogger,
  ) {
    const parsed = new URL(url);
    // Checked here, not left to the socket: its error would name the whole URL, and come from a retry timer.
    if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:")
      throw new Error(`the head watcher needs a ws:// or wss:// URL, got ${parsed.protocol}//`);
    this.host = parsed.host;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer ?? undefined);
    clearInterval(this.pingTimer ?? undefined);
    this.retryTimer = this.pingTimer = null;
    // terminate(), not close(): close() waits up to 30 s, on a timer, for the server's closing handshake.
    this.socket?.terminate();
    this.socket = null;
  }

  private connect(): void {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    let alive = true;
    socket.on("open", () => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "eth_subscribe", params: ["newHeads"] }));
      this.pingTimer = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_INTERVAL_MS);
    });
    socket.on("pong", () => (alive = true));
    socket.on("message", (data) => this.receive(socket, String(data)));
    // Every failure ends in "close", where the reconnect is planned; this listener only keeps the reason (and must
    // exist: an "error" event without one would crash the process).
    socket.on("error", (error) => this.reportOutage(error.message));
    socket.on("close", () => this.reconnectLater(socket));
  }

  private receive(socket: WebSocket, text: string): void {
    let message: { id?: number; error?: { message?: string }; method?: string; params?: { result?: { number?: string } } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.id === SUBSCRIBE_ID && message.error) {
      this.reportOutage(`eth_subscribe refused: ${message.error.message}`);
      socket.terminate();
    } else if (message.id === SUBSCRIBE_ID) {
      this.logger.info("following new heads", { host: this.host });
      this.outageLogged = false;
      this.retryMs = FIRST_RETRY_MS;
    } else if (message.method === "eth_subscription" && message.params?.result?.number) {
      this.onHead(Number(message.params.result.number));
    }
  }

  private reportOutage(reason: string): void {
    if (!this.running || this.outageLogged) return;
    this.outageLogged = true;
    this.logger.warn("new-head subscription down; polling until it is back", { host: this.host, reason });
  }

  private reconnectLater(socket: WebSocket): void {
    if (!this.running || socket !== this.socket) return;
    clearInterval(this.pingTimer ?? undefined);
    this.reportOutage("connection closed");
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
