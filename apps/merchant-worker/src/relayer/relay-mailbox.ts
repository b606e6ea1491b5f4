/**
 * The relayer's side of the API's mailbox (docs/gasless "Relayer routes"): jobs are leased to one relayer id at a
 * time, each attempt is recorded before its transaction reaches the node, and the outcome closes the job.
 */

/** One broadcast of a job's call, as the mailbox recorded it. Amounts are wei as decimal strings. */
export interface RelayAttempt {
  txHash: string;
  nonce: number;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  sentAt: string;
}

export type RelayJobKind = "purchase" | "claim" | "refund";

/** A leased job: a call to the chain's Exchange, built by the API from a request it validated. */
export interface RelayJob {
  id: string;
  kind: RelayJobKind;
  chainId: number;
  /** Must be the chain's Exchange: the relayer refuses anything else. */
  to: string;
  data: string;
  /** Unix seconds: the voucher's or intent's deadline. After it the job can only fail. */
  notAfter: number;
  /** Every attempt so far, by this relayer or by one whose lease expired. */
  attempts: RelayAttempt[];
  leaseExpiresAt: string;
}

export interface SentReport {
  txHash: string;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export type RelayOutcome = { outcome: "mined"; txHash: string } | { outcome: "failed"; failureCode: string; txHash?: string };

/** What the relayer needs of the mailbox; the relayer id is the implementation's own (each replica has one). */
export interface RelayMailbox {
  readonly relayerId: string;
  /** The jobs this relayer holds (renewing their leases) and up to `limit` queued ones newly leased to it. */
  claim(chainId: number, limit: number): Promise<RelayJob[]>;
  /** Records an attempt; called before the transaction is broadcast, so a crash never hides a sent transaction. */
  reportSent(jobId: string, attempt: SentReport): Promise<void>;
  reportOutcome(jobId: string, outcome: RelayOutcome): Promise<void>;
}

/** Failure codes the relayer itself reports (a simulation's revert is reported as its custom error's name). */
export const RELAY_FAILURE = {
  /** The voucher's or intent's deadline passed before the call could be mined: nothing moved. */
  voucherExpired: "voucherExpired",
  /** The job's `to` is not this chain's Exchange: the relayer never sends it. */
  relayTargetRefused: "relayTargetRefused",
  /** The call reverts without a custom error the relayer can name. */
  relayReverted: "relayReverted",
  /** Mined but reverted repeatedly, although its simulation passed each time. */
  transactionReverted: "transactionReverted",
} as const;
