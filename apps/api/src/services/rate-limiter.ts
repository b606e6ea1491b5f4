import { DependencyUnavailableError } from "./errors";

/**
 * Fixed-window counters for the sign endpoint. In memory by default (per process); in Redis when REDIS_URL is set,
 * so every API replica shares them.
 *
 * What is counted, and for whom: a signing request is counted once it passed every other check, that is when the
 * platform is about to sign (refused requests cost no signature, no voucher row, and count for no one). The per-key
 * counter holds every such request of the key, so a key can only ever exhaust itself. The per-account counter is the
 * merchant's own (one merchant's traffic can never lock a player out of another merchant) and counts only the
 * signatures issued: requests refused by either limit do not add to it.
 */
export interface RateLimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
  scope?: "key" | "account";
}

export interface SignLimits {
  windowSeconds: number;
  signPerKey: number;
  signPerAccount: number;
}

/** Who asks for a signature: the key's own counter and its merchant's counter of the account. */
export interface SignRequester {
  /** Null for a merchant's console session, counted as its merchant's. */
  apiKeyId: number | null;
  merchantId: number;
}

export interface CounterStore {
  /**
   * Counts one request on `keyCounter`; when that stays within `signPerKey` and `accountCounter` is below
   * `signPerAccount`, counts one on `accountCounter` too. Atomic per call.
   */
  countSign(keyCounter: string, accountCounter: string, limits: SignLimits): Promise<RateLimitDecision>;
  /** Resolves when the store answers (for /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();

  async countSign(keyCounter: string, accountCounter: string, limits: SignLimits): Promise<RateLimitDecision> {
    const now = Date.now();
    const byKey = this.counter(keyCounter, limits.windowSeconds, now);
    byKey.count += 1;
    if (byKey.count > limits.signPerKey) return { allowed: false, retryAfterSeconds: this.secondsLeft(byKey, now), scope: "key" };
    const byAccount = this.counter(accountCounter, limits.windowSeconds, now);
    if (byAccount.count >= limits.signPerAccount) return { allowed: false, retryAfterSeconds: this.secondsLeft(byAccount, now), scope: "account" };
    byAccount.count += 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.counters.clear();
  }

  private counter(name: string, windowSeconds: number, now: number): { count: number; resetAt: number } {
    let counter = this.counters.get(name);
    if (!counter || counter.resetAt <= now) {
      if (this.counters.size > 100_000) this.sweep(now);
      counter = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.counters.set(name, counter);
    }
    return counter;
  }

  private secondsLeft(counter: { resetAt: number }, now: number): number {
    return Math.max(1, Math.ceil((counter.resetAt - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [name, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(name);
  }
}

export class RateLimiter {
  constructor(
    private readonly store: CounterStore,
    private readonly limits: SignLimits,
    /** Where the counters live: Redis must answer for the sign endpoint to work, so /ready checks it. */
    readonly backend: "memory" | "redis" = "memory",
  ) {}

  /** In Redis when `redisUrl` is set, with keys under `redisKeyPrefix` (its default lives in the API config). */
  static create(options: SignLimits & { redisUrl?: string; redisKeyPrefix: string }): RateLimiter {
    if (options.redisUrl) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { RedisCounterStore } = require("./redis-counter-store") as typeof import("./redis-counter-store");
      return new RateLimiter(new RedisCounterStore(options.redisUrl, options.redisKeyPrefix), options, "redis");
    }
    return new RateLimiter(new MemoryCounterStore(), options);
  }

  /**
   * Counts a signature about to be issued for `account` at the request of `requester`; refuses when the key is over
   * its limit, or the merchant has issued its limit for the account in this window.
   */
  countSign(requester: SignRequester, account: string): Promise<RateLimitDecision> {
    return this.store
      .countSign(
        `sign:key:${requester.apiKeyId ?? `session:${requester.merchantId}`}`,
        `sign:account:${requester.merchantId}:${account.toLowerCase()}`,
        this.limits,
      )
      .catch((error: unknown) => {
        // The counter store (Redis) is down: a server-side outage, never a 500 blamed on the request.
        throw new DependencyUnavailableError("rateLimiter", { cause: error });
      });
  }

  /**
   * Counts a request of a signed-in player (public sale): per client IP first, then, when `address` is given, the
   * address's own counter, which only what passes the IP limit adds to. Same store and window as the sign limits.
   */
  countPlayer(ip: string, address: string | null, limits: { perIp: number; perAddress: number }): Promise<RateLimitDecision> {
    const ipCounter = `player:ip:${ip}`;
    // Without an address (a sign-in nonce) the second counter is the IP's own again, so it never refuses first.
    const second = address ? `player:address:${address.toLowerCase()}` : `${ipCounter}:passed`;
    const perSecond = address ? limits.perAddress : limits.perIp;
    return this.store
      .countSign(ipCounter, second, { windowSeconds: this.limits.windowSeconds, signPerKey: limits.perIp, signPerAccount: perSecond })
      .catch((error: unknown) => {
        throw new DependencyUnavailableError("rateLimiter", { cause: error });
      });
  }

  /**
   * Counts a request on a per-IP budget of its own, `budget` (the console's sign-in, the public reads), in the same
   * store and window as the others: what one budget's clients send never uses up another's.
   */
  countClient(budget: "console" | "reads", ip: string, perIp: number): Promise<RateLimitDecision> {
    const counter = `${budget}:ip:${ip}`;
    return this.store
      .countSign(counter, `${counter}:passed`, { windowSeconds: this.limits.windowSeconds, signPerKey: perIp, signPerAccount: perIp })
      .catch((error: unknown) => {
        throw new DependencyUnavailableError("rateLimiter", { cause: error });
      });
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
