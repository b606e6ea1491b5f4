import { spawn } from "node:child_process";
import * as path from "node:path";
import type { INestApplicationContext } from "@nestjs/common";
import type { Signer } from "ethers";
import { Raffle__factory, RaffleFactory__factory } from "@raffle/chain";
import { deployTestRaffle, type HardhatNode, type RoundRules, type TestRaffle, type TestWorld } from "@raffle/chain/testing";
import type { TestDatabase } from "@raffle/db/testing";
import { eventually } from "@raffle/testing";
import { COMPILED, requireCompiled, startTestStack, type StackChain, type TestStack } from "@raffle/test-stack";

import { ApiRaffleSource } from "../../src/raffle-source";
import { loadWorkerConfig, type WorkerConfig } from "../../src/config";
import { HealthServer } from "../../src/health-server";
import { MerchantWorker } from "../../src/merchant-worker";
import { createWorkerContext } from "../../src/bootstrap";
import type { WorkerModuleOptions } from "../../src/worker.module";
import { LogCapture } from "./log-capture";

export type { StackChain };
export const ROOT = path.resolve(__dirname, "../../../..");

/**
 * Runs the compiled worker (`dist/apps/merchant-worker/src/main.js`, as its Docker image does; `npm test` builds it
 * first) to its end, and resolves with its exit code and output (stdout, stderr).
 */
export function runCompiledWorker(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [requireCompiled(COMPILED.workerMain), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
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
 * Local chains with the platform (one, 31337, unless `chainIds` lists several; on TEST_NODE's node), a fresh PostgreSQL
 * database, and the real API (with its indexer, compiled) running as a child process, the way a merchant's worker
 * meets them in production. Built by @raffle/test-stack.
 */
export class WorkerStack {
  private readonly workers = new Set<RunningWorker>();

  private constructor(
    private readonly stack: TestStack,
    readonly apiUrl: string,
  ) {}

  get chains(): StackChain[] {
    return this.stack.chains;
  }

  get database(): TestDatabase {
    return this.stack.database;
  }

  /** The first chain's node and platform (the only ones of a one-chain stack). */
  get node(): HardhatNode {
    return this.stack.node;
  }

  get world(): TestWorld {
    return this.stack.world;
  }

  chain(chainId: number): StackChain {
    return this.stack.chain(chainId);
  }

  static async start(label: string, options: { defaultSchedule: string; chainIds?: number[] }): Promise<WorkerStack> {
    const stack = await startTestStack({ label, chainIds: options.chainIds });
    try {
      const api = await stack.startApi({ INDEXER_POLL_INTERVAL_MS: "100", DEFAULT_RAFFLE_SCHEDULE: options.defaultSchedule });
      return new WorkerStack(stack, api.url);
    } catch (error) {
      await stack.close();
      throw error;
    }
  }

  /** A fresh API key of a merchant, from the API's own CLI. */
  apiKey(merchantWallet: string): Promise<string> {
    return this.stack.apiKey(merchantWallet);
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
    await this.stack.close();
  }
}
