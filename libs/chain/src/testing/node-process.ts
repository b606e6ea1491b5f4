import { spawn, type ChildProcess } from "node:child_process";
import { JsonRpcProvider } from "ethers";

/** A local JSON-RPC node started by tests or the local stack (Hardhat or anvil). */
export interface DevNode {
  rpcUrl: string;
  /** The same port speaks WebSocket JSON-RPC too (`eth_subscribe`). */
  wsUrl: string;
  port: number;
  /** A provider that never caches, so an auto-mining node never answers with stale nonces or blocks. */
  provider: JsonRpcProvider;
  stop(): Promise<void>;
}

export function rpcProvider(rpcUrl: string): JsonRpcProvider {
  return new JsonRpcProvider(rpcUrl, undefined, { cacheTimeout: -1, staticNetwork: true, pollingInterval: 100 });
}

/**
 * Nodes started here and not yet exited. Each runs in its own process group (so stop() takes its children too), which
 * also means Ctrl-C does not reach it: if this process ends without calling stop() (a suite that times out, a test
 * runner that exits, a signal), the groups must not outlive it.
 */
const liveNodes = new Set<ChildProcess>();

function killLiveNodes(): void {
  for (const child of liveNodes) {
    try {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  liveNodes.clear();
}

let exitHooksInstalled = false;

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  process.once("exit", killLiveNodes);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      // Another listener means the program shuts down on its own and calls stop(); alone, this one stands in for the
      // default action: take the nodes down, then die of the same signal.
      if (process.listenerCount(signal) > 1) return;
      killLiveNodes();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * Runs a node binary on 127.0.0.1:`port` in its own process group and resolves once its output contains `readyText`.
 */
export async function startNodeProcess(options: {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  port: number;
  readyText: string;
}): Promise<DevNode> {
  installExitHooks();
  const child: ChildProcess = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  liveNodes.add(child);
  child.once("exit", () => liveNodes.delete(child));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 60 s`)), 60_000);
    let output = "";
    // Only the start-up output is kept and searched: a node logs every call, and searching all of it on each chunk
    // took a third of a second of this process's CPU per 40,000 logs indexed in the bench.
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(options.readyText)) {
        child.stdout!.off("data", onData);
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with ${code}: ${output.slice(-500)}`));
    });
  });
  // Drain output so the node never blocks on a full pipe.
  child.stdout!.resume();
  child.stderr!.resume();
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  const provider = rpcProvider(rpcUrl);
  return {
    rpcUrl,
    wsUrl: `ws://127.0.0.1:${options.port}`,
    port: options.port,
    provider,
    stop: async () => {
      provider.destroy();
      if (child.exitCode !== null || !child.pid) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}
