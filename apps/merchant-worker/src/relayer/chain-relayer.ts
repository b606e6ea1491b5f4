import { getAddress, isError, type JsonRpcProvider, type TransactionResponse } from "ethers";

import { NonceTakenError, TransactionRevertedError } from "../errors";
import { errorMessage, type WorkerLogger } from "../logger";
import type { SentTransaction } from "../rotation";
import type { PendingTx, SendHooks, TxIntent, TxSender } from "../tx-sender";
import { RELAY_FAILURE, type RelayJob, type RelayMailbox, type RelayOutcome } from "./relay-mailbox";
import { customErrorName, failureCodeOf, revertData } from "./revert-names";

/** Counters the relayer feeds (the worker's Prometheus metrics). */
export interface RelayerMetricsSink {
  jobSent(chainId: number): void;
  jobResent(chainId: number): void;
  jobMined(chainId: number): void;
  jobFailed(chainId: number, failureCode: string): void;
}

export interface ChainRelayerOptions {
  chainId: number;
  /** The chain's Exchange: the only `to` a job may have. */
  exchange: string;
  mailbox: RelayMailbox;
  /** Sends from the key that pays the relayed gas, with its own nonce count. */
  sender: TxSender;
  provider: JsonRpcProvider;
  logger: WorkerLogger;
  pollIntervalMs: number;
  /** Jobs relayed at once; the mailbox is asked for no more. */
  maxInFlight: number;
  metrics?: RelayerMetricsSink;
  /** Wall clock in ms (tests move it). */
  now?: () => number;
}

/** What /health shows of one chain's relayer. */
export interface RelayerHealth {
  chainId: number;
  relayerId: string;
  /** The address that pays the relayed gas. */
  account: string;
  exchange: string;
  inFlight: number;
  lastClaim: { at: string; ok: boolean; jobs?: number; error?: string } | null;
  totals: { sent: number; resent: number; mined: number; failed: number };
}

/** A transaction mined but reverted this often, although each simulation passed, fails the job. */
const MAX_REVERTED_SENDS = 3;
/** `limit` of a claim is 1..500 (the mailbox's bounds, and RELAYER_MAX_IN_FLIGHT's): held jobs plus new leases. */
const MAX_CLAIM = 500;
/**
 * With little room for new jobs, a claim mostly renews the leases held (120 s at the API), and answers every held job
 * in full: it is made this often, not at every poll (at 50 jobs a second, polls of a full relayer cost the API more
 * than the jobs' own reports).
 */
const RENEW_WHEN_FULL_MS = 20_000;
/**
 * A claim is made when at least this share of the cap is free (1/10: 20 jobs of 200), so that each answer of every
 * held job leases a batch of new ones rather than one or two.
 */
const CLAIM_BATCH_DIVISOR = 10;

/**
 * The gas a relayed purchase is simulated and sent with: above what any purchase the intake accepts needs (one ticket
 * about 190,000, ten 240,000, a round's first ticket more), below the block's limit many times over. It is a limit,
 * not a cost: a transaction pays for the gas it uses.
 */
export const PURCHASE_GAS_BOUND = 400_000n;

/** The failure code of a revert whose custom error the relayer can name, else undefined. */
function namedFailure(error: unknown): string | undefined {
  const data = revertData(error);
  const name = data ? customErrorName(data) : undefined;
  return name ? failureCodeOf(name) : undefined;
}

/**
 * Relays one chain's jobs from the mailbox: checks the target, simulates, sends with its own nonce manager, records
 * each attempt before it is broadcast, resends a stuck or dropped transaction with a higher fee under the same nonce,
 * and reports the outcome. A job handed over with attempts (after a restart, or from a relayer whose lease expired)
 * is first looked up on the chain: a mined attempt is reported, a pending one of this key is waited for, so nothing is
 * sent twice. Never sends after the job's `notAfter`: a transaction still pending then is replaced by a cancel.
 */
export class ChainRelayer {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly totals = { sent: 0, resent: 0, mined: 0, failed: 0 };
  private lastClaim: RelayerHealth["lastClaim"] = null;
  private lastClaimOkAt?: number;
  private head?: { at: number; value: Promise<number | null> };
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private stopped = true;
  private readonly exchange: string;

