import { Transaction, Wallet, type JsonRpcProvider } from "ethers";
import { LOCAL_DEV_KEYS } from "@raffle/chain";

import { WorkerLogger } from "./logger";
import { TxSender } from "./tx-sender";

/**
 * An in-memory chain answering what TxSender asks of a provider: the merchant's nonce count, fee data, and a
 * receipt (mined at once) for every broadcast transaction, whose chain id and nonce it records.
 */
class FakeChainProvider {
  readonly broadcast: Array<{ chainId: bigint; nonce: number; from: string | null }> = [];
  readonly raws: string[] = [];
  private readonly receipts = new Map<string, { hash: string; blockNumber: number; status: number }>();
  private minedNonces: number;

  constructor(
    readonly chainId: bigint,
    startNonce: number,
  ) {
    this.minedNonces = startNonce;
  }

  async estimateGas(): Promise<bigint> {
    return 50_000n;
  }

  async getFeeData() {
    return { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, gasPrice: null };
  }

  async getTransactionCount(): Promise<number> {
    return this.minedNonces;
  }

  /** A JSON-RPC request as JsonRpcProvider sends it: only eth_sendRawTransaction is asked this way. */
  async _send(payload: { id: number; method: string; params: string[] }) {
    try {
      await this.broadcastTransaction(payload.params[0]);
      return [{ id: payload.id, result: "0x" }];
    } catch (error) {
      return [{ id: payload.id, error: { code: -32000, message: (error as Error).message } }];
    }
  }

  getRpcError(_payload: unknown, answer: { error: { message: string } }): Error {
    return new Error(answer.error.message);
  }

  async broadcastTransaction(signed: string): Promise<void> {
    const tx = Transaction.from(signed);
    if (tx.chainId !== this.chainId) throw new Error(`invalid chain id ${tx.chainId}`);
    // Like a node: refuse a nonce that is used or leaves a gap.
    if (tx.nonce !== this.minedNonces) throw new Error(`nonce too ${tx.nonce < this.minedNonces ? "low" : "high"}`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
    this.broadcast.push({ chainId: tx.chainId, nonce: tx.nonce, from: tx.from });
    this.raws.push(signed);
    this.minedNonces += 1;
    this.receipts.set(tx.hash!, { hash: tx.hash!, blockNumber: this.minedNonces, status: 1 });
  }

  async getTransactionReceipt(hash: string) {
    return this.receipts.get(hash) ?? null;
  }

  async getBlockNumber(): Promise<number> {
    return this.minedNonces;
  }
}

function senderOn(provider: FakeChainProvider): TxSender {
  const wallet = new Wallet(LOCAL_DEV_KEYS.demoMerchant, provider as unknown as JsonRpcProvider);
  return new TxSender(wallet, {
    chainId: Number(provider.chainId),
    confirmations: 1,
    pollMs: 1,
    fees: { maxFeePerGas: 10_000_000_000n, bumpPercent: 25, receiptTimeoutMs: 60_000 },
  });
}

describe("TxSender on two chains with one key", () => {
  it("keeps one nonce count per chain, each from its own node, however the sends interleave", async () => {
    // The merchant has sent 7 transactions on one chain and none on the other.
    const busy = new FakeChainProvider(31337n, 7);
    const fresh = new FakeChainProvider(31338n, 0);
    const [onBusy, onFresh] = [senderOn(busy), senderOn(fresh)];
    const logger = new WorkerLogger({ level: "silent" });
    const intent = { to: "0x000000000000000000000000000000000000dEaD", data: "0x", label: "endRound" };

    const sends = Array.from({ length: 4 }, () => [onBusy.send(intent, logger), onFresh.send(intent, logger)]).flat();
    await Promise.all(sends);

    // Each signed by the merchant's key (natively: the sender recovered from the transaction is the wallet's address).
    const merchant = new Wallet(LOCAL_DEV_KEYS.demoMerchant).address;
    expect(busy.broadcast).toEqual([7, 8, 9, 10].map((nonce) => ({ chainId: 31337n, nonce, from: merchant })));
    expect(fresh.broadcast).toEqual([0, 1, 2, 3].map((nonce) => ({ chainId: 31338n, nonce, from: merchant })));
    // Byte for byte what ethers' Wallet signs for the same fields.
    const wallet = new Wallet(LOCAL_DEV_KEYS.demoMerchant);
    for (const raw of [...busy.raws, ...fresh.raws]) {
      const { type, chainId, nonce, to, data, gasLimit, maxFeePerGas, maxPriorityFeePerGas, value } = Transaction.from(raw);
      expect(await wallet.signTransaction({ type, chainId, nonce, to, data, gasLimit, maxFeePerGas, maxPriorityFeePerGas, value })).toBe(raw);
    }
  });
});
