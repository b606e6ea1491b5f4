import {
  Signature,
  Transaction,
  getBytes,
  hexlify,
  isError,
  keccak256,
  toQuantity,
  type JsonRpcError,
  type JsonRpcProvider,
  type JsonRpcResult,
  type TransactionReceipt,
  type Wallet,
} from "ethers";
import { signDigest } from "@raffle/chain";

import { sleep } from "./backoff";
import { signEip1559Call } from "./eip1559-tx";
import type { FeeSettings } from "./config";
import { NonceTakenError, TransactionRevertedError } from "./errors";
import { errorMessage, type WorkerLogger } from "./logger";
import type { SentTransaction } from "./rotation";

/** One contract call to send. */
export interface TxIntent {
  to: string;
  data: string;
  /** Function name, for the logs. */
  label: string;
}

/** EIP-1559 fees (on a chain without them, `maxFeePerGas` is the legacy gas price). */
export interface Fees {
  eip1559: boolean;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface TxSenderOptions {
  chainId: number;
  confirmations: number;
  fees: FeeSettings;
  pollMs: number;
  /** Called when a transaction to `to` was replaced with a higher fee (for the metrics). */
  onFeeBump?: (to: string) => void;
}

/** One broadcast of a call: its hash, nonce and fees (a replacement is another attempt with the same nonce). */
export interface BroadcastAttempt {
  txHash: string;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A transaction already broadcast (by this process or an earlier one) whose receipt is awaited. */
export interface PendingTx {
  nonce: number;
  gasLimit: bigint;
  fees: Fees;
  /** Every hash broadcast under this nonce for the call, oldest first. */
  hashes: string[];
}

/** What a caller that must not lose a transaction hooks into a send. */
export interface SendHooks {
  /**
   * Runs with the signed transaction's hash before it reaches the node (write-ahead: a crash after the broadcast still
   * left the hash on record). Throwing cancels that broadcast; the nonce stays free.
   */
  beforeBroadcast?(attempt: BroadcastAttempt): Promise<void>;
  /** While true, a due replacement is a zero-value transfer to self (frees the nonce) instead of the call. */
  cancelInstead?(): boolean;
  /** A fresh gas estimate is also the call's simulation; a caller that has just simulated passes its own limit. */
  gasLimit?: bigint;
}

/** What a send needs of a receipt: whether it succeeded, and where. */
type MinedReceipt = Pick<TransactionReceipt, "hash" | "status" | "blockNumber">;

/** A transaction signed, not yet broadcast. */
interface SignedTx {
  raw: string;
  hash: string;
  nonce: number;
}

/** Nodes refuse a replacement that raises the fee by less than this (geth 10 %, others 12.5 %): 1/8. */
const MIN_REPLACEMENT_BUMP_BPS = 1_250n;
const GAS_LIMIT_MARGIN_PERCENT = 20n;
const MAX_NONCE_RETRIES = 3;
/** Blocks whose transaction hashes are kept for the waiting sends: more behind the head than this, receipts are asked. */
const SCANNED_BLOCKS = 64;

/**
 * One nonce counter per wallet. A nonce is taken and its transaction signed under one lock, so concurrent sends never
 * share a nonce; each transaction's write-ahead record then runs beside the others' (a mailbox answering in 100 ms
 * no longer caps a key at ten sends a second), and its broadcast waits for the previous nonce's broadcast, so
 * transactions still reach the node in nonce order (a node that mines on each transaction refuses a nonce gap) and
 * none reaches it before its own record. The count starts from, and after any failed record or broadcast re-syncs to,
 * the node's "pending" transaction count, once every broadcast under way has settled.
 */
export class NonceManager {
  private next?: number;
  private lock: Promise<unknown> = Promise.resolve();
  /** The broadcast of the last nonce taken: the next one waits for it. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Counts re-syncs: a transaction taken before one is not broadcast (an earlier nonce of its count may be missing). */
  private epoch = 0;