  constructor(private readonly options: ChainRelayerOptions) {
    this.exchange = getAddress(options.exchange);
  }

  get chainId(): number {
    return this.options.chainId;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.options.logger.info("relayer started", {
      relayerId: this.options.mailbox.relayerId,
      account: this.options.sender.address,
      exchange: this.exchange,
    });
    this.schedule(0);
  }

  /** Stops polling and waits up to `graceMs` for jobs under way (the rest resume from the mailbox after a restart). */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))]);
    clearTimeout(timeout);
  }

  /** Resolves when every job taken so far is done. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** One claim: renews the leases of the jobs held and starts each job not already under way. Resolves with their count. */
  async pollOnce(): Promise<number> {
    const { mailbox, chainId, logger } = this.options;
    // The mailbox counts the jobs this relayer holds against `limit` and leases only the room left.
    const limit = Math.max(1, Math.min(MAX_CLAIM, this.options.maxInFlight));
    const batch = Math.ceil(limit / CLAIM_BATCH_DIVISOR);
    const renewedLately = this.lastClaimOkAt !== undefined && this.nowMs() - this.lastClaimOkAt < RENEW_WHEN_FULL_MS;
    if (limit - this.inFlight.size < batch && renewedLately) return 0;
    let jobs: RelayJob[];
    try {
      jobs = await mailbox.claim(chainId, limit);
    } catch (error) {
      this.lastClaim = { at: this.nowIso(), ok: false, error: errorMessage(error) };
      logger.warn("relay jobs could not be claimed; retrying", { error: errorMessage(error) });
      return 0;
    }
    this.lastClaim = { at: this.nowIso(), ok: true, jobs: jobs.length };
    this.lastClaimOkAt = this.nowMs();
    let started = 0;
    for (const job of jobs) {
      if (this.inFlight.has(job.id) || job.chainId !== chainId) continue;
      const run = this.relay(job)
        .catch((error: unknown) => logger.warn("relay job interrupted; resumed at the next claim", { jobId: job.id, error: errorMessage(error) }))
        .finally(() => this.inFlight.delete(job.id));
      this.inFlight.set(job.id, run);
      started += 1;
    }
    return started;
  }

  health(): RelayerHealth {
    return {
      chainId: this.options.chainId,
      relayerId: this.options.mailbox.relayerId,
      account: this.options.sender.address,
      exchange: this.exchange,
      inFlight: this.inFlight.size,
      lastClaim: this.lastClaim,
      totals: { ...this.totals },
    };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.pollOnce().then(
        () => this.schedule(this.options.pollIntervalMs),
        () => this.schedule(this.options.pollIntervalMs),
      );
    }, delayMs);
  }

  /** Relays one job to its outcome; throws (and the job comes back at the next claim) when the node or the mailbox fails. */
  async relay(job: RelayJob): Promise<void> {
    const log = this.options.logger.child({ jobId: job.id, kind: job.kind });
    if (!/^0x[0-9a-fA-F]{40}$/.test(job.to) || getAddress(job.to) !== this.exchange) {
      log.error("relay job refused: its target is not this chain's Exchange", { to: job.to, exchange: this.exchange });
      return this.finish(job, { outcome: "failed", failureCode: RELAY_FAILURE.relayTargetRefused }, log);
    }
    const intent: TxIntent = { to: this.exchange, data: job.data, label: `relay ${job.kind}` };
    /** Hashes of every broadcast of the job's call, known to the mailbox. */
    const callHashes = new Set(job.attempts.map((attempt) => attempt.txHash));
    let reverted = 0;
    for (;;) {
      const mined = await this.minedAttempt(callHashes);
      if (mined) return this.finish(job, { outcome: "mined", txHash: mined }, log);
      const hooks = this.hooks(job, callHashes, log);
      let result: SentTransaction;
      try {
        const pending = await this.pendingAttempt(job, callHashes);
        if (pending === "otherKey") {
          // Another relayer's transaction may still be mined: wait for it, until the chain is past the deadline.
          if (await this.pastDeadlineOnChain(job)) return this.failExpired(job, callHashes, log);
          log.info("an attempt of another relayer key is pending; waiting for it");
          return;
        }
        if (pending) {
          log.info("resuming a pending attempt", { nonce: pending.nonce, txHash: pending.hashes[pending.hashes.length - 1] });
          result = await this.options.sender.resume(intent, pending, log, hooks);
        } else {
          if (await this.tooLateToSend(job)) return this.failExpired(job, callHashes, log);
          const simulation = await this.simulate(intent, job.kind);
          if ("failureCode" in simulation) {
            // Our own earlier attempt may have used the voucher a moment ago: that is a purchase made, not a failure.
            const late = await this.minedAttempt(callHashes);
            if (late) return this.finish(job, { outcome: "mined", txHash: late }, log);
            log.info("relay job's simulation reverts", { failureCode: simulation.failureCode });
            return this.finish(job, { outcome: "failed", failureCode: simulation.failureCode }, log);
          }
          result = await this.options.sender.send(intent, log, { ...hooks, gasLimit: simulation.gasLimit });
        }
      } catch (error) {
        if (error instanceof TransactionRevertedError) {
          reverted += 1;
          log.warn("relayed transaction reverted although its simulation passed", { txHash: error.txHash, reverted });
          if (reverted >= MAX_REVERTED_SENDS) {
            return this.finish(job, { outcome: "failed", failureCode: RELAY_FAILURE.transactionReverted, txHash: error.txHash }, log);
          }
          continue;
        }
        if (error instanceof NonceTakenError) {
          log.warn("the attempt's nonce was used by another transaction of the key; checking the job again", { nonce: error.nonce });
          continue;
        }
        throw error;
      }
      if (callHashes.has(result.hash)) return this.finish(job, { outcome: "mined", txHash: result.hash }, log);
      // A cancel took the nonce: the deadline passed while the call was pending.
      log.warn("relayed transaction canceled after the job's deadline", { cancelTxHash: result.hash });
      return this.failExpired(job, callHashes, log);
    }
  }

  private hooks(job: RelayJob, callHashes: Set<string>, log: WorkerLogger): SendHooks {
    const { mailbox, metrics, chainId } = this.options;
    return {
      beforeBroadcast: async (attempt) => {
        const resend = callHashes.size > 0;
        await mailbox.reportSent(job.id, attempt);
        callHashes.add(attempt.txHash);
        if (resend) {
          this.totals.resent += 1;
          metrics?.jobResent(chainId);
        } else {
          this.totals.sent += 1;
          metrics?.jobSent(chainId);
        }
        log.debug("relay attempt recorded", { txHash: attempt.txHash, nonce: attempt.nonce, resend });
      },
      cancelInstead: () => this.nowSeconds() > job.notAfter,
    };
  }

  /** The hash of a successful attempt among `hashes`, if one is mined. */
  private async minedAttempt(hashes: Set<string>): Promise<string | undefined> {
    const receipts = await Promise.all([...hashes].map((hash) => this.options.provider.getTransactionReceipt(hash)));
    return receipts.find((receipt) => receipt?.status === 1)?.hash;
  }

  /**
   * The newest attempt the node still holds unmined: this key's (to wait for, replaced under its nonce when due), or
   * another key's. Undefined when the node holds none (never broadcast, dropped, or mined and reverted).
   */
  private async pendingAttempt(job: RelayJob, hashes: Set<string>): Promise<PendingTx | "otherKey" | undefined> {
    const provider = this.options.provider;
    for (const hash of [...hashes].reverse()) {
      const tx: TransactionResponse | null = await provider.getTransaction(hash);
      if (!tx || tx.blockNumber !== null) continue;
      if (getAddress(tx.from) !== getAddress(this.options.sender.address)) return "otherKey";
      const sameNonce = job.attempts.filter((attempt) => attempt.nonce === tx.nonce).map((attempt) => attempt.txHash);
      const eip1559 = tx.type === 2;
      return {
        nonce: tx.nonce,
        gasLimit: tx.gasLimit,
        fees: {
          eip1559,
          maxFeePerGas: (eip1559 ? tx.maxFeePerGas : tx.gasPrice) ?? 0n,
          maxPriorityFeePerGas: (eip1559 ? tx.maxPriorityFeePerGas : tx.gasPrice) ?? 0n,
        },
        hashes: sameNonce.includes(hash) ? sameNonce : [...sameNonce, hash],
      };
    }
    return undefined;
  }

  /**
   * The call's gas limit, or the failure code its revert names. A purchase is simulated by one `eth_call` under
   * PURCHASE_GAS_BOUND and sent with that limit: the node's `estimateGas` runs the call several times over (a binary
   * search), and passing under the bound is what the send needs. A purchase that does not (out of gas under the bound,
   * a revert without a name, the node's trouble) and every claim or refund get the estimate, as before.
   */
  private async simulate(intent: TxIntent, kind: RelayJob["kind"]): Promise<{ gasLimit: bigint } | { failureCode: string }> {
    const call = { from: this.options.sender.address, to: intent.to, data: intent.data };
    if (kind === "purchase") {
      try {
        await this.options.provider.call({ ...call, gasLimit: PURCHASE_GAS_BOUND });
        return { gasLimit: PURCHASE_GAS_BOUND };
      } catch (error) {
        const failureCode = namedFailure(error);
        if (failureCode) return { failureCode };
      }
    }
    try {
      const estimate = await this.options.provider.estimateGas(call);
      return { gasLimit: estimate + estimate / 5n };
    } catch (error) {
      const failureCode = namedFailure(error);
      if (failureCode) return { failureCode };
      if (revertData(error) !== undefined || isError(error, "CALL_EXCEPTION")) return { failureCode: RELAY_FAILURE.relayReverted };
      throw error;
    }
  }

  /** A transaction sent now would be mined after `notAfter` (by the wall clock or by the chain's last block). */
  private async tooLateToSend(job: RelayJob): Promise<boolean> {
    if (this.nowSeconds() > job.notAfter) return true;
    const timestamp = await this.headTimestamp();
    return timestamp !== null && timestamp + 1 > job.notAfter;
  }

  /**
   * The latest block's timestamp, asked of the node at most once per poll interval for every job about to be sent
   * (each job's own `getBlock` was a node call per purchase; a timestamp one poll old is well within the intake's
   * 30 s margin).
   */
  private headTimestamp(): Promise<number | null> {
    if (!this.head || this.nowMs() - this.head.at >= this.options.pollIntervalMs) {
      const value = this.options.provider.getBlock("latest").then((block) => block?.timestamp ?? null);
      const entry = { at: this.nowMs(), value };
      this.head = entry;
      value.catch(() => {
        if (this.head === entry) this.head = undefined;
      });
    }
    return this.head.value;
  }

  /** The chain itself is past `notAfter`: no later block can use the voucher. */
  private async pastDeadlineOnChain(job: RelayJob): Promise<boolean> {
    const block = await this.options.provider.getBlock("latest");
    return block !== null && block.timestamp > job.notAfter;
  }

  /** Reports `voucherExpired`, unless an attempt was mined in time after all (checked after the deadline is known). */
  private async failExpired(job: RelayJob, callHashes: Set<string>, log: WorkerLogger): Promise<void> {
    const mined = await this.minedAttempt(callHashes);
    if (mined) return this.finish(job, { outcome: "mined", txHash: mined }, log);
    return this.finish(job, { outcome: "failed", failureCode: RELAY_FAILURE.voucherExpired }, log);
  }

  private async finish(job: RelayJob, outcome: RelayOutcome, log: WorkerLogger): Promise<void> {
    await this.options.mailbox.reportOutcome(job.id, outcome);
    if (outcome.outcome === "mined") {
      this.totals.mined += 1;
      this.options.metrics?.jobMined(this.options.chainId);
      log.info("relay job mined", { txHash: outcome.txHash });
    } else {
      this.totals.failed += 1;
      this.options.metrics?.jobFailed(this.options.chainId, outcome.failureCode);
      log.info("relay job failed", { failureCode: outcome.failureCode });
    }
  }

  private nowMs(): number {
    return this.options.now?.() ?? Date.now();
  }

  private nowSeconds(): number {
    return Math.floor((this.options.now?.() ?? Date.now()) / 1000);
  }

  private nowIso(): string {
    return new Date(this.options.now?.() ?? Date.now()).toISOString();
  }
}
