import type { IndexerState } from "./indexer-state";
import type { StepResult } from "./indexer-types";
import type { Leadership } from "./leadership";
import { IndexResetRequired } from "./reset";
import type { IndexerLogger } from "./logger";

export interface LeaderLoopDeps {
  chainId: number;
  pollIntervalMs: number;
  /** The longest wait between two steps of a quiet chain: quiet steps in a row double the wait up to this. */
  idlePollMaxMs: number;
  leadership: Leadership;
  logger: IndexerLogger;
  state: IndexerState;
  /** One step of the indexer (which takes the leadership through `takeLeadership`). */
  step(): Promise<StepResult>;
  /** Reloads what another leader may have changed meanwhile (the registry, cached rows), on the lock's session. */
  refresh(): Promise<void>;
}

/**
 * Owns the background life of one chain's indexer: the run loop (poll, or wake on a new head), logging a failure once
 * per distinct error, and taking and losing the chain's leadership. Each chain has its own loop, lock and state, so a
 * failing node or a reorg on one chain never holds up another's loop.
 *
 * A quiet chain is polled less and less: after each quiet step in a row (idle, or a batch without events that reached
 * the head) the wait doubles, from the poll interval up to `idlePollMaxMs`, so a process serving chains that see no
 * traffic spends next to nothing on them (every step is a few JSON-RPC calls and queries). A step that indexed events, a reorg, or a new head announced over the WebSocket
 * brings the wait back to the poll interval; a head also cuts the current wait short, so with a WebSocket the back-off
 * costs no latency at all. Without one, the first block after a quiet spell waits at most `idlePollMaxMs`.
 */
export class LeaderLoop {
  /** A head was announced since the current step began: the step may not have seen it, so another one follows. */
  private headArrived = false;
  /** The error last logged and how many steps in a row failed: an outage is logged once, and its end once. */
  private failure: { message: string; steps: number } | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private wakeOnHead = false;
  /**
   * Quiet steps in a row (idle, or a batch without events that reached the head; a batch without events that is still
   * catching up neither counts nor resets): how far the poll has backed off.
   */
  private quietSteps = 0;

  constructor(private readonly deps: LeaderLoopDeps) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ends the loop after its current step (cutting its sleep short); the caller then releases the leadership. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** Leads if this process holds the lock or can take it now. */
  async takeLeadership(): Promise<boolean> {
    const { leadership, state, chainId } = this.deps;
    if (leadership.isHeld) return true;
    if (state.leader) {
      // The lock's session ended: another process may be waiting for the lock. Taking it straight back here, before
      // the followers' next try, kept it from them (test/leadership.spec.ts); this process tries again a step later.
      this.lostLeadership();
      return false;
    }
    const acquired = await leadership.tryAcquire();
    if (acquired) {
      // The former leader may have registered raffles (or rolled some back) since this process last looked.
      await this.deps.refresh();
      this.deps.logger.info("indexer leadership acquired", { chainId });
    }
    state.setLeader(acquired);
    return acquired;
  }

  /** Only the leader is woken: the others would retry the advisory lock on every block. */
  onNewHead(): void {
    if (!this.running || !this.deps.state.leader) return;
    this.headArrived = true;
    this.quietSteps = 0;
    this.deps.state.headWoke();
    if (this.wakeOnHead) this.wake?.();
  }

  private async run(): Promise<void> {
    const { state, leadership, pollIntervalMs } = this.deps;
    while (this.running) {
      // Polls start a poll interval apart whatever a step took, so a new block waits at most one interval for the
      // step that reads it (sleeping a full interval after each step would add the step's own time to that wait).
      const stepStarted = Date.now();
      this.headArrived = false;
      let failed = false;
      try {
        const result = await this.deps.step();
        this.recovered();
        if (result.kind === "reorg" || (result.kind === "batch" && result.events > 0)) this.quietSteps = 0;
        // A batch without events that reached the head is as quiet as an idle step: on a chain whose blocks come
        // faster than a step, going on at once would read logs block by block, never backing off.
        const quiet = result.kind === "idle" || (result.kind === "batch" && result.events === 0 && state.snapshot().lag === 0);
        if (!quiet && (result.kind === "batch" || result.kind === "reorg")) continue;
        if (quiet && !this.headArrived) this.quietSteps += 1;
      } catch (error) {
        this.stepFailed(error);
        // A failure may mean the lock's session is gone: then this process stops leading before its next step.
        if (state.leader && !(await leadership.confirm())) this.lostLeadership();
        failed = true;
      }
      // A standby asks for the lock every poll interval (one pg_try_advisory_lock): a chain with a block a second falls
      // one block behind for each second the lock stands free after its leader dies (tools/reliability/launch.ts).
      const interval = state.leader ? this.leaderWait() : pollIntervalMs;
      // After a failure, a full interval that no head cuts short: a failing node or database is not retried back to
      // back, nor on every block.
      if (failed) await this.sleep(interval, false);
      else if (!this.headArrived) await this.sleep(Math.max(0, stepStarted + interval - Date.now()), true);
    }
  }

  /** The poll interval, doubled for each quiet step in a row beyond the first, up to `idlePollMaxMs`. */
  private leaderWait(): number {
    const { pollIntervalMs, idlePollMaxMs } = this.deps;
    const doublings = Math.min(Math.max(this.quietSteps - 1, 0), 30);
    return Math.max(pollIntervalMs, Math.min(idlePollMaxMs, pollIntervalMs * 2 ** doublings));
  }

  /** Logs a failure once per distinct error, not at every retry of an outage. */
  private stepFailed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.deps.state.stepFailed(message, error instanceof IndexResetRequired);
    if (this.failure?.message === message) {
      this.failure.steps += 1;
      return;
    }
    this.failure = { message, steps: 1 };
    this.deps.logger.error("indexer step failed; retrying until it succeeds (logged once per distinct error)", {
      chainId: this.deps.chainId,
      error: message,
    });
  }

  private recovered(): void {
    if (!this.failure) return;
    this.deps.logger.info("indexer steps succeed again", { chainId: this.deps.chainId, failedSteps: this.failure.steps });
    this.failure = null;
    this.deps.state.recovered();
  }

  private lostLeadership(): void {
    this.deps.state.setLeader(false);
    this.deps.logger.warn("indexer leadership lost: the lock's database session ended; stepping down", { chainId: this.deps.chainId });
  }

  /** Sleeps until the time is up, `stop()`, or (if `wakeOnHead`) a new head. */
  private sleep(ms: number, wakeOnHead: boolean): Promise<void> {
    // stop() may have come during the step, when there was no sleep to cut short.
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        this.wakeOnHead = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      this.wakeOnHead = wakeOnHead;
    });
  }
}
