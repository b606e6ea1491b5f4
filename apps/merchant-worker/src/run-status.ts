import { raffleKey, type RaffleListing } from "./raffle-source";
import { WorkerError } from "./errors";
import { errorMessage } from "./logger";
import type { RotationOutcome, RotationStatus } from "./rotation";

export type RunStatus = "running" | RotationStatus | "failed" | "failedPermanently" | "invalidSchedule";

/** What /health reports for one raffle: its last run. */
export interface RaffleRunRecord {
  chainId: number;
  contract: string;
  contractId: number;
  schedule?: string;
  status: RunStatus;
  /** When the status was set (ISO 8601 UTC). */
  time: string;
  roundId?: string;
  newRoundId?: string;
  txHashes: string[];
  error?: string;
  errorCode?: string;
  /** Runs that reached the chain since the worker started. */
  runs: number;
  /** Schedule ticks skipped because the raffle failed permanently. */
  skippedTicks: number;
  /** For `failedPermanently`: list refreshes left before the raffle is tried again. */
  retryAfterRefreshes?: number;
}

/** A raffle as the store knows it: by chain and address (the same address can be a raffle on two chains). */
export type RaffleRef = Pick<RaffleListing, "chainId" | "address">;

interface Block {
  schedule: string | undefined;
  refreshesLeft: number;
}

/**
 * Last run of every raffle, and the raffles that failed permanently (a missing role): those are skipped until
 * their listing changes or a number of list refreshes have passed, so a misconfigured raffle is not retried (and
 * logged) at every tick.
 */
export class RunStatusStore {
  private readonly records = new Map<string, RaffleRunRecord>();
  private readonly blocks = new Map<string, Block>();

  get(raffle: RaffleRef): RaffleRunRecord | undefined {
    return this.records.get(raffleKey(raffle));
  }

  snapshot(): RaffleRunRecord[] {
    return [...this.records.values()].map((record) => ({ ...record, txHashes: [...record.txHashes] }));
  }

  isBlocked(raffle: RaffleRef): boolean {
    return this.blocks.has(raffleKey(raffle));
  }

  started(raffle: RaffleListing): void {
    const record = this.record(raffle);
    Object.assign(record, { status: "running", time: now(), txHashes: [], error: undefined, errorCode: undefined, newRoundId: undefined });
    record.runs += 1;
  }

  succeeded(raffle: RaffleListing, outcome: RotationOutcome): RaffleRunRecord {
    return Object.assign(this.record(raffle), {
      status: outcome.status,
      time: now(),
      roundId: outcome.roundId.toString(),
      newRoundId: outcome.newRoundId?.toString(),
      txHashes: outcome.txHashes,
    });
  }

  failed(raffle: RaffleListing, error: unknown, txHashes: string[] = []): RaffleRunRecord {
    return Object.assign(this.record(raffle), { status: "failed", time: now(), txHashes, ...describe(error) });
  }

  failedPermanently(raffle: RaffleListing, error: unknown, retryAfterRefreshes: number): RaffleRunRecord {
    this.blocks.set(raffleKey(raffle), { schedule: raffle.schedule, refreshesLeft: retryAfterRefreshes });
    return Object.assign(this.record(raffle), { status: "failedPermanently", time: now(), retryAfterRefreshes, ...describe(error) });
  }

  skippedTick(raffle: RaffleRef): void {
    const record = this.get(raffle);
    if (record) record.skippedTicks += 1;
  }

  invalidSchedule(raffle: RaffleListing, problem: string): void {
    Object.assign(this.record(raffle), { status: "invalidSchedule", time: now(), error: problem, errorCode: "invalidSchedule", txHashes: [] });
  }

  /**
   * Applies a fresh raffle list: drops raffles no longer listed, and lifts the block of a permanently failed raffle
   * whose schedule changed or whose refresh allowance ran out. Returns the raffles given another chance.
   */
  refreshed(raffles: RaffleListing[]): RaffleListing[] {
    const listed = new Map(raffles.map((raffle) => [raffleKey(raffle), raffle]));
    for (const key of this.records.keys()) if (!listed.has(key)) this.records.delete(key);
    const released: RaffleListing[] = [];
    for (const [key, block] of this.blocks) {
      const raffle = listed.get(key);
      block.refreshesLeft -= 1;
      if (!raffle || raffle.schedule !== block.schedule || block.refreshesLeft <= 0) {
        this.blocks.delete(key);
        if (raffle) released.push(raffle);
      }
      const record = this.records.get(key);
      if (record) record.retryAfterRefreshes = this.blocks.has(key) ? block.refreshesLeft : undefined;
    }
    // A raffle whose schedule was invalid and is no longer listed as such waits for its first run again.
    for (const [key, raffle] of listed) {
      const record = this.records.get(key);
      if (record?.status === "invalidSchedule" && record.schedule !== raffle.schedule) this.records.delete(key);
    }
    return released;
  }

  private record(raffle: RaffleListing): RaffleRunRecord {
    const key = raffleKey(raffle);
    let record = this.records.get(key);
    if (!record) {
      record = {
        chainId: raffle.chainId,
        contract: raffle.address,
        contractId: raffle.id,
        status: "running",
        time: now(),
        txHashes: [],
        runs: 0,
        skippedTicks: 0,
      };
      this.records.set(key, record);
    }
    record.schedule = raffle.schedule;
    return record;
  }
}

function now(): string {
  return new Date().toISOString();
}

function describe(error: unknown): { error: string; errorCode?: string } {
  return { error: errorMessage(error), errorCode: error instanceof WorkerError ? error.code : undefined };
}
