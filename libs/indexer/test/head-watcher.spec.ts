import { WebSocketServer } from "ws";
import { startTestNode, type HardhatNode } from "@raffle/chain/testing";
import { freePort } from "@raffle/testing";

import { HeadWatcher } from "../src/head-watcher";
import type { IndexerLogger } from "../src/logger";

/** A logger that keeps what it was told, so a test can wait for a line. */
function recordingLogger(): IndexerLogger & { lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  return {
    lines,
    info: (message, fields) => lines.push({ level: "info", message, fields }),
    warn: (message, fields) => lines.push({ level: "warn", message, fields }),
    error: (message, fields) => lines.push({ level: "error", message, fields }),
  };
}

async function waitUntil(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Timers and TCP sockets this process holds (Node's own view), to show that stop() leaves none behind. Jest runs
 * timers of its own, so timers are compared just before and after a synchronous stop(), not across a whole test.
 */
function openHandles(kind: "timers" | "sockets"): number {
  return process.getActiveResourcesInfo().filter((name) => (kind === "timers" ? name === "Timeout" : name.startsWith("TCP"))).length;
}

describe(`HeadWatcher against a ${process.env.TEST_NODE ?? "hardhat"} node`, () => {
  let node: HardhatNode;

  beforeAll(async () => {
    node = await startTestNode();
  });

  afterAll(async () => {
    await node?.stop();
  });

  it("reports each mined block, and resubscribes when the node comes back on the same port", async () => {
    const heads: number[] = [];
    const logger = recordingLogger();
    const watcher = new HeadWatcher(node.wsUrl, (blockNumber) => heads.push(blockNumber), logger);
    try {
      watcher.start();
      await waitUntil(() => logger.lines.some((line) => line.message === "following new heads"));
      await node.provider.send("evm_mine", []);
      const mined = await node.provider.getBlockNumber();
      await waitUntil(() => heads.includes(mined));

      await node.stop();
      await waitUntil(() => logger.lines.some((line) => line.level === "warn"));
      node = await startTestNode({ port: node.port });
      // A fresh node starts again from block 0: the first block mined on it is block 1.
      await waitUntil(() => logger.lines.filter((line) => line.message === "following new heads").length === 2, 60_000);
      await node.provider.send("evm_mine", []);
      await waitUntil(() => heads.at(-1) === 1);

      const warnings = logger.lines.filter((line) => line.level === "warn");
      expect(warnings).toHaveLength(1);
      expect(warnings[0].fields).toEqual({ host: `127.0.0.1:${node.port}`, reason: expect.any(String) });
    } finally {
      watcher.stop();
    }
  });
});

describe("HeadWatcher against a scripted WebSocket server", () => {
  it("reads heads from notifications, and stop() leaves no socket or timer behind", async () => {
    const socketsBefore = openHandles("sockets");
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((resolve) => server.once("listening", resolve));
    server.on("connection", (client) => {
      client.on("message", (data) => {
        const request = JSON.parse(String(data));
        client.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: "0xabc" }));
        client.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription: "0xabc", result: { number: "0x2a" } } }));
      });
    });
    const heads: number[] = [];
    const watcher = new HeadWatcher(`ws://127.0.0.1:${(server.address() as { port: number }).port}`, (n) => heads.push(n), recordingLogger());
    try {
      watcher.start();
      await waitUntil(() => heads.length > 0);
      expect(heads).toEqual([42]);

      const timersSubscribed = openHandles("timers");
      watcher.stop();
      expect(openHandles("timers")).toBe(timersSubscribed - 1); // the ping timer
      // At once, not after a closing handshake with a timeout of its own.
      await waitUntil(() => server.clients.size === 0, 1_000);
    } finally {
      watcher.stop();
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    }
    await waitUntil(() => openHandles("sockets") === socketsBefore, 1_000);
  });

  it("while the node is unreachable, warns once without the URL's secrets and stop() cancels the next retry", async () => {
    const logger = recordingLogger();
    const watcher = new HeadWatcher(`ws://127.0.0.1:${await freePort()}/v3/secret-key`, () => undefined, logger);
    watcher.start();
    await waitUntil(() => logger.lines.length > 0);
    // Backoff: the first retry comes after 1 s, the second 2 s later; both fail without a second warning.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: "warn", message: "new-head subscription down; polling until it is back" });
    expect(JSON.stringify(logger.lines)).not.toContain("secret-key");

    const timersWaiting = openHandles("timers");
    watcher.stop();
    expect(openHandles("timers")).toBe(timersWaiting - 1); // the retry timer
  });

  it("refuses a URL that is not ws:// or wss://", () => {
    expect(() => new HeadWatcher("http://127.0.0.1:8545", () => undefined, recordingLogger())).toThrow(/ws:\/\/ or wss:\/\//);
  });
});
