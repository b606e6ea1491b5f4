/** Base of the worker's own errors: a stable `code`, and whether retrying on the next tick can help. */
export class WorkerError extends Error {
  readonly permanent: boolean = false;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
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
  override readonly permanent = true;

  constructor(
    readonly account: string,
    readonly role: string,
    readonly raffle: string,
  ) {
    super("missingRole", `merchant key ${account} lacks ${role} on raffle ${raffle}`);
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
