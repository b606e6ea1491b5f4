import { isRetryable } from "@raffle/config";

import { raffleKey, type RaffleListing, type RaffleSource } from "./raffle-source";
import { retryWithBackoff, type BackoffOptions } from "./backoff";
import { WorkerError } from "./errors";
import { errorMessage, type WorkerLogger } from "./logger";
import { finishPendingDraws, rotateRound, type RaffleRoundsPort, type RotationHooks } from "./rotation";
import { RaffleScheduler, type TimerFactory } from "./scheduler";
import { RunStatusStore, type RaffleRef, type RaffleRunRecord } from "./run-status";

/** Builds the chain port of one raffle; the logger carries the raffle's fields. */
export type RoundsPortFactory = (address: string, logger: WorkerLogger) => RaffleRoundsPort;

export interface ChainRotatorOptions {
  chainId: number;
  source: RaffleSource;
  ports: RoundsPortFactory;
  /** Carries `chainId` on every line. */
  logger: WorkerLogger;
  refreshIntervalMs: number;
  permanentFailureRefreshes: number;
  apiRetry: Omit<BackoffOptions, "isFatal" | "signal">;
  /** Whether an address holds a contract on this chain (`--once --contract` on a raffle the API does not list). */
  hasContract?: (address: string) => Promise<boolean>;
  scheduleTimeZone?: string;
  timers?: TimerFactory;
  /** Fault injection for tests. */
  hooks?: RotationHooks;
  /** Called with every finished run (for the metrics). */
  onRunFinished?: (record: RaffleRunRecord) => void;
}

export interface LastRefresh {
  time: string;
  ok: boolean;
  raffles?: number;
  error?: string;
}

/** What /health tells of one chain's rotations. */
export interface ChainRotationsReport {
  /** Raffles listed for this chain by the last successful refresh. */
  raffles: number;
  lastRefresh?: LastRefresh;
  /** The most recent finished run on this chain. */
  lastRotation?: { time: string; contract: string; status: RaffleRunRecord["status"] };
  /** The most recent failure of a run or of a list refresh. */
  lastError?: { time: string; message: string; contract?: string };
  runs: RaffleRunRecord[];
}

/** The outcome of `runOnce` on one chain. */
export interface SingleRunResult {
  ok: boolean;
  /** False when the asked contract is neither listed nor deployed on this chain: nothing was run. */
  found: boolean;
}

/**
 * The merchant's round automation on one chain: loads the chain's raffles from the API (retrying while the API is
 * down), runs each on its schedule with one lock per raffle, refreshes the list periodically, and keeps the last run
 * of every raffle. It knows nothing of the node's health: the chain runner starts it once the node answers.
 */
export class ChainRotator {
  readonly status = new RunStatusStore();
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly stopping = new AbortController();
  private scheduler?: RaffleScheduler;
  private lastRefresh?: LastRefresh;
  private lastRotation?: ChainRotationsReport["lastRotation"];
  private lastError?: ChainRotationsReport["lastError"];

  constructor(private readonly options: ChainRotatorOptions) {}

  get chainId(): number {
    return this.options.chainId;
  }

  /** Loads the raffles (with backoff while the API is unreachable) and schedules them; resolves once scheduled. */
  async start(): Promise<void> {
    const { logger } = this.options;
    const scheduler = new RaffleScheduler({
      source: this.options.source,
      logger,
      timers: this.options.timers,
      timeZone: this.options.scheduleTimeZone,
      onTick: (raffle, tickSecond) => this.track(this.runRaffle(raffle, tickSecond)),
      onInvalidSchedule: (raffle, problem) => this.status.invalidSchedule(raffle, problem),
      onRefreshError: (error) => this.refreshFailed(error),
      onRefresh: (raffles, summary) => {
        this.lastRefresh = { time: new Date().toISOString(), ok: true, raffles: raffles.length };
        for (const raffle of this.status.refreshed(raffles)) {
          logger.info("retrying a raffle that failed permanently", { contract: raffle.address, contractId: raffle.id });
        }
        if (summary.added.length + summary.changed.length + summary.removed.length > 0) logger.info("raffle list refreshed", { ...summary });
      },
    });
    this.scheduler = scheduler;
    await this.withApiRetry("loading the raffle list", () => scheduler.refresh());
    if (this.stopping.signal.aborted) return;
    scheduler.startRefreshing(this.options.refreshIntervalMs);
    logger.info("chain rotations started", { raffles: scheduler.snapshot().length, refreshIntervalMs: this.options.refreshIntervalMs });
  }

