import { errorMessage, type WorkerLogger } from "./logger";

export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  factor?: number;
  /** Errors for which another attempt cannot help (a rejected API key): thrown at once. */
  isFatal?: (error: unknown) => boolean;
  /** Injected in tests to run without waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Stops the retries (worker shutdown); the last error is thrown. */
  signal?: AbortSignal;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Like `sleep`, but wakes up at once when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleep(ms);
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", wake);
      resolve();
    }, ms);
    signal.addEventListener("abort", wake, { once: true });
  });
}

/** Delay before retry number `attempt` (1-based): initial × factor^(attempt-1), capped. */
export function backoffDelay(attempt: number, options: Pick<BackoffOptions, "initialDelayMs" | "maxDelayMs" | "factor">): number {
  return Math.min(options.maxDelayMs, options.initialDelayMs * (options.factor ?? 2) ** (attempt - 1));
}

/** Calls `task` until it succeeds, waiting longer after each failure (capped), and logs every failed attempt. */
export async function retryWithBackoff<T>(what: string, task: () => Promise<T>, logger: WorkerLogger, options: BackoffOptions): Promise<T> {
  const wait = options.sleep ?? ((ms: number) => abortableSleep(ms, options.signal));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      if (options.isFatal?.(error) || options.signal?.aborted) throw error;
      const delayMs = backoffDelay(attempt, options);
      logger.warn(`${what} failed; retrying`, { attempt, retryInMs: delayMs, error: errorMessage(error) });
      await wait(delayMs);
      if (options.signal?.aborted) throw error;
    }
  }
}
