import { WrongChainError } from "@raffle/chain";
import type { DataSource } from "typeorm";

import type { BatchApplier } from "./batch";
import type { BatchSizer, ProgressReporter } from "./batch-pacing";
import type { BlockHeader, ChainSource, RawLog } from "./chain-source";
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

/** Blocks read first of a batch's range, and the logs that make the range dense: see IndexerStep.read. */
const PROBE_BLOCKS = 16;
const DENSE_LOGS = 2_000;
/**
 * Vouchers expire by wall time: a step that finds the index caught up expires them, and so does a batch, at most once
 * per this interval. A backfill's batches come many a second, and each sweep is a round trip on its critical path.
 */
const BATCH_EXPIRY_INTERVAL_MS = 1_000;

/** What a batch reads of the chain: its range's logs, the headers of their blocks, of its first and of its last. */
interface BatchRead {
  from: number;
  to: number;
  /** The addresses the logs were read for, joined: a batch that registered contracts makes a read ahead stale. */
  addresses: string;
  end: BlockHeader;
  logs: RawLog[];
  headers: Map<number, BlockHeader>;
}

export class IndexerStep {
  /** The next range, read while the current batch was written; used only if it still fits (takeReadAhead). */
  private ahead: { from: number; read: Promise<BatchRead | null> } | null = null;
  /** When vouchers were last expired (Date.now()); none yet: the first step expires them. */
  private expiredAt = -Infinity;

  constructor(private readonly deps: StepDeps) {}

  async run(): Promise<StepResult> {
    const { chain, chainId, state, store, leadership, sizer } = this.deps;
    const stored = await store.readCursor(leadership.manager);
    // The cursor whose block must still be on the chain: none before the first cursor, or before block 0.
    const checked = stored && stored.blockNumber >= 0 ? stored : null;
    // The chain id, the head and the checked block's hash on the node in one request (tip).
    const tip = await chain.tip(checked?.blockNumber ?? null);
    // Checked on every step, not once: after a reconnect the URL may lead to another node, whose blocks must never be
    // stored under this chain's id.
    if (tip.chainId !== chainId) throw new WrongChainError(INDEXED_NODE, tip.chainId, chainId);
    const { head } = tip;
    const safeHead = head - this.deps.confirmations;
    state.sawHead(head);
    // A first cursor is written with its block's hash as the node gives it now: nothing to compare yet.
    const cursor = stored ?? (await this.initialCursor());
    state.at(cursor.blockNumber, Math.max(0, safeHead - cursor.blockNumber));
    if (checked && tip.hash !== checked.blockHash) {
      this.ahead = null;
      const ancestor = await this.deps.reorg.rollBack(cursor.blockNumber);
      state.reorged(ancestor);
      this.deps.onReorg?.({ chainId, from: cursor.blockNumber, ancestor, depth: cursor.blockNumber - ancestor });
      return { kind: "reorg", ancestor };
    }
    if (cursor.blockNumber >= safeHead) {
      state.caughtUp();
      await this.expireVouchers();
      return { kind: "idle" };
    }

    const from = cursor.blockNumber + 1;
    const read = (await this.takeReadAhead(from, safeHead)) ?? (await this.read(from, Math.min(from + sizer.blocks - 1, safeHead)));
    const { to, end, logs, headers } = read;
    // Logs must come from the blocks we hold headers of, and the first block must follow the cursor; otherwise the
    // chain moved under us: try again (a reorg under the cursor is found by the next step's hash check).
    if (
      headers.get(to)!.hash !== end.hash ||
      logs.some((log) => headers.get(log.blockNumber)!.hash !== log.blockHash) ||
      (cursor.blockNumber >= 0 && headers.get(from)!.parentHash !== cursor.blockHash)
    ) {
      return { kind: "retry", reason: "the chain changed during the batch" };
    }

    sizer.adapt(logs.length);
    // Blocks the window reaches get the undo log; older ones are final enough to skip its cost (a backfill).
    const undoable = to > head - this.deps.reorgWindowBlocks;
    // While this batch is written, the next range is read (a backfill then waits on the node or on the database,
    // whichever is slower, not on both in turn).
    if (to < safeHead) this.readAhead(to + 1, Math.min(to + sizer.blocks, safeHead));
    const applied = await leadership
      .transaction((manager) => this.deps.batch.apply(manager, logs, headers, to, undoable))
      .catch(async (error) => {
        // The batch rolled back: rows it created (price tokens, raffles registered mid-batch) are gone, so what this
        // process remembered of them must go too, or every retry would fail on their foreign keys.
        await this.deps.projector.reload(leadership.manager).catch(() => undefined);
        this.ahead = null;
        throw error;
      });
    if (Date.now() - this.expiredAt >= BATCH_EXPIRY_INTERVAL_MS) await this.expireVouchers();
    const lag = Math.max(0, safeHead - to);
    const lagSeconds = lag === 0 ? 0 : Math.max(0, Math.round((Date.now() - end.timestamp.getTime()) / 1000));
    state.batchApplied({ cursor: to, lag, lagSeconds, events: applied });
    this.deps.progress.report(to - from + 1, applied, safeHead - to, to);
    return { kind: "batch", from, to, events: applied };
  }

