import { CronTime, validateCronExpression } from "cron";

import { raffleKey, type RaffleListing, type RaffleSource } from "./raffle-source";
import { errorMessage, type WorkerLogger } from "./logger";

/** A running timer of one raffle. */
export interface ScheduledTimer {
  stop(): void;
}

/** Starts a timer that calls `onTick` with the scheduled second of each fire of `schedule`. */
export type TimerFactory = (schedule: string, timeZone: string, onTick: (tickSecond: number) => void) => ScheduledTimer;

/** setTimeout's longest delay; a longer wait (a yearly schedule) is split. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Cron timers: the cron package computes the fire times, plain timeouts wait for them. (Its CronJob reports late
 * ticks with console.warn, which would break the one-JSON-object-per-line logs.) Fires missed while the process was
 * stalled are skipped, never run in a burst.
 */
export const cronTimers: TimerFactory = (schedule, timeZone, onTick) => {
  const time = new CronTime(schedule, timeZone);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const waitFor = (due: number): void => {
    timer = setTimeout(
      () => {
        if (stopped) return;
        if (Date.now() < due) return waitFor(due);
        waitFor(time.getNextDateFrom(new Date(Math.max(due, Date.now())), timeZone).toMillis());
        onTick(Math.round(due / 1_000));
      },
      Math.min(Math.max(0, due - Date.now()), MAX_TIMEOUT_MS),
    );
  };
  waitFor(time.sendAt().toMillis());
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
};

/** Why a schedule cannot be used, or undefined when the cron package accepts it (5 or 6 fields, or an alias). */
export function scheduleProblem(schedule: string | undefined): string | undefined {
  if (schedule === undefined || schedule.trim() === "") return "no schedule";
  const { valid, error } = validateCronExpression(schedule);
  return valid ? undefined : (error?.message ?? "invalid cron expression");
}

export interface RefreshSummary {
  raffles: number;
  added: string[];
  changed: string[];
  removed: string[];
  invalid: string[];
}

export interface SchedulerOptions {
  source: RaffleSource;
  logger: WorkerLogger;
  /** Called at each tick of a raffle's schedule. */
  onTick: (raffle: RaffleListing, tickSecond: number) => void;
  /** Called after each successful refresh with the full list (also raffles with an invalid schedule). */
  onRefresh?: (raffles: RaffleListing[], summary: RefreshSummary) => void;
  /** Called when a periodic refresh fails (the current timers keep running). */
  onRefreshError?: (error: unknown) => void;
  /** Called when a raffle's schedule cannot be used, so its status can say so. */
  onInvalidSchedule?: (raffle: RaffleListing, problem: string) => void;
  timers?: TimerFactory;
  timeZone?: string;
}

interface Entry {
  raffle: RaffleListing;
  timer?: ScheduledTimer;
  problem?: string;
}

/**
 * Keeps one timer per raffle in step with the raffle list: new raffles are scheduled, changed schedules are
 * re-armed, removed raffles dropped. An invalid schedule is reported once per change and skipped, never fatal.
 */
export class RaffleScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly timers: TimerFactory;
  private refreshTimer?: NodeJS.Timeout;
  private refreshing?: Promise<RefreshSummary>;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {
    this.timers = options.timers ?? cronTimers;
  }

  /** Reads the list once and applies it; throws (keeping the current timers) when the list cannot be read. */
  refresh(): Promise<RefreshSummary> {
    // Overlapping refreshes would race on the entries; the second caller shares the first one's result.
    this.refreshing ??= this.readAndApply().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Refreshes every `intervalMs`; a failed refresh is logged and the current timers keep running. */
  startRefreshing(intervalMs: number): void {
    if (this.stopped) return;
    this.refreshTimer = setInterval(() => {
      this.refresh().catch((error: unknown) => {
        if (this.stopped) return;
        this.options.logger.warn("raffle list refresh failed; keeping current schedules", { error: errorMessage(error) });
        this.options.onRefreshError?.(error);
      });
    }, intervalMs);
  }

  /** Stops every timer for good: a refresh still under way arms nothing. */
  stop(): void {
    this.stopped = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
    for (const entry of this.entries.values()) entry.timer?.stop();
    this.entries.clear();
  }

  /** Raffles currently known, with the reason a schedule is unusable where it is. */
  snapshot(): Array<{ raffle: RaffleListing; scheduled: boolean; problem?: string }> {
    return [...this.entries.values()].map(({ raffle, timer, problem }) => ({ raffle, scheduled: timer !== undefined, problem }));
  }

  private async readAndApply(): Promise<RefreshSummary> {
    const raffles = await this.options.source.listRaffles();
    if (this.stopped) throw new Error("scheduler stopped");
    const summary = this.apply(raffles);
    this.options.onRefresh?.(raffles, summary);
    return summary;
  }

  private apply(raffles: RaffleListing[]): RefreshSummary {
    const summary: RefreshSummary = { raffles: raffles.length, added: [], changed: [], removed: [], invalid: [] };
    const seen = new Set<string>();
    for (const raffle of raffles) {
      const key = raffleKey(raffle);
      seen.add(key);
      const current = this.entries.get(key);
      if (current && current.raffle.schedule === raffle.schedule) {
        current.raffle = raffle;
        if (current.problem) summary.invalid.push(raffle.address);
        continue;
      }
      current?.timer?.stop();
      (current ? summary.changed : summary.added).push(raffle.address);
      const entry = this.arm(raffle);
      if (entry.problem) summary.invalid.push(raffle.address);
      this.entries.set(key, entry);
    }
    for (const [key, entry] of this.entries) {
      if (seen.has(key)) continue;
      entry.timer?.stop();
      this.entries.delete(key);
      summary.removed.push(entry.raffle.address);
      this.options.logger.info("raffle no longer listed; schedule dropped", { contract: entry.raffle.address });
    }
    return summary;
  }

  private arm(raffle: RaffleListing): Entry {
    const fields = { contract: raffle.address, contractId: raffle.id, schedule: raffle.schedule };
    const problem = scheduleProblem(raffle.schedule);
    if (problem) {
      this.options.logger.error("invalid raffle schedule; raffle skipped until its schedule changes", { ...fields, error: problem });
      this.options.onInvalidSchedule?.(raffle, problem);
      return { raffle, problem };
    }
    const entry: Entry = { raffle };
    try {
      entry.timer = this.timers(raffle.schedule!, this.options.timeZone ?? "UTC", (tickSecond) => this.options.onTick(entry.raffle, tickSecond));
    } catch (error) {
      // A schedule the validator passed but the job refuses (an unknown time zone, say): same treatment.
      entry.problem = errorMessage(error);
      this.options.logger.error("raffle schedule cannot be armed; raffle skipped until its schedule changes", { ...fields, error: entry.problem });
      this.options.onInvalidSchedule?.(raffle, entry.problem);
      return entry;
    }
    this.options.logger.info("raffle scheduled", fields);
    return entry;
  }
}
