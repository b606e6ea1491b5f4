import { RaffleApi, type RelayJob as ApiRelayJob } from "@raffle/sdk";

import type { RelayJob, RelayJobKind, RelayMailbox, RelayOutcome, SentReport } from "./relay-mailbox";

/** The relayer's requests time out sooner than the SDK's default: the next claim retries anyway. */
const API_TIMEOUT_MS = 10_000;

/**
 * The API's relayer routes through the SDK (`claimRelayJobs`, `reportRelayJobSent`, `reportRelayJobOutcome`) with the
 * merchant worker's API key: the API leases only that key's merchant's jobs, to this relayer id only.
 */
export class ApiRelayMailbox implements RelayMailbox {
  private readonly api: RaffleApi;

  constructor(options: { baseUrl: string; apiKey: string; relayerId: string }) {
    this.api = new RaffleApi({ baseUrl: options.baseUrl, apiKey: options.apiKey, timeoutMs: API_TIMEOUT_MS });
    this.relayerId = options.relayerId;
  }

  readonly relayerId: string;

  async claim(chainId: number, limit: number): Promise<RelayJob[]> {
    const jobs = await this.api.claimRelayJobs({ chainId, relayerId: this.relayerId, limit });
    return jobs.map(fromApi);
  }

  async reportSent(jobId: string, attempt: SentReport): Promise<void> {
    await this.api.reportRelayJobSent(jobId, {
      relayerId: this.relayerId,
      txHash: attempt.txHash,
      nonce: attempt.nonce,
      maxFeePerGas: attempt.maxFeePerGas.toString(),
      maxPriorityFeePerGas: attempt.maxPriorityFeePerGas.toString(),
    });
  }

  async reportOutcome(jobId: string, outcome: RelayOutcome): Promise<void> {
    await this.api.reportRelayJobOutcome(jobId, { relayerId: this.relayerId, ...outcome });
  }
}

function fromApi(job: ApiRelayJob): RelayJob {
  return {
    id: job.id,
    kind: job.kind as RelayJobKind,
    chainId: job.chainId,
    to: job.to,
    data: job.data,
    notAfter: Number(job.notAfter),
    attempts: job.attempts.map((attempt) => ({ ...attempt, nonce: Number(attempt.nonce) })),
    leaseExpiresAt: job.leaseExpiresAt,
  };
}