  constructor(private readonly wallet: Wallet) {}

  /**
   * Takes the next nonce and `sign`s with it, then `record`s (beside other sends), then `broadcast`s in nonce order.
   * The nonce counts as used only if all three succeed; a send whose earlier nonce failed throws `NonceOrderBroken`.
   */
  async sendInOrder<S, T>(
    sign: (nonce: number) => Promise<S>,
    record: (signed: S) => Promise<void>,
    broadcast: (signed: S) => Promise<T>,
  ): Promise<T> {
    const taken = this.lock.then(async () => {
      if (this.next === undefined) {
        await this.tail.catch(() => undefined);
        this.next = await this.wallet.provider!.getTransactionCount(this.wallet.address, "pending");
      }
      const nonce = this.next;
      const epoch = this.epoch;
      const previous = this.tail;
      const signed = await sign(nonce);
      this.next = nonce + 1;
      const sent = (async () => {
        const [own, before] = await Promise.allSettled([record(signed), previous]);
        if (own.status === "rejected") throw own.reason;
        if (epoch !== this.epoch || before.status === "rejected") throw new NonceOrderBroken(nonce);
        return broadcast(signed);
      })();
      sent.catch(() => {
        if (epoch === this.epoch) this.resync();
      });
      this.tail = sent.catch(() => undefined);
      return { sent };
    });
    this.lock = taken.catch(() => undefined);
    return (await taken).sent;
  }

  resync(): void {
    this.next = undefined;
    this.epoch += 1;
  }
}

/** An earlier nonce of the wallet was not broadcast (its record or broadcast failed): this one was not sent either. */
export class NonceOrderBroken extends Error {
  constructor(readonly nonce: number) {
    super(`nonce ${nonce} not broadcast: an earlier nonce of the key was not`);
    this.name = "NonceOrderBroken";
  }
}

/** The node refused the nonce as used already, or as leaving a gap: re-sync and try again. */
function isNonceConflict(error: unknown): boolean {
  return error instanceof NonceOrderBroken || isError(error, "NONCE_EXPIRED") || /nonce too (low|high)/i.test(errorMessage(error));
}

export function bumpFee(value: bigint, percent: number): bigint {
  const bps = BigInt(Math.round(percent * 100));
  return (value * (10_000n + bps) + 9_999n) / 10_000n;
}

/**
 * Sends a call from the merchant wallet and waits for its receipt with the configured confirmations. A transaction
 * without a receipt after `receiptTimeoutMs` is replaced (same nonce) with fees raised by `bumpPercent`, never
 * above `maxFeePerGas`. Gas is estimated before each first send, which also simulates the call once more.
 */
export class TxSender {
  private readonly nonces: NonceManager;
  private head?: { at: number; value: Promise<number> };
  private mined?: { head: number; value: Promise<number> };
  private headFees?: { head: number; value: Promise<Fees> };
  /** Each recent block's transactions (lower-case hashes, with receipts where known), asked once for every waiting send. */
  private readonly blockHashes = new Map<number, Promise<Map<string, MinedReceipt | null> | null>>();
  /** Whether the node answers `eth_getBlockReceipts` (undefined until it was asked). */
  private blockReceiptsServed?: boolean;
  private rawRequestId = 0;

  private readonly privateKey: Uint8Array;

  constructor(
    private readonly wallet: Wallet,
    private readonly options: TxSenderOptions,
  ) {
    this.nonces = new NonceManager(wallet);
    this.privateKey = getBytes(wallet.privateKey);
  }

