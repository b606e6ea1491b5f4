import type { JsonRpcProvider, Wallet } from "ethers";

interface RelayJob {
  id: string;
  to: string;
  data: string;
  attempts: unknown[];
}

/**
 * A relayer for the browser journeys, over the API's real mailbox routes (`/relayer/claim`, `.../sent`,
 * `.../outcome`) with the merchant's API key and key: it sends each job once and reports what the chain did. The
 * merchant worker's relayer (resends, restarts, nonce management) has its own suites; the pages only need a job to
 * move from queued to sent to mined.
 */
export class StandInRelayer {
  private timer: NodeJS.Timeout | undefined;
  private running = Promise.resolve();
  private readonly done = new Set<string>();
  private readonly sender: Wallet;

  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    private readonly chainId: number,
    payer: Wallet,
    provider: JsonRpcProvider,
    private readonly relayerId = "web-journeys",
  ) {
    // One job at a time: the node's pending nonce is the next one.
    this.sender = payer.connect(provider);
  }

  start(intervalMs = 200): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.poll()).catch(() => undefined);
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async call<T>(route: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.apiUrl}${route}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  private async poll(): Promise<void> {
    const { jobs } = await this.call<{ jobs: RelayJob[] }>("/relayer/claim", { chainId: this.chainId, relayerId: this.relayerId });
    for (const job of jobs) {
      if (this.done.has(job.id) || job.attempts.length > 0) continue;
      this.done.add(job.id);
      const sent = await this.sender.sendTransaction({ to: job.to, data: job.data });
      await this.call(`/relayer/jobs/${job.id}/sent`, {
        relayerId: this.relayerId,
        txHash: sent.hash,
        nonce: sent.nonce,
        maxFeePerGas: String(sent.maxFeePerGas ?? 0n),
        maxPriorityFeePerGas: String(sent.maxPriorityFeePerGas ?? 0n),
      });
      const receipt = await sent.wait().catch(() => null);
      await this.call(
        `/relayer/jobs/${job.id}/outcome`,
        receipt?.status === 1
          ? { relayerId: this.relayerId, outcome: "mined", txHash: sent.hash }
          : { relayerId: this.relayerId, outcome: "failed", failureCode: "transactionReverted" },
      );
    }
  }
}
