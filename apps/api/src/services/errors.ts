import { PlatformError } from "@raffle/config";

/*
 * What the API's infrastructure (chains, the Exchange's state, the rate limiter) refuses with: domain errors, not HTTP.
 * Each code is the catalogue's problem code it becomes at the edge (common/infrastructure-problems.ts), so a log line
 * and the answer name the same thing; `retryable` says whether the same request may pass later.
 */

/** The chain asked for is not one this deployment serves: only a deployment of that chain can answer. */
export class ChainNotServedError extends PlatformError {
  constructor(
    readonly chainId: number,
    readonly served: readonly number[],
  ) {
    super("chainNotServed", `chain ${chainId} is not served by this API; it serves chain ${served.join(", ")}`, false);
  }
}

/** The voucher key lacks SIGNER_ROLE on the Exchange: retryable, since an operator's grant (or a rotation) fixes it. */
export class SignerNotAuthorizedError extends PlatformError {
  constructor(
    readonly signer: string,
    readonly exchange: string,
  ) {
    super("signerNotAuthorized", `the voucher key ${signer} does not hold SIGNER_ROLE on the Exchange ${exchange}`, true);
  }
}

/** The chain's node has not answered yet, so the voucher key's role is unverified. */
export class ChainUnavailableError extends PlatformError {
  constructor() {
    super("chainUnavailable", "the chain node has not answered yet, so the voucher key's SIGNER_ROLE is unverified", true);
  }
}

/** The platform paused its Exchange: no voucher goes through until it is unpaused. */
export class ExchangePausedError extends PlatformError {
  constructor() {
    super("exchangePaused", "the platform's Exchange is paused", true);
  }
}

/** A dependency the request needs does not answer (the rate limiter's Redis). */
export class DependencyUnavailableError extends PlatformError {
  constructor(
    readonly dependency: "rateLimiter",
    options?: ErrorOptions,
  ) {
    super("serviceUnavailable", `the ${dependency} does not answer`, true, options);
  }
}