  async send(intent: TxIntent, log: WorkerLogger, hooks: SendHooks = {}): Promise<SentTransaction> {
    for (let attempt = 1; ; attempt += 1) {
      const gasLimit = hooks.gasLimit ?? withMargin(await this.provider.estimateGas({ from: this.wallet.address, to: intent.to, data: intent.data }));
      const fees = await this.feesAtHead();
      let sent: { nonce: number; hash: string };
      try {
        sent = await this.nonces.sendInOrder(
          async (nonce) => this.sign(intent, nonce, gasLimit, fees),
          async (signed) =>
            hooks.beforeBroadcast?.({
              txHash: signed.hash,
              nonce: signed.nonce,
              maxFeePerGas: fees.maxFeePerGas,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            }),
          async (signed) => ({ nonce: signed.nonce, hash: await this.sendSigned(signed) }),
        );
      } catch (error) {
        if (isNonceConflict(error) && attempt < MAX_NONCE_RETRIES) {
          log.warn("nonce refused by the node; re-synced from its pending count", { call: intent.label, error: errorMessage(error) });
          continue;
        }
        throw error;
      }
      const { nonce, hash } = sent;
      log.info("transaction sent", { call: intent.label, txHash: hash, nonce, maxFeePerGas: fees.maxFeePerGas });
      try {
        return await this.awaitReceipt(intent, { nonce, gasLimit, fees, hashes: [hash] }, log, hooks);
      } catch (error) {
        // The nonce may now be used or free in ways the counter does not know: ask the node again next time.
        this.nonces.resync();
        throw error;
      }
    }
  }

  /**
   * Waits for a transaction sent earlier (by a process that stopped) as `send` waits for its own: replaced with a
   * higher fee under the same nonce when it stays unmined, and re-signed when the node no longer knows it.
   */
  async resume(intent: TxIntent, pending: PendingTx, log: WorkerLogger, hooks: SendHooks = {}): Promise<SentTransaction> {
    try {
      return await this.awaitReceipt(intent, { ...pending, hashes: [...pending.hashes] }, log, hooks);
    } finally {
      this.nonces.resync();
    }
  }

  /** The wallet's address, which pays the gas. */
  get address(): string {
    return this.wallet.address;
  }

  /** The node's current fee suggestion, clamped to the cap. */
  async marketFees(): Promise<Fees> {
    const data = await this.provider.getFeeData();
    const cap = this.options.fees.maxFeePerGas;
    if (data.maxFeePerGas !== null && data.maxPriorityFeePerGas !== null) {
      const maxFeePerGas = min(data.maxFeePerGas, cap);
      return { eip1559: true, maxFeePerGas, maxPriorityFeePerGas: min(data.maxPriorityFeePerGas, maxFeePerGas) };
    }
    if (data.gasPrice === null) throw new Error("the node reports no fee data");
    const gasPrice = min(data.gasPrice, cap);
    return { eip1559: false, maxFeePerGas: gasPrice, maxPriorityFeePerGas: gasPrice };
  }

  /** The market's fees for a first send, asked of the node once per block for all sends (fees move with blocks). */
  private async feesAtHead(): Promise<Fees> {
    const head = await this.headNumber();
    if (this.headFees?.head !== head) {
      const value = this.marketFees();
      const entry = { head, value };
      this.headFees = entry;
      value.catch(() => {
        if (this.headFees === entry) this.headFees = undefined;
      });
    }
    return this.headFees!.value;
  }

  /** Fees for a replacement: the old ones raised by `bumpPercent` (or the market, if higher), capped; undefined at the cap. */
  async replacementFees(previous: Fees): Promise<Fees | undefined> {
    const { bumpPercent, maxFeePerGas: cap } = this.options.fees;
    const market = await this.marketFees();
    const maxFeePerGas = min(max(bumpFee(previous.maxFeePerGas, bumpPercent), market.maxFeePerGas), cap);
    const maxPriorityFeePerGas = min(max(bumpFee(previous.maxPriorityFeePerGas, bumpPercent), market.maxPriorityFeePerGas), maxFeePerGas);
    const enough = (next: bigint, old: bigint) => next * 10_000n >= old * (10_000n + MIN_REPLACEMENT_BUMP_BPS);
    if (!enough(maxFeePerGas, previous.maxFeePerGas) || (previous.eip1559 && !enough(maxPriorityFeePerGas, previous.maxPriorityFeePerGas))) {
      return undefined;
    }
    return { eip1559: previous.eip1559, maxFeePerGas, maxPriorityFeePerGas };
  }