  /**
   * Reads a batch's range. A range reaching into dense history would otherwise be read whole before any of it is
   * written (the batch sizer learns the density only from a batch read): its first PROBE_BLOCKS are read alone, and
   * when they hold more than DENSE_LOGS at that rate for the whole range, they are the batch, and the rest of the
   * range is read ahead while they are written.
   */
  private async read(from: number, to: number): Promise<BatchRead> {
    const probeTo = Math.min(to, from + PROBE_BLOCKS - 1);
    const probe = await this.readRange(from, probeTo);
    if (probeTo === to || (probe.logs.length * (to - from + 1)) / (probeTo - from + 1) > DENSE_LOGS) return probe;
    const rest = await this.readRange(probeTo + 1, to);
    // The two reads must be of one chain, the probe's logs included: else the probe alone is the batch (and run()
    // checks it as any read).
    const oneChain = probe.headers.get(probeTo)!.hash === probe.end.hash && rest.headers.get(probeTo + 1)!.parentHash === probe.end.hash;
    if (rest.addresses !== probe.addresses || !oneChain) return probe;
    return { ...rest, from, logs: [...probe.logs, ...rest.logs], headers: new Map([...probe.headers, ...rest.headers]) };
  }

  private async readRange(from: number, to: number): Promise<BatchRead> {
    const { chain, registry } = this.deps;
    const addresses = registry.addresses();
    const end = await chain.header(to);
    const logs = await chain.logs(addresses, from, to);
    const headers = await chain.headers([from, ...logs.map((log) => log.blockNumber), to]);
    return { from, to, addresses: addresses.join(), end, logs, headers };
  }

  private async expireVouchers(): Promise<void> {
    this.expiredAt = Date.now();
    await expireVouchers(this.deps.dataSource);
  }

  private readAhead(from: number, to: number): void {
    // A failed read ahead is no failure: the step reads the range again itself.
    this.ahead = { from, read: this.read(from, to).catch(() => null) };
  }

  /** The read ahead, if it starts at `from`, ends at or below the safe head and covers every registered contract. */
  private async takeReadAhead(from: number, safeHead: number): Promise<BatchRead | null> {
    const ahead = this.ahead;
    this.ahead = null;
    if (!ahead || ahead.from !== from) return null;
    const read = await ahead.read;
    if (!read || read.to > safeHead || read.addresses !== this.deps.registry.addresses().join()) return null;
    return read;
  }

  private async initialCursor(): Promise<Cursor> {
    const blockNumber = this.deps.deployBlock - 1;
    const blockHash = blockNumber >= 0 ? (await this.deps.chain.header(blockNumber)).hash : "0x";
    await this.deps.leadership.transaction((manager) => this.deps.store.writeCursor(manager, blockNumber, blockHash));
    return { blockNumber, blockHash };
  }
}
