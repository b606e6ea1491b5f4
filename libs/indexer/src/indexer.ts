import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";
import { richText } from "@raffle/db";

import { BatchApplier } from "./batch";
import { BatchSizer, ProgressReporter } from "./batch-pacing";
import { ChainSource } from "./chain-source";
import { ContractKind } from "./decode";
import { HeadWatcher } from "./head-watcher";
import { resolveIndexerOptions, type ResolvedIndexerOptions } from "./indexer-options";
import { IndexerState } from "./indexer-state";
import { IndexerStep } from "./indexer-step";
import type { IndexerOptions, IndexerStatus, StepResult } from "./indexer-types";
import { LeaderLoop } from "./leader-loop";
import { Leadership } from "./leadership";
import { jsonLogger, type IndexerLogger } from "./logger";
import { Projector } from "./projector";
import { RawLogStore } from "./raw-log-store";
import { ReorgRollback } from "./reorg";
import { Registry } from "./registry";
import { TokenMetadataReader } from "./token-metadata";

export { DEFAULT_REORG_WINDOW_BLOCKS } from "./indexer-options";
export type { IndexerOptions, IndexerStatus, StepResult } from "./indexer-types";

/** How long syncToHead() waits for the leadership before it gives up. */
const SYNC_LEADERSHIP_TIMEOUT_MS = 30_000;

/**
 * Keeps PostgreSQL in step with one chain: polls logs of registered contracts in block ranges, stores them raw and
 * projects them, one transaction per batch, and rolls back on reorgs. One leader per chain via an advisory lock.
 * A process indexing several chains runs one Indexer per chain: each has its own lock (keyed by the chain id),
 * cursor, registry, loop and head watcher, and every row it reads or writes is scoped to its chain.
 *
 * This class builds the parts, each given what it needs and nothing more: raw-log-store.ts (raw rows, headers,
 * cursor), projector.ts (events to rows through event-handlers.ts), batch.ts (one batch), reorg.ts (rollback),
 * indexer-step.ts (one step), leader-loop.ts (the background loop and the leadership). The parts that need the
 * platform's merchant row (the projector and what uses it) are built by init(), once that row exists.
 */
export class Indexer {
  private readonly options: ResolvedIndexerOptions;
  private readonly chain: ChainSource;
  private readonly tokens: TokenMetadataReader;
  private readonly registry: Registry;
  private readonly leadership: Leadership;
  private readonly logger: IndexerLogger;
  private readonly store: RawLogStore;
  private readonly state: IndexerState;
  /** Survive a repeated init(): the batch sizing learnt so far, and the progress report's counters. */
  private readonly sizer: BatchSizer;
  private readonly progress: ProgressReporter;
  private readonly loop: LeaderLoop;
  private readonly headWatcher: HeadWatcher | null;
  private engine: { projector: Projector; step: IndexerStep } | null = null;

  constructor(
    private readonly dataSource: DataSource,
    provider: JsonRpcProvider,
    private readonly rawOptions: IndexerOptions,
  ) {
    const options = resolveIndexerOptions(rawOptions);
    const chainId = options.deployment.chainId;
    this.options = options;
    this.chain = new ChainSource(provider, { chainId, rpcSetting: rawOptions.rpcSetting ?? "RPC_URL" });
    this.tokens = new TokenMetadataReader(this.chain);
    this.registry = new Registry(options.deployment);
    this.leadership = new Leadership(dataSource, chainId);
    this.logger = rawOptions.logger ?? jsonLogger;
    this.store = new RawLogStore(chainId, this.registry, this.logger);
    this.state = new IndexerState(chainId);
    this.sizer = new BatchSizer(options.batchBlocks);
    this.progress = new ProgressReporter({ chainId, intervalMs: options.progressIntervalMs, logger: this.logger });
    this.loop = new LeaderLoop({
      chainId,
      pollIntervalMs: options.pollIntervalMs,
      idlePollMaxMs: options.idlePollMaxMs,
      leadership: this.leadership,
      logger: this.logger,
      state: this.state,
      step: () => this.step(),
      // step() builds the engine before it takes the leadership, so the projector is there to reload.
      refresh: () => this.engine!.projector.reload(this.leadership.manager),
    });
    this.headWatcher = rawOptions.wsUrl ? new HeadWatcher(rawOptions.wsUrl, () => this.loop.onNewHead(), this.logger) : null;
  }