  private get provider(): JsonRpcProvider {
    return this.wallet.provider as JsonRpcProvider;
  }

  private async broadcast(intent: TxIntent, nonce: number, gasLimit: bigint, fees: Fees, hooks: SendHooks = {}): Promise<string> {
    const signed = await this.sign(intent, nonce, gasLimit, fees);
    await hooks.beforeBroadcast?.({ txHash: signed.hash, nonce, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas });
    return this.sendSigned(signed);
  }

  private async sign(intent: TxIntent, nonce: number, gasLimit: bigint, fees: Fees): Promise<SignedTx> {
    if (fees.eip1559) {
      const { maxFeePerGas, maxPriorityFeePerGas } = fees;
      const call = {
        chainId: this.options.chainId,
        nonce,
        maxFeePerGas,
        maxPriorityFeePerGas,
        gasLimit,
        to: intent.to,
        data: intent.data,
        value: 0n,
      };
      return { ...signEip1559Call(call, this.privateKey), nonce };
    }
    const tx = Transaction.from({
      type: 0,
      gasPrice: fees.maxFeePerGas,
      chainId: this.options.chainId,
      nonce,
      to: intent.to,
      data: intent.data,
      gasLimit,
      value: 0n,
    });
    // Signed by the native binding, as the API signs vouchers: the same deterministic low-s signature ethers' Wallet
    // makes, without its JavaScript curve arithmetic in the nonce lock (several milliseconds a send on loaded cores).
    const { signature, recid } = signDigest(getBytes(tx.unsignedHash), this.privateKey);
    tx.signature = Signature.from({ r: hexlify(signature.subarray(0, 32)), s: hexlify(signature.subarray(32, 64)), v: 27 + recid });
    const raw = tx.serialized;
    // A transaction's hash is the hash of its signed bytes: no parse needed.
    return { raw, hash: keccak256(raw), nonce };
  }

  private async sendSigned(signed: SignedTx): Promise<string> {
    try {
      await this.submitRaw(signed.raw);
    } catch (error) {
      // The very same signed transaction is already in the pool (sent by us before, or by a twin instance).
      if (!/already known|known transaction/i.test(errorMessage(error))) throw error;
    }
    return signed.hash;
  }

  /**
   * `eth_sendRawTransaction` as one request at once. The key's broadcasts go one after another in nonce order, so each
   * one's time is the relayer's rate limit: ethers' `broadcastTransaction` held each in its request batch for 10 ms,
   * asked the block number beside it and parsed the transaction back (recovering its sender in JavaScript), about
   * 70 ms a broadcast on loaded cores, 15 purchases a second. A node's error answer is ethers' error all the same.
   */
  private async submitRaw(raw: string): Promise<void> {
    const payload = { method: "eth_sendRawTransaction", params: [raw], id: (this.rawRequestId += 1), jsonrpc: "2.0" as const };
    // The declared result type hides it: a node's error answer (JsonRpcError) comes back in the same array.
    const [answer] = (await this.provider._send(payload)) as Array<JsonRpcResult | JsonRpcError>;
    if ("error" in answer) throw this.provider.getRpcError(payload, answer);
  }

