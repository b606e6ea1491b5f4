import type { RelayAttempt, RelayJob, RelayMailbox, RelayOutcome, SentReport } from "../../src/relayer/relay-mailbox";

interface StoredJob {
  job: Omit<RelayJob, "attempts" | "leaseExpiresAt">;
  attempts: Array<RelayAttempt & { relayerId: string }>;
  holder?: string;
  leaseUntil: number;
  state: "queued" | "sent" | "mined" | "failed";
  outcomes: Array<RelayOutcome & { relayerId: string }>;
}

/**
 * The API's mailbox semantics in memory, for the relayer's chain tests: leases per relayer id (renewed by each claim
 * of the holder, handed to another relayer once expired, with the attempts listed), attempts recorded, outcomes kept
 * in full so a test sees a job reported twice. Faults are injected per relayer id.
 */
export class MemoryMailboxStore {
  private readonly jobs = new Map<string, StoredJob>();
  now = (): number => Date.now();

  constructor(private readonly leaseMs = 120_000) {}

  add(job: Omit<RelayJob, "attempts" | "leaseExpiresAt">, attempts: RelayAttempt[] = []): void {
    this.jobs.set(job.id, {
      job,
      attempts: attempts.map((attempt) => ({ ...attempt, relayerId: "earlier" })),
      leaseUntil: 0,
      state: attempts.length > 0 ? "sent" : "queued",
      outcomes: [],
    });
  }

  get(id: string): StoredJob {
    const stored = this.jobs.get(id);
    if (!stored) throw new Error(`no job ${id}`);
    return stored;
  }

  all(): StoredJob[] {
    return [...this.jobs.values()];
  }

  /** Lets every lease lapse at once (a relayer that died long enough ago). */
  expireLeases(): void {
    for (const stored of this.jobs.values()) stored.leaseUntil = 0;
  }

  mailbox(relayerId: string, faults: MailboxFaults = {}): RelayMailbox {
    return {
      relayerId,
      claim: async (chainId, limit) => {
        if (faults.claim) throw faults.claim;
        const now = this.now();
        const open = [...this.jobs.values()].filter(
          (stored) => stored.job.chainId === chainId && (stored.state === "queued" || stored.state === "sent"),
        );
        const held = open.filter((stored) => stored.holder === relayerId && stored.leaseUntil > now);
        const free = open.filter((stored) => stored.holder === undefined || stored.leaseUntil <= now).filter((stored) => !held.includes(stored));
        // As the API: the jobs held count against `limit`; only the room left is newly leased.
        const leased = [...held, ...free.slice(0, Math.max(0, limit - held.length))];
        for (const stored of leased) {
          stored.holder = relayerId;
          stored.leaseUntil = now + this.leaseMs;
        }
        return leased.map((stored) => ({
          ...stored.job,
          attempts: stored.attempts.map(({ relayerId: _by, ...attempt }) => attempt),
          leaseExpiresAt: new Date(stored.leaseUntil).toISOString(),
        }));
      },
      reportSent: async (jobId, attempt: SentReport) => {
        const stored = this.held(jobId, relayerId);
        stored.attempts.push({
          txHash: attempt.txHash,
          nonce: attempt.nonce,
          maxFeePerGas: attempt.maxFeePerGas.toString(),
          maxPriorityFeePerGas: attempt.maxPriorityFeePerGas.toString(),
          sentAt: new Date(this.now()).toISOString(),
          relayerId,
        });
        if (stored.state === "queued") stored.state = "sent";
        faults.afterSent?.(jobId, attempt);
      },
      reportOutcome: async (jobId, outcome) => {
        if (faults.outcome) throw faults.outcome;
        const stored = this.held(jobId, relayerId);
        stored.outcomes.push({ ...outcome, relayerId });
        stored.state = outcome.outcome;
      },
    };
  }

  private held(jobId: string, relayerId: string): StoredJob {
    const stored = this.get(jobId);
    if (stored.holder !== relayerId) throw new Error(`relayer ${relayerId} does not hold job ${jobId}`);
    return stored;
  }
}

export interface MailboxFaults {
  /** Thrown by every claim (the API down). */
  claim?: Error;
  /** Thrown by every outcome report (the relayer dies before it can report). */
  outcome?: Error;
  /** Runs once an attempt is recorded; throwing there stops the broadcast (a crash between record and send). */
  afterSent?: (jobId: string, attempt: SentReport) => void;
}