  /**
   * One rotation of every raffle of this chain (or of `contract` only), then done. `contract` need not be listed by
   * the API (the merchant asked for it by address), but it must then hold code on this chain to be run here.
   */
  async runOnce(contract?: string): Promise<SingleRunResult> {
    const listed = await this.withApiRetry("loading the raffle list", () => this.options.source.listRaffles());
    let raffles = listed;
    if (contract) {
      raffles = listed.filter((raffle) => raffle.address.toLowerCase() === contract.toLowerCase());
      if (raffles.length === 0) {
        if (this.options.hasContract && !(await this.options.hasContract(contract))) {
          this.options.logger.info("contract is neither listed nor deployed on this chain; nothing to run here", { contract });
          return { ok: true, found: false };
        }
        this.options.logger.warn("contract is not among the merchant's raffles listed by the API; rotating it anyway", { contract });
        raffles = [{ id: 0, address: contract, chainId: this.options.chainId, schedule: undefined }];
      }
    }
    const records = await Promise.all(raffles.map((raffle) => this.runRaffle(raffle)));
    const ok = records.every((record) => record !== undefined && !["failed", "failedPermanently"].includes(record.status));
    this.options.logger.info("single run finished", { raffles: raffles.length, ok });
    return { ok, found: true };
  }

  /** One run of one raffle; never throws. Undefined when skipped because a run of the same raffle is under way. */
  async runRaffle(raffle: RaffleListing, tickSecond?: number): Promise<RaffleRunRecord | undefined> {
    const key = raffleKey(raffle);
    const logger = this.options.logger.child({ contract: raffle.address, contractId: raffle.id });
    if (this.busy.has(key)) {
      logger.debug("previous run of this raffle still under way; tick skipped");
      return undefined;
    }
    if (this.status.isBlocked(raffle)) {
      // Reported once when it failed; every further tick is a quiet skip until the block is lifted.
      this.status.skippedTick(raffle);
      logger.debug("raffle failed permanently; tick skipped");
      return this.status.get(raffle);
    }
    this.busy.add(key);
    this.status.started(raffle);
    const txHashes: string[] = [];
    try {
      const port = this.options.ports(raffle.address, logger);
      const outcome = await rotateRound(port, { logger, hooks: this.options.hooks, tickSecond, txHashes });
      // After the rotation, so a slow draw never delays a round's end; the round just ended is still drawing here and
      // is finished at a later run if its callback cannot draw its winners.
      await finishPendingDraws(port, outcome.newRoundId ?? outcome.roundId, { logger, txHashes });
      return this.finished(this.status.succeeded(raffle, outcome));
    } catch (error) {
      const fields = { error: errorMessage(error), code: error instanceof WorkerError ? error.code : undefined, txHashes };
      if (!isRetryable(error)) {
        const retryAfterRefreshes = this.options.permanentFailureRefreshes;
        logger.error("rotation failed permanently; raffle skipped until its listing changes or list refreshes pass", {
          ...fields,
          retryAfterRefreshes,
        });
        return this.finished(this.status.failedPermanently(raffle, error, retryAfterRefreshes));
      }
      logger.error("rotation failed; it is retried at the next tick", fields);
      return this.finished(this.status.failed(raffle, error, txHashes));
    } finally {
      this.busy.delete(key);
    }
  }

  /** The last run of one raffle of this chain. */
  lastRun(address: string): RaffleRunRecord | undefined {
    const raffle: RaffleRef = { chainId: this.options.chainId, address };
    return this.status.get(raffle);
  }

  report(): ChainRotationsReport {
    return {
      raffles: this.scheduler?.snapshot().length ?? 0,
      lastRefresh: this.lastRefresh,
      lastRotation: this.lastRotation,
      lastError: this.lastError,
      runs: this.status.snapshot(),
    };
  }

  /** Resolves when the runs started by ticks so far have finished. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops the timers and waits (up to `graceMs`) for runs under way; an interrupted run is finished by the next one. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping.abort();
    this.scheduler?.stop();
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs).unref()))]);
    clearTimeout(timer);
  }

  private finished(record: RaffleRunRecord): RaffleRunRecord {
    this.lastRotation = { time: record.time, contract: record.contract, status: record.status };
    if (record.error !== undefined) this.lastError = { time: record.time, message: record.error, contract: record.contract };
    this.options.onRunFinished?.(record);
    return record;
  }

  private refreshFailed(error: unknown): void {
    const time = new Date().toISOString();
    this.lastRefresh = { time, ok: false, error: errorMessage(error) };
    this.lastError = { time, message: `raffle list: ${errorMessage(error)}` };
  }

  private track(run: Promise<unknown>): void {
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async withApiRetry<T>(what: string, task: () => Promise<T>): Promise<T> {
    try {
      return await retryWithBackoff(what, task, this.options.logger, {
        ...this.options.apiRetry,
        isFatal: (error) => !isRetryable(error),
        signal: this.stopping.signal,
      });
    } catch (error) {
      this.refreshFailed(error);
      throw error;
    }
  }
}
