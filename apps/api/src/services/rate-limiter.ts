import { problems } from "../common/problem";

/**
 * Fixed-window counters for the sign endpoint. In memory by default (per process); in Redis when REDIS_URL is set,
 * so every API replica shares them.
 */
export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

interface CounterStore {
  /** Counts one hit on each key; answers in the same order. */
  increment(keys: string[], windowSeconds: number): Promise<Array<{ count: number; resetInSeconds: number }>>;
  /** Resolves when the store answers (for /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();

  async increment(keys: string[], windowSeconds: number): Promise<Array<{ count: number; resetInSeconds: number }>> {
    return keys.map((key) => this.incrementOne(key, windowSeconds));
  }

  private incrementOne(key: string, windowSeconds: number): { count: number; resetInSeconds: number } {
    const now = Date.now();
    let counter = this.counters.get(key);
    if (!counter || counter.resetAt <= now) {
      if (this.counters.size > 100_000) this.sweep(now);
      counter = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, resetInSeconds: Math.max(1, Math.ceil((counter.resetAt - now) / 1000)) };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.counters.clear();
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }
}

export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: { windowSeconds: number; signPerKey: number; signPerAccount: number },
    /** Where the counters live: Redis must answer for the sign endpoint to work, so /ready checks it. */
    readonly backend: "memory" | "redis" = "memory",
  ) {}

  /** In Redis when `redisUrl` is set, with keys under `redisKeyPrefix` (its default lives in the API config). */
  static create(options: {
    windowSeconds: number;
    signPerKey: number;
    signPerAccount: number;
    redisUrl?: string;
    redisKeyPrefix: string;
  }): RateLimiter {
    if (options.redisUrl) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { RedisCounterStore } = require("./redis-counter-store") as typeof import("./redis-counter-store");
      return new RateLimiter(new RedisCounterStore(options.redisUrl, options.redisKeyPrefix), options, "redis");
    }
    return new RateLimiter(new MemoryCounterStore(), options);
  }

  /** Counts one signature for the key and for the account; refuses when either is over its limit. */
  async checkSign(apiKeyId: number, account: string): Promise<RateLimitDecision & { scope?: "key" | "account" }> {
    const window = this.limits.windowSeconds;
    const [byKey, byAccount] = await this.store.increment([`sign:key:${apiKeyId}`, `sign:account:${account.toLowerCase()}`], window).catch(() => {
      // The counter store (Redis) is down: a server-side outage, never a 500 blamed on the request.
      throw problems.serviceUnavailable("rateLimiter");
    });
    if (byKey.count > this.limits.signPerKey) return { allowed: false, retryAfterSeconds: byKey.resetInSeconds, scope: "key" };
    if (byAccount.count > this.limits.signPerAccount) {
      return { allowed: false, retryAfterSeconds: byAccount.resetInSeconds, scope: "account" };
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
