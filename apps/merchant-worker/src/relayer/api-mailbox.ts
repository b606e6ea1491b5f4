import { WorkerError } from "../errors";
import type { RelayJob, RelayMailbox, RelayOutcome, SentReport } from "./relay-mailbox";

/** The API answered a relayer route with an error (its problem's stable code), or not at all in time. */
export class MailboxRequestError extends WorkerError {
  constructor(
    readonly route: string,
    readonly status: number,
    readonly problemCode: string,
  ) {
    // A 4xx other than a timeout or a rate limit will not go away by itself; the relayer retries all the same.
    super("mailboxRequestFailed", `${route} answered ${status} ${problemCode}`, status === 408 || status === 429 || status >= 500);
  }
}

const TIMEOUT_MS = 10_000;

/**
 * The API's relayer routes (`POST /relayer/claim`, `/relayer/jobs/:id/sent`, `/relayer/jobs/:id/outcome`) with the
 * merchant worker's API key: the API leases the merchant's jobs to this relayer id only.
 */
export class ApiRelayMailbox implements RelayMailbox {
  constructor(private readonly options: { baseUrl: string; apiKey: string; relayerId: string; fetch?: typeof fetch }) {}

  get relayerId(): string {
    return this.options.relayerId;
  }

  async claim(chainId: number, limit: number): Promise<RelayJob[]> {
    const answer = await this.post<{ jobs: RelayJob[] }>("/relayer/claim", { chainId, relayerId: this.relayerId, limit });
    return answer.jobs.map((job) => ({
      ...job,
      notAfter: Number(job.notAfter),
      attempts: job.attempts.map((a) => ({ ...a, nonce: Number(a.nonce) })),
    }));
  }

  async reportSent(jobId: string, attempt: SentReport): Promise<void> {
    await this.post(`/relayer/jobs/${encodeURIComponent(jobId)}/sent`, {
      relayerId: this.relayerId,
      txHash: attempt.txHash,
      nonce: attempt.nonce,
      maxFeePerGas: attempt.maxFeePerGas.toString(),
      maxPriorityFeePerGas: attempt.maxPriorityFeePerGas.toString(),
    });
  }

  async reportOutcome(jobId: string, outcome: RelayOutcome): Promise<void> {
    await this.post(`/relayer/jobs/${encodeURIComponent(jobId)}/outcome`, { relayerId: this.relayerId, ...outcome });
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const route = path.replace(/\/jobs\/[^/]+\//, "/jobs/:id/");
    const fetchImpl = this.options.fetch ?? fetch;
    const response = await fetchImpl(`${this.options.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.options.apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new MailboxRequestError(`POST ${route}`, response.status, problemCode(text));
    return (text ? JSON.parse(text) : undefined) as T;
  }
}

function problemCode(text: string): string {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === "string" ? code : "httpError";
  } catch {
    return "httpError";
  }
}
