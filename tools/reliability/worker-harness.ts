/**
 * What the worker's reliability parts share: a Hardhat chain with the platform and one ERC20 raffle, the real API
 * (its own process, with its indexer, on a fresh database of the machine's PostgreSQL) listing that raffle with a
 * given schedule, and the merchant worker run from its main.ts as a child process, as a merchant runs it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { Wallet } from "ethers";
import { LOCAL_DEV_KEYS, Raffle__factory } from "@raffle/chain";
import { deployTestRaffle, type HardhatNode, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import { startTestStack } from "@raffle/test-stack";

const ROOT = path.resolve(__dirname, "../..");
const WORKER_MAIN = path.join(ROOT, "apps/merchant-worker/src/main.ts");
const WORKER_TSCONFIG = path.join(ROOT, "apps/merchant-worker/tsconfig.json");

export const MERCHANT = new Wallet(LOCAL_DEV_KEYS.demoMerchant).address;
export const say = (line: string) => process.stdout.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Row {
  check: string;
  result: string;
  ok: boolean;
}

export interface WorkerWorld {
  node: HardhatNode;
  world: TestWorld;
  raffle: TestRaffle;
  apiUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

/** Chain, raffle, database, API key and API; everything started is stopped by `close()` (also when this fails). */
export async function startWorkerWorld(label: string, schedule: string): Promise<WorkerWorld> {
  const stack = await startTestStack({ label, node: "hardhat" });
  const close = () => stack.close();
  try {
    const { node, world } = stack;
    const raffle = await deployTestRaffle(world, "ERC20");
    const apiKey = await stack.apiKey(MERCHANT);
    const api = await stack.startApi({ INDEXER_WS_URL: node.wsUrl, DEFAULT_RAFFLE_SCHEDULE: schedule, INDEXER_POLL_INTERVAL_MS: "100" });
    // The worker reads its raffles from the API: wait until the indexer has put this one in the list.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const page = (await (
        await fetch(`${api.url}/raffle/contracts?chainId=31337&take=100`, { headers: { authorization: `Bearer ${apiKey}` } })
      ).json()) as { rows?: Array<{ address: string }> };
      if (page.rows?.some((row) => row.address === raffle.raffle)) break;
      if (Date.now() > deadline) throw new Error("the API never listed the raffle");
      await sleep(200);
    }
    return { node, world, raffle, apiUrl: api.url, apiKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** One JSON log line of the worker, with the time it reached us. */
export type LogLine = Record<string, unknown> & { message: string; level: string; receivedAt: number };

export interface WorkerChild {
  process: ChildProcess;
  lines: LogLine[];
  /** Output that was not a JSON log line (stack traces, ts-node errors). */
  other(): string;
  /** Resolves when the process is gone and its output read to the end. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** Signals the worker's process group and waits until it is gone. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<WorkerChild>();

/** Runs apps/merchant-worker/src/main.ts (ts-node, as `npm start` of the worker does) in its own process group. */
export function spawnWorker(world: WorkerWorld, rpcUrl: string, args: string[], env: Record<string, string> = {}): WorkerChild {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", WORKER_MAIN, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      TS_NODE_PROJECT: WORKER_TSCONFIG,
      API_URL: world.apiUrl,
      API_KEY: world.apiKey,
      CHAIN_ID: "31337",
      RPC_URL: rpcUrl,
      MERCHANT_PRIVATE_KEY: LOCAL_DEV_KEYS.demoMerchant,
      HEALTH_PORT: "0",
      LOG_LEVEL: "info",
      ...env,
    },
  });
  const lines: LogLine[] = [];
  let other = "";
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const complete = text.split("\n");
    partial = complete.pop()!;
    for (const line of complete) {
      try {
        lines.push({ ...(JSON.parse(line) as LogLine), receivedAt: Date.now() });
      } catch {
        other = (other + line + "\n").slice(-10_000);
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (other = (other + chunk.toString()).slice(-10_000)));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const worker: WorkerChild = {
    process: child,
    lines,
    other: () => other,
    closed,
    alive,
    kill: async (signal) => {
      if (alive() && child.pid) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // Gone meanwhile.
        }
      }
      return closed;
    },
  };
  children.add(worker);
  void closed.then(() => children.delete(worker));
  return worker;
}

