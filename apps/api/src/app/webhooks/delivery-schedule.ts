/**
 * When a failed attempt is tried again: exponential backoff (base, 2×base, 4×base, ... up to `maxMs`) with "equal
 * jitter" (half fixed, half random), so receivers coming back are not hit by every sender at once.
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/**
 * How long a claimed attempt keeps its delivery away from other replicas: twice the request timeout. A process
 * killed mid-attempt leaves the delivery to be taken again once this lease ends (at-least-once, never lost).
 */
export function attemptLeaseMs(timeoutMs: number): number {
  return timeoutMs * 2;
}
