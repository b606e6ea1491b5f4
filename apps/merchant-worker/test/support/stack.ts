import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { INestApplicationContext } from "@nestjs/common";
import type { Signer } from "ethers";
import {
  Raffle__factory,
  RaffleFactory__factory,
  deployTestRaffle,
  setUpWorld,
  startTestNode,
  type HardhatNode,
  type TestRaffle,
  type TestWorld,
} from "@raffle/chain";
import { createTestDatabase, type TestDatabase } from "@raffle/db";
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

/**
 * A Hardhat chain with the platform, a fresh PostgreSQL database, and the real API (with its indexer) running as a
 * child process, the way a merchant's worker meets them in production.
 */
export class WorkerStack {
  private readonly workers = new Set<RunningWorker>();

  private constructor(
    readonly node: HardhatNode,
    readonly world: TestWorld,
    readonly database: TestDatabase,
    private readonly api: Child,
    readonly apiUrl: string,
    private readonly tmpDir: string,
  ) {}

  static async start(label: string, options: { defaultSchedule: string }): Promise<WorkerStack> {
    const node = await startTestNode();
    const cleanups: Array<() => Promise<unknown>> = [() => node.stop()];
    try {
      const [world, database] = await Promise.all([setUpWorld(node.provider), createTestDatabase(label)]);
      cleanups.push(() => database.drop());
      const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "merchant-worker-e2e-"));
      cleanups.push(async () => fs.rmSync(tmpDir, { recursive: true, force: true }));
      const deploymentFile = path.join(tmpDir, "deployment.json");
      fs.writeFileSync(deploymentFile, JSON.stringify(world.deployment));
      const port = await freePort();
      const api = spawnChild(process.execPath, ["-r", "ts-node/register/transpile-only", API_MAIN], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: database.url,
          RPC_URL: node.rpcUrl,
          CHAIN_ID: "31337",
          DEPLOYMENT_FILE: deploymentFile,
          INDEXER_POLL_INTERVAL_MS: "100",
          DEFAULT_RAFFLE_SCHEDULE: options.defaultSchedule,
          LOG_LEVEL: "silent",
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
      return new WorkerStack(node, world, database, api, apiUrl, tmpDir);
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

  /** Deploys a raffle (first round started) for `merchant` and waits until the API lists it with `apiKey`. */
  async deployListedRaffle(apiKey: string, merchant: Signer = this.world.merchant): Promise<TestRaffle> {
    const raffle = await deployTestRaffle({ ...this.world, merchant }, "ERC20");
    const client = new ApiRaffleSource({ baseUrl: this.apiUrl, apiKey, chainId: 31337 });
    await eventually(async () => {
      const listed = await client.listRaffles();
      if (!listed.some((row) => row.address.toLowerCase() === raffle.raffle.toLowerCase())) throw new Error(`raffle ${raffle.raffle} not listed yet`);
    }, 20_000);
    return raffle;
  }

  workerConfig(env: Record<string, string>): WorkerConfig {
    return loadWorkerConfig({
      API_URL: this.apiUrl,
      CHAIN_ID: "31337",
      RPC_URL: this.node.rpcUrl,
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

  raffle(address: string) {
    return Raffle__factory.connect(address, this.node.provider);
  }

  async currentRoundId(address: string): Promise<bigint> {
    return (await this.raffle(address).getCurrentRoundInfo()).roundId;
  }

  /** RoundStarted and RoundEnded events of a raffle, counted per round id. */
  async roundEvents(address: string): Promise<{ started: Map<bigint, number>; ended: Map<bigint, number> }> {
    const raffle = this.raffle(address);
    const count = (events: Array<{ args: { roundId: bigint } }>) => {
      const counts = new Map<bigint, number>();
      for (const event of events) counts.set(event.args.roundId, (counts.get(event.args.roundId) ?? 0) + 1);
      return counts;
    };
    const [started, ended] = await Promise.all([raffle.queryFilter(raffle.filters.RoundStarted()), raffle.queryFilter(raffle.filters.RoundEnded())]);
    return { started: count(started), ended: count(ended) };
  }

  /** Receipts of every transaction sent from `account` since `fromBlock`. */
  async receiptsFrom(account: string, fromBlock: number) {
    const head = await this.node.provider.getBlockNumber();
    const receipts = [];
    for (let number = fromBlock; number <= head; number += 1) {
      const block = await this.node.provider.getBlock(number, true);
      for (const tx of block!.prefetchedTransactions) {
        if (tx.from.toLowerCase() === account.toLowerCase()) receipts.push((await this.node.provider.getTransactionReceipt(tx.hash))!);
      }
    }
    return receipts;
  }

  async close(): Promise<void> {
    for (const running of [...this.workers]) await running.close().catch(() => undefined);
    await this.api.stop();
    await this.database.drop();
    await this.node.stop();
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
  }
}
