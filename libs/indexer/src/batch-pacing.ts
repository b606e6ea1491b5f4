import type { IndexerLogger } from "./logger";

const TARGET_LOGS_PER_BATCH = 2_000;

/** Blocks read per batch, adapted so a batch holds a few thousand logs: nodes answer huge ranges slowly. */
export class BatchSizer {
  private range: number;

  constructor(private readonly maxBlocks: number) {
    this.range = Math.min(maxBlocks, 16);
  }

  get blocks(): number {
    return this.range;
  }

  /** Halves the range after a crowded batch, doubles it (up to the maximum) after a sparse one. */
  adapt(logCount: number): void {
    if (logCount > TARGET_LOGS_PER_BATCH * 2) this.range = Math.max(1, Math.floor(this.range / 2));
    else if (logCount < TARGET_LOGS_PER_BATCH / 2) this.range = Math.min(this.maxBlocks, this.range * 2);
  }
}

/** Logs the indexing rate every `intervalMs` while there is work. */
export class ProgressReporter {
  private progress = { since: Date.now(), blocks: 0, events: 0 };

  constructor(private readonly deps: { chainId: number; intervalMs: number; logger: IndexerLogger }) {}

  report(blocks: number, events: number, behind: number, cursor: number): void {
    this.progress.blocks += blocks;
    this.progress.events += events;
    const elapsed = Date.now() - this.progress.since;
    if (elapsed < this.deps.intervalMs) return;
    if (behind > 0 || this.progress.events > 0) {
      this.deps.logger.info("indexer progress", {
        chainId: this.deps.chainId,
        blocksPerSecond: Math.round((this.progress.blocks * 1000) / elapsed),
        eventsPerSecond: Math.round((this.progress.events * 1000) / elapsed),
        blocksBehind: behind,
        cursor,
      });
    }
    this.progress = { since: Date.now(), blocks: 0, events: 0 };
  }
}
