import type { Signer } from "ethers";
import { VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";

/**
 * Stands in for the Chainlink VRF service on a local chain: answers every randomness request of the coordinator
 * mock with the mock's own pseudo-random words, a moment after it is made.
 */
export class VrfFulfiller {
  private timer: NodeJS.Timeout | null = null;
  private fromBlock = 0;
  private busy = false;
  readonly fulfilled = new Set<string>();

  constructor(
    private readonly coordinator: string,
    private readonly operator: Signer,
    private readonly log: (message: string, fields?: Record<string, unknown>) => void = () => undefined,
  ) {}

  start(intervalMs = 1_000): void {
    this.timer = setInterval(() => void this.poll(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async poll(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const mock = VRFCoordinatorV2_5Mock__factory.connect(this.coordinator, this.operator);
      const head = await this.operator.provider!.getBlockNumber();
      if (head < this.fromBlock) return;
      const requests = await mock.queryFilter(mock.filters.RandomWordsRequested(), this.fromBlock, head);
      for (const request of requests) {
        const { requestId, sender } = request.args;
        if (this.fulfilled.has(requestId.toString())) continue;
        const tx = await mock.fulfillRandomWords(requestId, sender);
        await tx.wait();
        this.fulfilled.add(requestId.toString());
        this.log("randomness delivered", { requestId: requestId.toString(), consumer: sender, txHash: tx.hash });
      }
      // Only once every request up to the head is answered; a failure is retried on the next poll.
      this.fromBlock = head + 1;
    } catch (error) {
      this.log("randomness delivery failed; will retry", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.busy = false;
    }
  }
}
