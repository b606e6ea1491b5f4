import { WrongChainError } from "@raffle/chain";
import type { DataSource } from "typeorm";

import type { BatchApplier } from "./batch";
import type { BatchSizer, ProgressReporter } from "./batch-pacing";
import type { ChainSource } from "./chain-source";
import type { IndexerState } from "./indexer-state";
import type { IndexerOptions, StepResult } from "./indexer-types";
import type { Leadership } from "./leadership";
import type { Projector } from "./projector";
import type { Cursor, RawLogStore } from "./raw-log-store";
import type { ReorgRollback } from "./reorg";
import type { Registry } from "./registry";
import { expireVouchers } from "./voucher-expiry";

export interface StepDeps {
  chainId: number;
  deployBlock: number;
  confirmations: number;
  reorgWindowBlocks: number;
  dataSource: DataSource;
  chain: ChainSource;
  registry: Registry;
  projector: Projector;
  store: RawLogStore;
  leadership: Leadership;
  batch: BatchApplier;
  reorg: ReorgRollback;
  sizer: BatchSizer;
  progress: ProgressReporter;
  state: IndexerState;
  onReorg?: IndexerOptions["onReorg"];
}

/**
 * Owns one unit of the leader's work on one chain, once it leads: read the head and the cursor, then roll back a
 * reorg, apply the next batch, or do nothing when caught up. Every database read and write of the chain goes through
 * the leadership's session (see leadership.ts, fencing).
 */
/** How the chain-identity message names the node (the app that runs the indexer knows its setting's name). */
const INDEXED_NODE = { setting: "its RPC URL", shown: "the indexer's node" };

export class IndexerStep {
  constructor(private readonly deps: StepDeps) {}

  async run(): Promise<StepResult> {
    const { chain, chainId, state, store, leadership, sizer } = this.deps;
    const [head, servedChainId] = await Promise.all([chain.head(), chain.chainId()]);
    // Checked on every step, not once: after a reconnect the URL may lead to another node, whose blocks must never be
    // stored under this chain's id.
    if (servedChainId !== chainId) throw new WrongChainError(INDEXED_NODE, servedChainId, chainId);
    const safeHead = head - this.deps.confirmations;
    state.sawHead(head);
    const cursor = (await store.readCursor(leadership.manager)) ?? (await this.initialCursor());
    state.at(cursor.blockNumber, Math.max(0, safeHead - cursor.blockNumber));
    if (cursor.blockNumber >= 0 && (await chain.hashAt(cursor.blockNumber)) !== cursor.blockHash) {
      const ancestor = await this.deps.reorg.rollBack(cursor.blockNumber);
      state.reorged(ancestor);
      this.deps.onReorg?.({ chainId, from: cursor.blockNumber, ancestor, depth: cursor.blockNumber - ancestor });
      return { kind: "reorg", ancestor };
    }
    if (cursor.blockNumber >= safeHead) {
      state.caughtUp();
      await expireVouchers(this.deps.dataSource);
      return { kind: "idle" };
    }

    const from = cursor.blockNumber + 1;
    const to = Math.min(from + sizer.blocks - 1, safeHead);
    const end = await chain.header(to);
    const logs = await chain.logs(this.deps.registry.addresses(), from, to);
    const headers = await chain.headers([...logs.map((log) => log.blockNumber), to]);
    // Logs must come from the blocks we hold headers of; otherwise the chain moved under us: try again.
    if (headers.get(to)!.hash !== end.hash || logs.some((log) => headers.get(log.blockNumber)!.hash !== log.blockHash)) {
      return { kind: "retry", reason: "the chain changed during the batch" };
    }

    sizer.adapt(logs.length);
    // Blocks the window reaches get the undo log; older ones are final enough to skip its cost (a backfill).
    const undoable = to > head - this.deps.reorgWindowBlocks;
    const applied = await leadership
      .transaction((manager) => this.deps.batch.apply(manager, logs, headers, to, undoable))
      .catch(async (error) => {
        // The batch rolled back: rows it created (price tokens, raffles registered mid-batch) are gone, so what this
        // process remembered of them must go too, or every retry would fail on their foreign keys.
        await this.deps.projector.reload(leadership.manager).catch(() => undefined);
        throw error;
      });
    await expireVouchers(this.deps.dataSource);
    const lag = Math.max(0, safeHead - to);
    const lagSeconds = lag === 0 ? 0 : Math.max(0, Math.round((Date.now() - end.timestamp.getTime()) / 1000));
    state.batchApplied({ cursor: to, lag, lagSeconds, events: applied });
    this.deps.progress.report(to - from + 1, applied, safeHead - to, to);
    return { kind: "batch", from, to, events: applied };
  }

  private async initialCursor(): Promise<Cursor> {
    const blockNumber = this.deps.deployBlock - 1;
    const blockHash = blockNumber >= 0 ? (await this.deps.chain.header(blockNumber)).hash : "0x";
    await this.deps.leadership.transaction((manager) => this.deps.store.writeCursor(manager, blockNumber, blockHash));
    return { blockNumber, blockHash };
  }
}
