import { PlatformError } from "@raffle/config";

/**
 * Base of the worker's own errors (a PlatformError): a stable `code`, and `retryable`, whether the next tick may
 * succeed; most are (a rejected call, a taken nonce), a missing role is not.
 */
export class WorkerError extends PlatformError {
  constructor(code: string, message: string, retryable = true) {
    super(code, message, retryable);
    this.name = new.target.name;
  }
}

/** A call that the Raffle rejects, decoded from its revert data (custom error name and arguments). */
export class CallRejectedError extends WorkerError {
  constructor(
    readonly call: string,
    readonly reason: string,
    readonly args: readonly unknown[],
  ) {
    super("callRejected", `${call} would revert with ${reason}(${args.map(String).join(", ")})`);
  }
}

/** The merchant key may not run rounds on this raffle: nothing but a role grant (or another key) fixes it. */
export class MissingRoleError extends WorkerError {
  constructor(
    readonly account: string,
    readonly role: string,
    readonly raffle: string,
  ) {
    super("missingRole", `merchant key ${account} lacks ${role} on raffle ${raffle}`, false);
  }
}

/** A sent transaction was mined but reverted. */
export class TransactionRevertedError extends WorkerError {
  constructor(readonly txHash: string) {
    super("transactionReverted", `transaction ${txHash} reverted`);
  }
}

/** The nonce of a pending transaction was used by another transaction of the same key (another worker instance). */
export class NonceTakenError extends WorkerError {
  constructor(readonly nonce: number) {
    super("nonceTaken", `nonce ${nonce} was used by another transaction of the merchant key`);
  }
}
