/**
 * The base of the platform's own errors, in libraries and apps alike: a stable camelCase `code` (what logs, /health and
 * the API's problems carry) and `retryable`, the one answer to "may the same operation succeed if tried again?".
 * `true` for a dependency that is down or busy; `false` when something must change first (a setting, a role grant,
 * the request itself). Ask it with `isRetryable`, which also understands errors that are not ours.
 */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Whether another attempt may succeed: the error's own `retryable` flag when it has one (a PlatformError, or the SDK's
 * RaffleApiError, which carries the same `code` and `retryable` but cannot extend PlatformError because the SDK is
 * published alone); any other error (a dropped connection, a timeout, a node that does not answer) may pass later.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof PlatformError) return error.retryable;
  const flag = error instanceof Error ? (error as { retryable?: unknown }).retryable : undefined;
  return typeof flag === "boolean" ? flag : true;
}
