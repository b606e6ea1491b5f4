import { Transaction, Wallet, toQuantity, type JsonRpcProvider } from "ethers";
import { LOCAL_DEV_KEYS } from "@raffle/chain";

import { WorkerLogger } from "./logger";
import { TxSender } from "./tx-sender";

/**
 * A chain that, once `mining` is on, mines what was broadcast into a new block at the next head poll, and answers
 * blocks' receipts (`eth_getBlockReceipts`) when `blockReceipts` is on, else only blocks' hashes; it counts receipt
 * calls. The test turns mining on after every send's first check, so each count is exact whatever the timing.
 */
class BlockChain {
  head = 10;
  mining = false;
  private readonly pool: string[] = [];
  private readonly blocks = new Map<number, string[]>();
  private mined = 0;
  receiptCalls = 0;
  blockReceiptCalls = 0;

  constructor(private readonly blockReceipts: boolean) {}

  async getFeeData() {
    return { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, gasPrice: null };
  }

  async getTransactionCount(): Promise<number> {
    return this.mined;
  }

  async getBlockNumber(): Promise<number> {
    if (this.mining && this.pool.length > 0) {
      this.head += 1;
      this.blocks.set(this.head, this.pool.splice(0));
      this.mined = [...this.blocks.values()].reduce((count, hashes) => count + hashes.length, 0);
    }
    return this.head;
  }

  async _send(payload: { id: number; method: string; params: string[] }) {
    if (payload.method === "eth_sendRawTransaction") {
      this.pool.push(Transaction.from(payload.params[0]).hash!);
      return [{ id: payload.id, result: "0x" }];
    }
    if (payload.method === "eth_getBlockReceipts" && this.blockReceipts) {
      this.blockReceiptCalls += 1;
      const number = Number(payload.params[0]);
      const hashes = this.blocks.get(number);
      const receipts = hashes?.map((hash) => ({ transactionHash: hash, status: "0x1", blockNumber: toQuantity(number) }));
      return [{ id: payload.id, result: receipts ?? null }];
    }
    return [{ id: payload.id, error: { code: -32601, message: `the method ${payload.method} does not exist` } }];
  }

  getRpcError(_payload: unknown, answer: { error: { message: string } }): Error {
    return new Error(answer.error.message);
  }

  async getBlock(number: number) {
    const hashes = this.blocks.get(number);
    return hashes ? { transactions: hashes } : null;
  }

  async getTransactionReceipt(hash: string) {
    this.receiptCalls += 1;
    for (const [number, hashes] of this.blocks) if (hashes.includes(hash)) return { hash, blockNumber: number, status: 1 };
    return null;
  }
}

function senderOn(chain: BlockChain): TxSender {
  const wallet = new Wallet(LOCAL_DEV_KEYS.demoMerchant, chain as unknown as JsonRpcProvider);
  return new TxSender(wallet, {
    chainId: 31337,
    confirmations: 1,
    pollMs: 1,
    fees: { maxFeePerGas: 10_000_000_000n, bumpPercent: 25, receiptTimeoutMs: 60_000 },
  });
}

/** Sends `count` transactions, lets the chain mine once each has been checked (its receipt asked once, not found). */
async function sendAll(chain: BlockChain, sender: TxSender, count: number) {
  const sends = Promise.all(Array.from({ length: count }, () => sender.send(intent, log, { gasLimit: 60_000n })));
  for (let waited = 0; chain.receiptCalls < count; waited += 1) {
    if (waited > 5_000) throw new Error(`only ${chain.receiptCalls} of ${count} sends checked their receipt`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  chain.mining = true;
  return sends;
}

const log = new WorkerLogger({ level: "error" });
const intent = { to: Wallet.createRandom().address, data: "0x1234", label: "test" };

describe("TxSender finds its transactions' receipts by block", () => {
  it("reads each block's receipts once for every waiting send, a transaction's own receipt only at its first check", async () => {
    const chain = new BlockChain(true);
    const sender = senderOn(chain);
    const sent = await sendAll(chain, sender, 8);
    expect(new Set(sent.map((tx) => tx.hash)).size).toBe(8);
    for (const tx of sent) expect(tx.blockNumber).toBeGreaterThan(10);
    // The first check asks each transaction's receipt (a chain that mines on arrival has it at once); later ones read
    // the blocks' receipts.
    expect(chain.receiptCalls).toBe(8);
    // Blocks 11.. at most: one receipts call per block, not one per transaction.
    expect(chain.blockReceiptCalls).toBeLessThanOrEqual(chain.head - 10);
  });

  it("on a node without eth_getBlockReceipts, finds the hash in the block and asks that transaction's receipt", async () => {
    const chain = new BlockChain(false);
    const sender = senderOn(chain);
    const sent = await sendAll(chain, sender, 4);
    expect(new Set(sent.map((tx) => tx.hash)).size).toBe(4);
    for (const tx of sent) expect(tx.blockNumber).toBeGreaterThan(10);
    // At its first check, and once more when its hash shows in a block: not at every poll while it waits.
    expect(chain.receiptCalls).toBe(8);
  });
});
