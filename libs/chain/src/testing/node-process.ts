import { spawn, type ChildProcess } from "node:child_process";
import { JsonRpcProvider } from "ethers";
import { freePort, reapWithThisProcess, releaseFromReaper } from "@raffle/testing";

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
 * runner that exits, a signal), the groups must not outlive it. The hooks below cover the ends that run code; the
 * reaper (@raffle/testing's reapWithThisProcess) covers SIGKILL.
 */
const liveNodes = new Set<ChildProcess>();

/** SIGKILLs every node this process started and has not stopped: the last resort of a program that must exit now. */
export function killLiveNodes(): void {
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

const NODE_STOP_GRACE_MS = 2_000;

/** Whether a node failed to start because its port was taken. */
function portTaken(error: unknown): boolean {
  return /EADDRINUSE|address already in use/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * Starts a node on `port` if given, else on a free port; a free port can be taken by another process between the probe
 * that found it and the node's own listen (tests start nodes in parallel, and seconds pass while a node loads), so
 * then the node is started again on another.
 */
export async function startOnPort(port: number | undefined, start: (port: number) => Promise<DevNode>): Promise<DevNode> {
  if (port !== undefined) return start(port);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= 3 || !portTaken(error)) throw error;
    }
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
  if (child.pid) reapWithThisProcess(child.pid);
  child.once("exit", () => {
    liveNodes.delete(child);
    if (child.pid) releaseFromReaper(child.pid);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 60 s`)), 60_000);
    let output = "";
    // Only the start-up output is kept and searched: a node logs every call, and searching all of it on each chunk
    // took a third of a second of this process's CPU per 40,000 logs indexed in the bench.
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(options.readyText)) {
        child.stdout!.off("data", onData);
        child.stderr!.off("data", onError);
        clearTimeout(timer);
        resolve();
      }
    };
    // A node that fails to start says why on stderr (a port taken, say): kept for the error below.
    const onError = (chunk: Buffer) => (output += chunk.toString());
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onError);
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
      // A node answers TERM within a second; one that does not is not waited for long.
      const late = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // exited meanwhile
        }
      }, NODE_STOP_GRACE_MS);
      await exited;
      clearTimeout(late);
    },
  };
}
