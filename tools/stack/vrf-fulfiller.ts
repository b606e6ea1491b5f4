import type { Signer } from "ethers";
import { VRFCoordinatorV2_5Mock__factory } from "@raffle/chain";
import { VRF_FULFILMENT_GAS } from "@raffle/chain/testing";

/**
 * Stands in for the Chainlink VRF service on a local chain: answers every randomness request of the coordinator
 * mock with the mock's own pseudo-random words, a moment after it is made.
 *
 * What is pending is asked of the coordinator itself, never remembered here: after an `evm_revert` the mock hands out
 * the same request ids again, and a request answered on the abandoned branch is open again on the new one. So the scan
 * restarts from the first block whenever the chain went back, and every request found is checked with the mock.
 */
export class VrfFulfiller {
  private timer: NodeJS.Timeout | null = null;
  /** The first block not read yet. */
  private fromBlock = 0;
  /**
   * The head as this stand-in last saw it, after its own transactions: when that block is no longer on the chain, the
   * chain went back (evm_revert, a reorg), and requests answered since may be open again. Checking the block the scan
   * stopped at would not do: after a revert the same request can be mined again into an identical block.
   */
  private lastSeen: { number: number; hash: string } | null = null;
  private busy = false;
  /** Randomness deliveries sent so far (a request id reused after a revert counts again). */
  fulfilledCount = 0;

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
      const provider = this.operator.provider!;
      const mock = VRFCoordinatorV2_5Mock__factory.connect(this.coordinator, this.operator);
      const head = await provider.getBlock("latest");
      if (!head?.hash) return;
      if (this.lastSeen) {
        const still = head.number >= this.lastSeen.number ? await provider.getBlock(this.lastSeen.number) : null;
        if (still?.hash !== this.lastSeen.hash) {
          this.log("the chain went back (evm_revert or reorg): reading randomness requests from the first block again");
          this.fromBlock = 0;
        }
      }
      const fromBlock = this.fromBlock;
      const requests = fromBlock <= head.number ? await mock.queryFilter(mock.filters.RandomWordsRequested(), fromBlock, head.number) : [];
      for (const request of requests) {
        const { requestId, sender } = request.args;
        // Answered already on this branch of the chain: the mock refuses it with InvalidRequest. Any other refusal
        // (an underfunded subscription, say) is sent anyway, so that it fails loudly in the log.
        const answered = await mock.fulfillRandomWords.staticCall(requestId, sender).then(
          () => false,
          (error: { revert?: { name?: string } }) => error.revert?.name === "InvalidRequest",
        );
        if (answered) continue;
        // An explicit gas limit, as Chainlink's service gives the callback its full limit: with an estimate, the mock
        // passes the callback just enough to record the word, and the winners are left to finishDraw.
        const tx = await mock.fulfillRandomWords(requestId, sender, { gasLimit: VRF_FULFILMENT_GAS });
        await tx.wait();
        this.fulfilledCount += 1;
        this.log("randomness delivered", { requestId: requestId.toString(), consumer: sender, txHash: tx.hash });
      }
      // Only once every request up to the head is answered; a failure is retried on the next poll.
      this.fromBlock = head.number + 1;
      const after = await provider.getBlock("latest");
      if (after?.hash) this.lastSeen = { number: after.number, hash: after.hash };
    } catch (error) {
      this.log("randomness delivery failed; will retry", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.busy = false;
    }
  }
}