  get chainId(): number {
    return this.options.deployment.chainId;
  }

  status(): IndexerStatus {
    return this.state.snapshot();
  }

  /** Registers the platform's contracts, builds the projection's parts and loads the registry. Idempotent. */
  async init(): Promise<void> {
    const platformMerchantId = await this.registerPlatform();
    // Built anew on every init(): fresh caches, and the platform merchant as the database has it now.
    this.engine = this.buildEngine(platformMerchantId);
    await this.registry.load(this.dataSource.manager, this.chainId);
    const cursor = await this.store.readCursor(this.dataSource.manager);
    this.state.at(cursor?.blockNumber ?? null);
  }

  /** Runs the poll loop in the background until `stop()`; waits for leadership first. */
  start(): void {
    this.headWatcher?.start();
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.headWatcher?.stop();
    await this.loop.stop();
    await this.leadership.release();
    this.state.setLeader(false);
  }

  /** Processes batches until the cursor reaches the confirmed head (waiting a while for the leadership if needed). */
  async syncToHead(): Promise<void> {
    const deadline = Date.now() + SYNC_LEADERSHIP_TIMEOUT_MS;
    for (;;) {
      const result = await this.step();
      if (result.kind === "idle") return;
      if (result.kind === "follower") {
        if (Date.now() > deadline) throw new Error(`another process holds the indexing leadership of chain ${this.chainId}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /**
   * One unit of work of the leader: a batch, a reorg rollback, or nothing when caught up. Takes the leadership first
   * if it is free; a follower does nothing. Every database read and write of the step goes through the lock's session.
   */
  async step(): Promise<StepResult> {
    if (!this.engine) await this.init();
    if (!(await this.loop.takeLeadership())) return { kind: "follower" };
    return this.engine!.step.run();
  }

  /** The platform's merchant (its admin wallet) and system contracts; returns the merchant's id. */
  private async registerPlatform(): Promise<number> {
    const { deployment } = this.options;
    return this.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query(
        `INSERT INTO merchant (wallet, title) VALUES ($1, 'Platform') ON CONFLICT (wallet) DO UPDATE SET wallet = EXCLUDED.wallet RETURNING id`,
        [deployment.admin],
      );
      for (const [address, title] of [
        [deployment.exchange, "Exchange"],
        [deployment.raffleFactory, "RaffleFactory"],
      ]) {
        await manager.query(
          `INSERT INTO contract (address, chain_id, title, description, merchant_id, name, from_block, contract_module,
                                 contract_features, indexed_block)
           VALUES ($1, $2, $3, $4, $5, $3, $6, 'SYSTEM', $7, 0) ON CONFLICT (chain_id, address) DO NOTHING`,
          [address, this.chainId, title, richText(title), id, deployment.deployBlock, title === "Exchange" ? "{PAUSABLE}" : "{}"],
        );
      }
      return id as number;
    });
  }

  private buildEngine(platformMerchantId: number): { projector: Projector; step: IndexerStep } {
    const { chainId, chain, registry, store, leadership, logger, dataSource, options } = this;
    const projector = new Projector({ chainId, platformMerchantId, defaultSchedule: options.defaultSchedule, registry, tokens: this.tokens });
    const batch = new BatchApplier({ chainId, chain, projector, store, reorgWindowBlocks: options.reorgWindowBlocks });
    const reorg = new ReorgRollback({ chainId, deployBlock: options.deployment.deployBlock, chain, store, projector, leadership, logger });
    const step = new IndexerStep({
      chainId,
      deployBlock: options.deployment.deployBlock,
      confirmations: options.confirmations,
      reorgWindowBlocks: options.reorgWindowBlocks,
      dataSource,
      chain,
      registry,
      projector,
      store,
      leadership,
      batch,
      reorg,
      sizer: this.sizer,
      progress: this.progress,
      state: this.state,
      onReorg: this.rawOptions.onReorg,
    });
    return { projector, step };
  }
}

export { ContractKind };