  /**
   * Waits for a receipt of `pending`. A receipt can only appear with a new block, so the chain's head is asked once
   * per poll for every transaction waiting (not each its own receipt and nonce count per poll: fifty transactions in
   * flight made a thousand node calls a second), and each new block's receipts once for all of them
   * (`eth_getBlockReceipts`; a node without it gives the block's hashes, and the receipt is asked of a hash found
   * there). A transaction's own receipt is asked only when its block's receipts are not known, or when the key's
   * mined count passed its nonce. The first check asks the receipt itself: a chain that mines on arrival (Hardhat's
   * automine) has it at once, and a head read before the broadcast, to look only in later blocks, left each send a poll
   * interval behind its receipt there (the worker's rotations on Hardhat fell out of step).
   */
  private async awaitReceipt(intent: TxIntent, pending: PendingTx, log: WorkerLogger, hooks: SendHooks = {}): Promise<SentTransaction> {
    const timeoutMs = this.options.fees.receiptTimeoutMs;
    const capReachedLogged = { value: false };
    let deadline = Date.now() + timeoutMs;
    let checkedHead: number | undefined;
    let checkedHashes = 0;
    /** Once a receipt was seen (waiting for confirmations), it is asked at every new head. */
    let receiptSeen = false;
    for (;;) {
      const head = await this.headNumber();
      if (head !== checkedHead || pending.hashes.length !== checkedHashes) {
        const found = checkedHead === undefined || receiptSeen || (await this.includedSince(checkedHead, head, pending.hashes));
        const receipt = found === true ? await this.findReceipt(pending.hashes) : found === false ? null : found;
        if (receipt) {
          receiptSeen = true;
          if (receipt.status === 0) throw new TransactionRevertedError(receipt.hash);
          if (Math.max(head, receipt.blockNumber) - receipt.blockNumber + 1 >= this.options.confirmations) {
            return { hash: receipt.hash, blockNumber: receipt.blockNumber };
          }
        } else if ((await this.minedCount(head)) > pending.nonce) {
          // The nonce is used: by one of ours mined a moment ago, or by a transaction this process did not send.
          const late = await this.findReceipt(pending.hashes);
          if (!late) throw new NonceTakenError(pending.nonce);
          continue;
        }
        [checkedHead, checkedHashes] = [head, pending.hashes.length];
      }
      if (Date.now() >= deadline) {
        await this.replace(intent, pending, log, capReachedLogged, hooks);
        deadline = Date.now() + timeoutMs;
      }
      await sleep(this.options.pollMs);
    }
  }

  /** The chain's head block number, asked of the node at most once per poll interval for all waiting transactions. */
  private headNumber(): Promise<number> {
    if (!this.head || Date.now() - this.head.at >= this.options.pollMs) {
      const value = this.provider.getBlockNumber();
      const entry = { at: Date.now(), value };
      this.head = entry;
      value.catch(() => {
        if (this.head === entry) this.head = undefined;
      });
    }
    return this.head.value;
  }

  /**
   * Whether one of `hashes` was mined in blocks (`after`, `head`]: its receipt when a block's receipts show it, true
   * when its receipt must be asked (its block's receipts are not known, a block is not known: too far back, not served
   * yet, or the head went back), false when none of them is there.
   */
  private async includedSince(after: number, head: number, hashes: string[]): Promise<MinedReceipt | boolean> {
    if (head <= after || head - after > SCANNED_BLOCKS) return true;
    const wanted = hashes.map((hash) => hash.toLowerCase());
    for (let number = after + 1; number <= head; number += 1) {
      const included = await this.transactionsOf(number);
      if (!included) return true;
      for (const hash of wanted) {
        const mined = included.get(hash);
        if (mined !== undefined) return mined ?? true;
      }
    }
    return false;
  }

  /**
   * Block `number`'s transactions (lower-case hash to its receipt, or to null where only the hash is known), asked
   * once; blocks far behind the head are forgotten.
   */
  private transactionsOf(number: number): Promise<Map<string, MinedReceipt | null> | null> {
    let entry = this.blockHashes.get(number);
    if (!entry) {
      // A block the node cannot give (not served yet, or the call failed) is null: the receipt is asked instead.
      entry = this.blockReceipts(number).then(
        (mined) => mined,
        () => null,
      );
      const cached = entry;
      this.blockHashes.set(number, cached);
      // A block not served yet, or a failed call, is asked again next time.
      void cached.then((hashes) => {
        if (!hashes && this.blockHashes.get(number) === cached) this.blockHashes.delete(number);
      });
      for (const known of this.blockHashes.keys()) if (known < number - SCANNED_BLOCKS) this.blockHashes.delete(known);
    }
    return entry;
  }

