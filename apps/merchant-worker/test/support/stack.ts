import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { INestApplicationContext } from "@nestjs/common";
import type { Signer } from "ethers";
import { Raffle__factory, RaffleFactory__factory } from "@raffle/chain";
import {
  deployTestRaffle,
  setUpWorld,
  startAnvilNode,
  startHardhatNode,
  startTestNode,
  type HardhatNode,
  type RoundRules,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain/testing";
import { createTestDatabase, type TestDatabase } from "@raffle/db/testing";
import { eventually, freePort } from "@raffle/testing";

import { ApiRaffleSource } from "../../src/raffle-source";
import { loadWorkerConfig, type WorkerConfig } from "../../src/config";
import { HealthServer } from "../../src/health-server";
import { MerchantWorker } from "../../src/merchant-worker";
import { createWorkerContext } from "../../src/bootstrap";
import type { WorkerModuleOptions } from "../../src/worker.module";
import { LogCapture } from "./log-capture";

export const ROOT = path.resolve(__dirname, "../../../..");
const API_MAIN = path.join(ROOT, "apps/api/src/main.ts");
const API_CLI = path.join(ROOT, "apps/api/src/cli/api-key.ts");
const API_TSCONFIG = path.join(ROOT, "apps/api/tsconfig.json");

/** A child process in its own process group, with the tail of its output kept for error messages. */
interface Child {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function spawnChild(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Child {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
  };
}

/** Runs a node script with ts-node and resolves with its exit code and output (stdout, stderr). */
export function runTsNode(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  tsconfig: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, TS_NODE_PROJECT: tsconfig },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningWorker {
  app: INestApplicationContext;
  worker: MerchantWorker;
  logs: LogCapture;
  config: WorkerConfig;
  /** Port of its /health endpoint, when started with `health: true`. */
  healthPort?: number;
  close(): Promise<void>;
}

/** A local node of `chainId` (Hardhat, or anvil with TEST_NODE=anvil); the default test node without one. */
function startChainNode(chainId?: number): Promise<HardhatNode> {
  if (chainId === undefined) return startTestNode();
  return process.env.TEST_NODE === "anvil" ? startAnvilNode({ chainId }) : startHardhatNode({ chainId });
}

/** One chain of the stack: its node and the platform deployed on it. */
export interface StackChain {
  chainId: number;
  node: HardhatNode;
  world: TestWorld;
}

/**
 * Local chains with the platform (one, 31337, unless `chainIds` lists several), a fresh PostgreSQL database, and the
 * real API (with its indexer) running as a child process, the way a merchant's worker meets them in production.
 */
export class WorkerStack {
  private readonly workers = new Set<RunningWorker>();

  private constructor(
    readonly chains: StackChain[],
    readonly database: TestDatabase,
    private readonly api: Child,
    readonly apiUrl: string,
    private readonly tmpDir: string,
  ) {}

  /** The first chain's node and platform (the only ones of a one-chain stack). */
  get node(): HardhatNode {
    return this.chains[0].node;
  }

  get world(): TestWorld {
    return this.chains[0].world;
  }

  chain(chainId: number): StackChain {
    const chain = this.chains.find((candidate) => candidate.chainId === chainId);
    if (!chain) throw new Error(`the stack has no chain ${chainId}`);
    return chain;
  }

  static async start(label: string, options: { defaultSchedule: string; chainIds?: number[] }): Promise<WorkerStack> {
    const several = options.chainIds !== undefined && options.chainIds.length > 1;
    const chainIds = options.chainIds ?? [31337];
    const cleanups: Array<() => Promise<unknown>> = [];
    try {
      const started = await Promise.allSettled(chainIds.map((chainId) => startChainNode(options.chainIds ? chainId : undefined)));
      const nodes: HardhatNode[] = [];
      for (const result of started) {
        if (result.status !== "fulfilled") continue;
        cleanups.push(() => result.value.stop());
        nodes.push(result.value);
      }
      const notStarted = started.find((result) => result.status === "rejected");
      if (notStarted) throw notStarted.reason;
      const database = await createTestDatabase(label);
      cleanups.push(() => database.drop());
      const chains: StackChain[] = [];
      for (const [index, chainId] of chainIds.entries()) chains.push({ chainId, node: nodes[index], world: await setUpWorld(nodes[index].provider) });
      const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "merchant-worker-e2e-"));
      cleanups.push(async () => fs.rmSync(tmpDir, { recursive: true, force: true }));
      const chainEnv: Record<string, string> = several ? { CHAIN_IDS: chainIds.join(",") } : { CHAIN_ID: String(chainIds[0]) };
      for (const chain of chains) {
        const deploymentFile = path.join(tmpDir, `deployment-${chain.chainId}.json`);
        fs.writeFileSync(deploymentFile, JSON.stringify(chain.world.deployment));
        // The API's multi-chain convention: CHAIN_<id>_<SETTING> for each chain of CHAIN_IDS.
        const prefix = several ? `CHAIN_${chain.chainId}_` : "";
        chainEnv[`${prefix}RPC_URL`] = chain.node.rpcUrl;
        chainEnv[`${prefix}DEPLOYMENT_FILE`] = deploymentFile;
      }
      const port = await freePort();
      const api = spawnChild(process.execPath, ["-r", "ts-node/register/transpile-only", API_MAIN], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: database.url,
          ...chainEnv,
          INDEXER_POLL_INTERVAL_MS: "100",
          DEFAULT_RAFFLE_SCHEDULE: options.defaultSchedule,
          // Errors only: the output is kept for the message of a failed start, never printed otherwise.
          LOG_LEVEL: "error",
          TS_NODE_PROJECT: API_TSCONFIG,
        },
      });
      cleanups.push(() => api.stop());
      const apiUrl = `http://127.0.0.1:${port}`;
      await eventually(
        async () => {
          if (api.process.exitCode !== null) throw new Error(`the API exited with ${api.process.exitCode}: ${api.output().slice(-2_000)}`);
          const response = await fetch(`${apiUrl}/health`);
          if (response.status !== 200) throw new Error(`GET /health: ${response.status}`);
        },
        90_000,
        200,
      ).catch((error: unknown) => {
        throw new Error(`the API did not become healthy: ${(error as Error).message}\n${api.output().slice(-2_000)}`);
      });
      return new WorkerStack(chains, database, api, apiUrl, tmpDir);
    } catch (error) {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      throw error;
    }
  }

  /** A fresh API key of a merchant, from the API's own CLI. */
  async apiKey(merchantWallet: string): Promise<string> {
    const result = await runTsNode(API_CLI, ["create", "--merchant", merchantWallet], { DATABASE_URL: this.database.url }, API_TSCONFIG);
    const key = result.stdout.split("\n").find((line) => line.startsWith("rk_"));
    if (result.code !== 0 || !key) throw new Error(`api-key create failed (${result.code}): ${result.stderr}${result.stdout}`);
    return key.trim();
  }

  /** Lets `merchant` deploy raffles through the factory (setUpWorld allows only the demo merchant). */
  async allowMerchant(merchant: Signer): Promise<void> {
    const factory = RaffleFactory__factory.connect(this.world.deployment.raffleFactory, this.world.admin);
    await (await factory.grantRole(await factory.MERCHANT_ROLE(), await merchant.getAddress())).wait();
  }

  /** Deploys a raffle (first round started) for `merchant` and waits until the API lists it with `apiKey` on its chain. */
  async deployListedRaffle(apiKey: string, merchant?: Signer, chainId = this.chains[0].chainId, rules?: RoundRules): Promise<TestRaffle> {
    const { world } = this.chain(chainId);
    const raffle = await deployTestRaffle({ ...world, merchant: merchant ?? world.merchant }, "ERC20", 100n, rules);
    const client = new ApiRaffleSource({ baseUrl: this.apiUrl, apiKey, chainId });
    await eventually(async () => {
      const listed = await client.listRaffles();
      if (!listed.some((row) => row.address.toLowerCase() === raffle.raffle.toLowerCase())) throw new Error(`raffle ${raffle.raffle} not listed yet`);
    }, 20_000);
    return raffle;
  }

  /** The worker's chain settings for every chain of the stack: today's CHAIN_ID and RPC_URL for one chain. */
  workerChainEnv(): Record<string, string> {
    if (this.chains.length === 1) return { CHAIN_ID: String(this.chains[0].chainId), RPC_URL: this.node.rpcUrl };
    const env: Record<string, string> = { CHAIN_IDS: this.chains.map((chain) => chain.chainId).join(",") };
    for (const chain of this.chains) env[`CHAIN_${chain.chainId}_RPC_URL`] = chain.node.rpcUrl;
    return env;
  }

  workerConfig(env: Record<string, string>): WorkerConfig {
    return loadWorkerConfig({
      API_URL: this.apiUrl,
      // A test that lists its own chains (CHAIN_IDS) gives every chain's settings itself.
      ...(env.CHAIN_IDS ? {} : this.workerChainEnv()),
      REFRESH_INTERVAL_SECONDS: "1",
      HEALTH_PORT: "0",
      TX_RECEIPT_TIMEOUT_SECONDS: "10",
      LOG_LEVEL: "debug",
      ...env,
    });
  }

  /** The worker as main.ts builds it (a Nest standalone context, not yet started), closed by `close()` at the latest. */
  async worker(env: Record<string, string>, options: WorkerModuleOptions & { health?: boolean } = {}): Promise<RunningWorker> {
    const config = this.workerConfig(env);
    const logs = new LogCapture();
    const app = await createWorkerContext(config, { logSink: logs.sink, ...options });
    const running: RunningWorker = {
      app,
      worker: app.get(MerchantWorker),
      logs,
      config,
      healthPort: options.health ? await app.get(HealthServer).listen() : undefined,
      close: async () => {
        this.workers.delete(running);
        await app.close();
      },
    };
    this.workers.add(running);
    return running;
  }

  raffle(address: string, chainId = this.chains[0].chainId) {
    return Raffle__factory.connect(address, this.chain(chainId).node.provider);
  }

  async currentRoundId(address: string, chainId?: number): Promise<bigint> {
    return (await this.raffle(address, chainId).getCurrentRoundInfo()).roundId;
  }

  /** RoundStarted and RoundEnded events of a raffle, counted per round id. */
  async roundEvents(address: string, chainId?: number): Promise<{ started: Map<bigint, number>; ended: Map<bigint, number> }> {
    const raffle = this.raffle(address, chainId);
    const count = (events: Array<{ args: { roundId: bigint } }>) => {
      const counts = new Map<bigint, number>();
      for (const event of events) counts.set(event.args.roundId, (counts.get(event.args.roundId) ?? 0) + 1);
      return counts;
    };
    const [started, ended] = await Promise.all([raffle.queryFilter(raffle.filters.RoundStarted()), raffle.queryFilter(raffle.filters.RoundEnded())]);
    return { started: count(started), ended: count(ended) };
  }

  /** Receipts of every transaction sent from `account` since `fromBlock`. */
  async receiptsFrom(account: string, fromBlock: number, chainId = this.chains[0].chainId) {
    const { provider } = this.chain(chainId).node;
    const head = await provider.getBlockNumber();
    const receipts = [];
    for (let number = fromBlock; number <= head; number += 1) {
      const block = await provider.getBlock(number, true);
      for (const tx of block!.prefetchedTransactions) {
        if (tx.from.toLowerCase() === account.toLowerCase()) receipts.push((await provider.getTransactionReceipt(tx.hash))!);
      }
    }
    return receipts;
  }

  async close(): Promise<void> {
    for (const running of [...this.workers]) await running.close().catch(() => undefined);
    await this.api.stop();
    await this.database.drop();
    for (const chain of this.chains) await chain.node.stop();
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
  }
}
