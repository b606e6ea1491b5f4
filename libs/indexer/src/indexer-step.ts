import type { DataSource } from "typeorm";

import { BatchApplier } from "./batch";
import type { ChainSource } from "./chain-source";
import type { IndexerOptions, IndexerStatus, StepResult } from "./indexer-types";
import type { Leadership } from "./leadership";
import type { IndexerLogger } from "./logger";
import type { Projector } from "./projector";
import type { Cursor, RawLogStore } from "./raw-log-store";
import { rollBackReorg } from "./reorg";
import type { Registry } from "./registry";
import { expireVouchers } from "./voucher-expiry";

/**
 * Owns one unit of the leader's work on one chain, once it leads: read the head and the cursor, then roll back a
 * reorg, apply the next batch, or do nothing when caught up. It also sizes the batches and reports progress. Every
 * database read and write of the chain goes through the leadership's session (see leadership.ts, fencing).
 */
export interface StepContext {
  chainId: number;
  deployBlock: number;
  confirmations: number;
  batchBlocks: number;
  reorgWindowBlocks: number;
  progressIntervalMs: number;
  dataSource: DataSource;
  chain: ChainSource;
  registry: Registry;
  projector: Projector;
  store: RawLogStore;
  leadership: Leadership;
  logger: IndexerLogger;
  /** The indexer's status, updated in place. */
  state: IndexerStatus;
  onReorg?: IndexerOptions["onReorg"];
}

const TARGET_LOGS_PER_BATCH = 2_000;

export class IndexerStep {
  private readonly batch: BatchApplier;
  /** Blocks read per batch, adapted so a batch holds a few thousand logs: nodes answer huge ranges slowly. */
  private rangeBlocks: number;
  private progress = { since: Date.now(), blocks: 0, events: 0 };

  private readonly ctx: StepContext;

  constructor(ctx: StepContext) {
    // A copy of its own: init() may hand it a new projector, which the batch applier (sharing this object) then uses.
    this.ctx = { ...ctx };
    this.batch = new BatchApplier(this.ctx);
    this.rangeBlocks = Math.min(ctx.batchBlocks, 16);
  }

  /** Another process led meanwhile: what the projector cached may have been rolled back. */
  forgetCachedRows(): void {
    this.ctx.projector.forgetCachedRows();
  }

  /** A repeated init() builds a new projector (fresh caches); the batch sizing learnt so far stays. */
  useProjector(projector: Projector): void {
    this.ctx.projector = projector;
  }

  async run(): Promise<StepResult> {
    const { chain, chainId, state, store, leadership } = this.ctx;
    const [head, servedChainId] = await Promise.all([chain.head(), chain.chainId()]);
    // Checked on every step, not once: after a reconnect the URL may lead to another node, whose blocks must never be
    // stored under this chain's id.
    if (servedChainId !== chainId) throw new Error(`the node serves chain ${servedChainId}, not chain ${chainId}: nothing is indexed from it`);
    const safeHead = head - this.ctx.confirmations;
    state.head = head;
    const cursor = (await store.readCursor(leadership.manager)) ?? (await this.initialCursor());
    state.cursor = cursor.blockNumber;
    state.lag = Math.max(0, safeHead - cursor.blockNumber);
    if (cursor.blockNumber >= 0 && (await chain.hashAt(cursor.blockNumber)) !== cursor.blockHash) {
      const ancestor = await rollBackReorg(this.ctx, cursor.blockNumber);
      state.cursor = ancestor;
      state.reorgs += 1;
      this.ctx.onReorg?.({ chainId, from: cursor.blockNumber, ancestor, depth: cursor.blockNumber - ancestor });
      return { kind: "reorg", ancestor };
    }
    if (cursor.blockNumber >= safeHead) {
      state.lagSeconds = 0;
      await expireVouchers(this.ctx.dataSource);
      return { kind: "idle" };
    }

    const from = cursor.blockNumber + 1;
    const to = Math.min(from + this.rangeBlocks - 1, safeHead);
    const end = await chain.header(to);
    const logs = await chain.logs(this.ctx.registry.addresses(), from, to);
    const headers = await chain.headers([...logs.map((log) => log.blockNumber), to]);
    // Logs must come from the blocks we hold headers of; otherwise the chain moved under us: try again.
    if (headers.get(to)!.hash !== end.hash || logs.some((log) => headers.get(log.blockNumber)!.hash !== log.blockHash)) {
      return { kind: "retry", reason: "the chain changed during the batch" };
    }

    this.adaptRange(logs.length);
    // Blocks the window reaches get the undo log; older ones are final enough to skip its cost (a backfill).
    const undoable = to > head - this.ctx.reorgWindowBlocks;
    const applied = await leadership
      .transaction((manager) => this.batch.apply(manager, logs, headers, to, undoable))
      .catch(async (error) => {
        // The batch rolled back: rows it created (price tokens, raffles registered mid-batch) are gone, so what this
        // process remembered of them must go too, or every retry would fail on their foreign keys.
        this.ctx.projector.forgetCachedRows();
        await this.ctx.registry.load(leadership.manager, this.ctx.chainId).catch(() => undefined);
        throw error;
      });
    await expireVouchers(this.ctx.dataSource);
    state.cursor = to;
    state.lag = Math.max(0, safeHead - to);
    state.lagSeconds = state.lag === 0 ? 0 : Math.max(0, Math.round((Date.now() - end.timestamp.getTime()) / 1000));
    state.eventsIndexed += applied;
    state.lastBatchAt = new Date().toISOString();
    state.lastError = null;
    this.reportProgress(to - from + 1, applied, safeHead - to);
    return { kind: "batch", from, to, events: applied };
  }

  private async initialCursor(): Promise<Cursor> {
    const blockNumber = this.ctx.deployBlock - 1;
    const blockHash = blockNumber >= 0 ? (await this.ctx.chain.header(blockNumber)).hash : "0x";
    await this.ctx.leadership.transaction((manager) => this.ctx.store.writeCursor(manager, blockNumber, blockHash));
    return { blockNumber, blockHash };
  }

  private adaptRange(logCount: number): void {
    if (logCount > TARGET_LOGS_PER_BATCH * 2) this.rangeBlocks = Math.max(1, Math.floor(this.rangeBlocks / 2));
    else if (logCount < TARGET_LOGS_PER_BATCH / 2) this.rangeBlocks = Math.min(this.ctx.batchBlocks, this.rangeBlocks * 2);
  }

  private reportProgress(blocks: number, events: number, behind: number): void {
    this.progress.blocks += blocks;
    this.progress.events += events;
    const elapsed = Date.now() - this.progress.since;
    if (elapsed < this.ctx.progressIntervalMs) return;
    if (behind > 0 || this.progress.events > 0) {
      this.ctx.logger.info("indexer progress", {
        chainId: this.ctx.chainId,
        blocksPerSecond: Math.round((this.progress.blocks * 1000) / elapsed),
        eventsPerSecond: Math.round((this.progress.events * 1000) / elapsed),
        blocksBehind: behind,
        cursor: this.ctx.state.cursor,
      });
    }
    this.progress = { since: Date.now(), blocks: 0, events: 0 };
  }
}