/** SIGKILLs every worker still running: the `finally` of each part. */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...children].map((child) => child.kill("SIGKILL")));
}

/** Runs `cleanup` and exits when the part itself is interrupted, so no node, API or worker outlives it. */
export function cleanUpOnSignals(cleanup: () => Promise<void>): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      void cleanup().finally(() => process.exit(130));
    });
  }
}

/** JSON-RPC straight to the node (test control methods: evm_mine, evm_setAutomine, hardhat_dropTransaction). */
export async function nodeRpc<T = unknown>(node: HardhatNode, method: string, params: unknown[] = []): Promise<T> {
  return (await node.provider.send(method, params)) as T;
}

/** RoundStarted and RoundEnded events of the raffle, counted per round id. */
export async function roundEvents(node: HardhatNode, raffle: string): Promise<{ started: Map<number, number>; ended: Map<number, number> }> {
  const contract = Raffle__factory.connect(raffle, node.provider);
  const count = (events: Array<{ args: { roundId: bigint } }>) => {
    const counts = new Map<number, number>();
    for (const event of events) counts.set(Number(event.args.roundId), (counts.get(Number(event.args.roundId)) ?? 0) + 1);
    return counts;
  };
  const [started, ended] = await Promise.all([
    contract.queryFilter(contract.filters.RoundStarted()),
    contract.queryFilter(contract.filters.RoundEnded()),
  ]);
  return { started: count(started), ended: count(ended) };
}

/**
 * The chain-level rotation invariant: rounds 1..last each started exactly once (none skipped, none twice), every
 * round before the last ended exactly once, the last one at most once. Returns what is wrong, or undefined.
 */
export function roundsProblem(events: { started: Map<number, number>; ended: Map<number, number> }): string | undefined {
  const last = Math.max(0, ...events.started.keys());
  for (let round = 1; round <= last; round += 1) {
    if (events.started.get(round) !== 1) return `round ${round} started ${events.started.get(round) ?? 0} times`;
    const ended = events.ended.get(round) ?? 0;
    if (round < last ? ended !== 1 : ended > 1) return `round ${round} ended ${ended} times`;
  }
  const stray = [...events.ended.keys()].find((round) => round < 1 || round > last);
  return stray === undefined ? undefined : `round ${stray} ended but never started`;
}

export async function currentRound(node: HardhatNode, raffle: string): Promise<{ id: number; active: boolean }> {
  const info = await Raffle__factory.connect(raffle, node.provider).getCurrentRoundInfo();
  return { id: Number(info.roundId), active: info.endTimestamp === 0n };
}

/** The merchant's transaction counts: equal when nothing of it waits in the node's pool. */
export async function merchantNonces(node: HardhatNode): Promise<{ latest: number; pending: number }> {
  const [latest, pending] = await Promise.all([
    node.provider.getTransactionCount(MERCHANT, "latest"),
    node.provider.getTransactionCount(MERCHANT, "pending"),
  ]);
  return { latest, pending };
}

/** The merchant's transactions mined since `fromBlock`, with their receipt status. */
export async function merchantTransactions(node: HardhatNode, fromBlock: number): Promise<Array<{ hash: string; nonce: number; status: number }>> {
  const head = await node.provider.getBlockNumber();
  const mined: Array<{ hash: string; nonce: number; status: number }> = [];
  for (let number = fromBlock; number <= head; number += 1) {
    const block = await node.provider.getBlock(number, true);
    for (const tx of block!.prefetchedTransactions) {
      if (tx.from !== MERCHANT) continue;
      const receipt = await node.provider.getTransactionReceipt(tx.hash);
      mined.push({ hash: tx.hash, nonce: tx.nonce, status: receipt!.status ?? 0 });
    }
  }
  return mined;
}
