import Redis from "ioredis";
import { urlOrigin } from "@raffle/config";

import { jsonLog } from "../logging/logger";
import type { CounterStore, RateLimitDecision, SignLimits } from "./rate-limiter";

// The signing requests of one event-loop pass, in one script run: for each, in the order they came, count it for the
// key; if the key is within its limit and the account counter below its own, count it for the account too (a refusal
// adds nothing to the account). Each counter starts its window on its first hit (or if it ever lost its expiry), so a
// crash between commands can never leave a counter that never resets. One script is atomic, so the requests it counts
// are decided exactly as they would be one script run each, in that order. (One Redis, not Redis Cluster: the keys
// may live in different slots.)
// KEYS: per request, its key counter then its account counter. ARGV: per request, window seconds, per-key limit,
// per-account limit. Reply: per request, {0, 0} allowed, {1, seconds left} refused for the key, {2, seconds left}
// refused for the account, flattened.
const COUNT_SIGNS = `
local function ttlOf(key, window)
  local ttl = redis.call('TTL', key)
  if ttl < 0 then
    redis.call('EXPIRE', key, window)
    ttl = window
  end
  return ttl
end
local reply = {}
for i = 1, #KEYS / 2 do
  local keyCounter, accountCounter = KEYS[2 * i - 1], KEYS[2 * i]
  local window = tonumber(ARGV[3 * i - 2])
  local keyCount = redis.call('INCR', keyCounter)
  local keyTtl = ttlOf(keyCounter, window)
  if keyCount > tonumber(ARGV[3 * i - 1]) then
    reply[2 * i - 1], reply[2 * i] = 1, keyTtl
  else
    local accountCount = tonumber(redis.call('GET', accountCounter) or '0')
    if accountCount >= tonumber(ARGV[3 * i]) then
      reply[2 * i - 1], reply[2 * i] = 2, ttlOf(accountCounter, window)
    else
      redis.call('INCR', accountCounter)
      ttlOf(accountCounter, window)
      reply[2 * i - 1], reply[2 * i] = 0, 0
    end
  end
end
return reply`;

type RedisWithScript = Redis & {
  /** `numberOfKeys`, the keys, then the arguments (see COUNT_SIGNS). */
  countSigns(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<number[]>;
};

/** Requests counted in one script run at most: keeps a run short, however many requests one pass brings. */
const MAX_REQUESTS_PER_RUN = 256;

interface PendingCount {
  keyCounter: string;
  accountCounter: string;
  limits: SignLimits;
  resolve: (decision: RateLimitDecision) => void;
  reject: (error: unknown) => void;
}

/** Rate-limit counters shared by every API process and replica: one script call per event-loop pass. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: RedisWithScript;
  /** Requests counted since the last script run, and the run scheduled for them. */
  private pending: PendingCount[] = [];
  private flushScheduled: NodeJS.Immediate | null = null;

  constructor(url: string, keyPrefix: string) {
    // The offline queue stays on: without it every command sent before the connection is up (the first requests
    // after start-up) fails. maxRetriesPerRequest still fails a command fast when Redis is down. No auto-pipelining:
    // the requests of a pass already share one command (flush below), and ioredis' auto-pipelining would wrap each
    // such command in a Pipeline of its own (its objects, promises and a tick) for the same single write.
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableAutoPipelining: false, keyPrefix });
    redis.defineCommand("countSigns", { lua: COUNT_SIGNS });
    this.redis = redis as RedisWithScript;
    // Connection errors as structured log lines (ioredis would print them raw), once per outage rather than at every
    // reconnect attempt; commands fail on their own, and /ready reports the outage.
    const redisAt = urlOrigin(url);
    let down = false;
    this.redis.on("error", (error: Error) => {
      if (down) return;
      down = true;
      jsonLog("error", "Redis unreachable: signing is refused until it answers; check REDIS_URL", {
        component: "rate-limit",
        redis: redisAt,
        error: error.message,
      });
    });
    this.redis.on("ready", () => {
      if (!down) return;
      down = false;
      jsonLog("info", "Redis reachable again", { component: "rate-limit", redis: redisAt });
    });
  }

  /**
   * Counts one request; the requests of the same event-loop pass (the sockets read in one poll) share one script run
   * and one reply, where one call each cost a command's encoding, a Lua call and a reply's parsing per request.
   */
  countSign(keyCounter: string, accountCounter: string, limits: SignLimits): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      this.pending.push({ keyCounter: `ratelimit:${keyCounter}`, accountCounter: `ratelimit:${accountCounter}`, limits, resolve, reject });
      if (this.pending.length >= MAX_REQUESTS_PER_RUN) this.flush();
      // setImmediate, not process.nextTick: each request is read in its own I/O callback, and a tick would run after
      // each one; the immediate runs once the pass has read every socket that was ready.
      else this.flushScheduled ??= setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (this.flushScheduled) clearImmediate(this.flushScheduled);
    this.flushScheduled = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const keys: string[] = [];
    const args: number[] = [];
    for (const { keyCounter, accountCounter, limits } of batch) {
      keys.push(keyCounter, accountCounter);
      args.push(limits.windowSeconds, limits.signPerKey, limits.signPerAccount);
    }
    this.redis.countSigns(keys.length, ...keys, ...args).then(
      (reply) => {
        batch.forEach((request, index) => {
          const refusedBy = reply[2 * index];
          if (refusedBy === 0) request.resolve({ allowed: true, retryAfterSeconds: 0 });
          else request.resolve({ allowed: false, retryAfterSeconds: Math.max(1, reply[2 * index + 1]), scope: refusedBy === 1 ? "key" : "account" });
        });
      },
      (error: unknown) => {
        for (const request of batch) request.reject(error);
      },
    );
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // No reconnect after this: with Redis unreachable, the socket of an attempt in flight can close after
    // disconnect() and have ioredis schedule one more attempt, and so on, keeping the process alive.
    this.redis.options.retryStrategy = () => null;
    // Requests counted in this pass still get their answer (QUIT below lets it arrive).
    this.flush();
    // QUIT lets pending replies arrive; disconnect() also stops the reconnect loop when Redis was never reachable.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}
