import type { JsonRpcProvider } from "ethers";
import type { DataSource } from "typeorm";
import { richText } from "@raffle/db";

import { ChainSource } from "./chain-source";
import { ContractKind } from "./decode";
import { HeadWatcher } from "./head-watcher";
import { resolveIndexerOptions, type ResolvedIndexerOptions } from "./indexer-options";
import { IndexerStep } from "./indexer-step";
import type { IndexerOptions, IndexerStatus, StepResult } from "./indexer-types";
import { LeaderLoop } from "./leader-loop";
import { Leadership } from "./leadership";
import { jsonLogger, type IndexerLogger } from "./logger";
import { Projector } from "./projector";
import { RawLogStore } from "./raw-log-store";
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
 * This class wires the parts together: raw-log-store.ts (raw rows, headers, cursor), indexer-step.ts (one step),
 * batch.ts (one batch), reorg.ts (rollback), leader-loop.ts (the background loop and the leadership).
 */
export class Indexer {
  private readonly chain: ChainSource;
  private readonly registry: Registry;
  private readonly tokens: TokenMetadataReader;
  private readonly logger: IndexerLogger;
  private readonly options: ResolvedIndexerOptions;
  private readonly headWatcher: HeadWatcher | null;
  private readonly leadership: Leadership;
  private readonly store: RawLogStore;
  private readonly loop: LeaderLoop;
  private stepper: IndexerStep | null = null;
  private readonly state: IndexerStatus;
  private readonly onReorg: IndexerOptions["onReorg"];

  constructor(
    private readonly dataSource: DataSource,
    provider: JsonRpcProvider,
    options: IndexerOptions,
  ) {
    this.options = resolveIndexerOptions(options);
    this.onReorg = options.onReorg;
    this.chain = new ChainSource(provider, { chainId: options.deployment.chainId, rpcSetting: options.rpcSetting ?? "RPC_URL" });
    this.tokens = new TokenMetadataReader(provider);
    this.registry = new Registry(options.deployment);
    this.leadership = new Leadership(dataSource, options.deployment.chainId);
    this.logger = options.logger ?? jsonLogger;
    this.store = new RawLogStore(options.deployment.chainId, this.registry, this.logger);
    this.state = {
      chainId: options.deployment.chainId,
      leader: false,
      cursor: null,
      head: null,
      lag: null,
      lagSeconds: null,
      lastBatchAt: null,
      lastError: null,
      resetRequired: false,
      headWakes: 0,
      eventsIndexed: 0,
      reorgs: 0,
      failedSteps: 0,
    };
    this.loop = new LeaderLoop({
      chainId: this.chainId,
      pollIntervalMs: this.options.pollIntervalMs,
      leadership: this.leadership,
      logger: this.logger,
      state: this.state,
      step: () => this.step(),
      refresh: async () => {
        await this.registry.load(this.leadership.manager, this.chainId);
        this.stepper?.forgetCachedRows();
      },
    });
    this.headWatcher = options.wsUrl ? new HeadWatcher(options.wsUrl, () => this.loop.onNewHead(), this.logger) : null;
  }

  get chainId(): number {
    return this.options.deployment.chainId;
  }

  status(): IndexerStatus {
    return { ...this.state };
  }

  /** Registers the platform's contracts and loads the registry. Idempotent. */
  async init(): Promise<void> {
    const { deployment } = this.options;
    const platformMerchantId = await this.dataSource.transaction(async (manager) => {
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
    const projector = new Projector({
      chainId: this.chainId,
      platformMerchantId,
      defaultSchedule: this.options.defaultSchedule,
      registry: this.registry,
      tokens: this.tokens,
    });
    if (this.stepper) this.stepper.useProjector(projector);
    else {
      this.stepper = new IndexerStep({
        ...this.options,
        chainId: this.chainId,
        deployBlock: deployment.deployBlock,
        dataSource: this.dataSource,
        chain: this.chain,
        registry: this.registry,
        projector,
        store: this.store,
        leadership: this.leadership,
        logger: this.logger,
        state: this.state,
        onReorg: this.onReorg,
      });
    }
    await this.registry.load(this.dataSource.manager, this.chainId);
    const cursor = await this.store.readCursor(this.dataSource.manager);
    this.state.cursor = cursor?.blockNumber ?? null;
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
    this.state.leader = false;
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
    if (!this.stepper) await this.init();
    if (!(await this.loop.takeLeadership())) return { kind: "follower" };
    return this.stepper!.run();
  }
}

export { ContractKind };