  /**
   * `eth_getBlockReceipts` in one request, its answer parsed natively and only the status kept: each waiting send's
   * own `eth_getTransactionReceipt` was a node call and an ethers receipt (every log's address checksummed in
   * JavaScript) per purchase. A node without the method (it answers an error) gets `eth_getBlock` from then on.
   */
  private async blockReceipts(number: number): Promise<Map<string, MinedReceipt | null> | null> {
    if (this.blockReceiptsServed !== false) {
      const payload = { method: "eth_getBlockReceipts", params: [toQuantity(number)], id: (this.rawRequestId += 1), jsonrpc: "2.0" as const };
      const [answer] = (await this.provider._send(payload)) as Array<JsonRpcResult | JsonRpcError>;
      if (!("error" in answer)) {
        this.blockReceiptsServed = true;
        const receipts = answer.result as Array<{ transactionHash: string; status: string; blockNumber: string }> | null;
        if (!receipts) return null;
        return new Map(
          receipts.map((receipt) => [
            receipt.transactionHash.toLowerCase(),
            { hash: receipt.transactionHash, status: Number(receipt.status), blockNumber: Number(receipt.blockNumber) },
          ]),
        );
      }
      // Once served, an error is the node's trouble, not a missing method: the block is asked again later.
      if (this.blockReceiptsServed) return null;
      this.blockReceiptsServed = false;
    }
    const block = await this.provider.getBlock(number);
    return block ? new Map(block.transactions.map((hash) => [hash.toLowerCase(), null])) : null;
  }

  /** The key's mined transaction count, asked once per head for all waiting transactions. */
  private minedCount(head: number): Promise<number> {
    if (this.mined?.head !== head) {
      const value = this.provider.getTransactionCount(this.wallet.address, "latest");
      const entry = { head, value };
      this.mined = entry;
      value.catch(() => {
        if (this.mined === entry) this.mined = undefined;
      });
    }
    return this.mined!.value;
  }

  private async replace(
    intent: TxIntent,
    pending: PendingTx,
    log: WorkerLogger,
    capReachedLogged: { value: boolean },
    hooks: SendHooks,
  ): Promise<void> {
    const cancel = hooks.cancelInstead?.() ?? false;
    const call = cancel ? { to: this.wallet.address, data: "0x", label: `cancel ${intent.label}` } : intent;
    const fields = { call: call.label, nonce: pending.nonce, txHash: pending.hashes[pending.hashes.length - 1] };
    const fees = await this.replacementFees(pending.fees);
    if (!fees) {
      if (!capReachedLogged.value) log.warn("transaction still pending and its fee is at the cap MAX_FEE_PER_GAS_GWEI; waiting", fields);
      capReachedLogged.value = true;
      return;
    }
    try {
      // A cancel is not an attempt of the call: it is not announced to the call's hooks.
      const hash = await this.broadcast(call, pending.nonce, pending.gasLimit, fees, cancel ? {} : hooks);
      pending.hashes.push(hash);
      pending.fees = fees;
      this.options.onFeeBump?.(intent.to);
      log.warn("transaction not mined in time; replaced with a higher fee", {
        ...fields,
        txHash: hash,
        replaces: fields.txHash,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
    } catch (error) {
      // Mined meanwhile (nonce too low) or refused as underpriced: the receipt loop sorts it out.
      log.warn("replacement not accepted; still waiting", { ...fields, error: errorMessage(error) });
    }
  }

  private async findReceipt(hashes: string[]): Promise<TransactionReceipt | null> {
    for (const hash of hashes) {
      const receipt = await this.provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
    }
    return null;
  }
}

function withMargin(estimate: bigint): bigint {
  return estimate + (estimate * GAS_LIMIT_MARGIN_PERCENT) / 100n;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
