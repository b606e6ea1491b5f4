import type { IndexerStatus } from "./indexer-types";

/**
 * The indexer's status, the one part of it that changes as it runs: the leader loop and the step report what
 * happened through these methods, and `status()` hands out copies.
 */
export class IndexerState {
  private readonly status: IndexerStatus;

  constructor(chainId: number) {
    this.status = {
      chainId,
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
  }

  snapshot(): IndexerStatus {
    return { ...this.status };
  }

  get leader(): boolean {
    return this.status.leader;
  }

  setLeader(leader: boolean): void {
    this.status.leader = leader;
  }

  headWoke(): void {
    this.status.headWakes += 1;
  }

  stepFailed(message: string, resetRequired: boolean): void {
    this.status.lastError = message;
    this.status.resetRequired = resetRequired;
    this.status.failedSteps += 1;
  }

  recovered(): void {
    this.status.lastError = null;
    this.status.resetRequired = false;
  }

  sawHead(head: number): void {
    this.status.head = head;
  }

  /** Where the index stands, and (when known) the blocks between it and the confirmed head. */
  at(cursor: number | null, lag?: number): void {
    this.status.cursor = cursor;
    if (lag !== undefined) this.status.lag = lag;
  }

  reorged(ancestor: number): void {
    this.status.cursor = ancestor;
    this.status.reorgs += 1;
  }

  caughtUp(): void {
    this.status.lagSeconds = 0;
  }

  batchApplied(batch: { cursor: number; lag: number; lagSeconds: number; events: number }): void {
    this.status.cursor = batch.cursor;
    this.status.lag = batch.lag;
    this.status.lagSeconds = batch.lagSeconds;
    this.status.eventsIndexed += batch.events;
    this.status.lastBatchAt = new Date().toISOString();
    this.status.lastError = null;
  }
}
