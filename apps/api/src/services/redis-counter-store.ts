import Redis from "ioredis";
import { urlOrigin } from "@raffle/config";

import { jsonLog } from "../logging/logger";
import type { CounterStore, RateLimitDecision, SignLimits } from "./rate-limiter";

// One signing request, atomically in Redis: count it for the key; if the key is within its limit and the account
// counter below its own, count it for the account too (a refusal adds nothing to the account). Each counter starts
// its window on its first hit (or if it ever lost its expiry), so a crash between commands can never leave a counter
// that never resets. One script run and one short reply per request. (One Redis, not Redis Cluster: the two keys may
// live in different slots.)
// KEYS: key counter, account counter. ARGV: window seconds, per-key limit, per-account limit.
// Reply: {0, 0} allowed, {1, seconds left} refused for the key, {2, seconds left} refused for the account.
const COUNT_SIGN = `
local window = tonumber(ARGV[1])
local function ttlOf(key)
  local ttl = redis.call('TTL', key)
  if ttl < 0 then
    redis.call('EXPIRE', key, window)
    ttl = window
  end
  return ttl
end
local keyCount = redis.call('INCR', KEYS[1])
local keyTtl = ttlOf(KEYS[1])
if keyCount > tonumber(ARGV[2]) then return {1, keyTtl} end
local accountCount = tonumber(redis.call('GET', KEYS[2]) or '0')
if accountCount >= tonumber(ARGV[3]) then return {2, ttlOf(KEYS[2])} end
redis.call('INCR', KEYS[2])
ttlOf(KEYS[2])
return {0, 0}`;

type RedisWithScript = Redis & {
  countSign(keyCounter: string, accountCounter: string, window: number, perKey: number, perAccount: number): Promise<[number, number]>;
};

/** Rate-limit counters shared by every API process and replica: one script call per request. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: RedisWithScript;

  constructor(url: string, keyPrefix: string) {
    // The offline queue stays on: without it every command sent before the connection is up (the first requests
    // after start-up) fails. maxRetriesPerRequest still fails a command fast when Redis is down. Auto-pipelining
    // sends the commands of concurrent requests in one write.
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableAutoPipelining: true, keyPrefix });
    redis.defineCommand("countSign", { numberOfKeys: 2, lua: COUNT_SIGN });
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

  async countSign(keyCounter: string, accountCounter: string, limits: SignLimits): Promise<RateLimitDecision> {
    const [refusedBy, secondsLeft] = await this.redis.countSign(
      `ratelimit:${keyCounter}`,
      `ratelimit:${accountCounter}`,
      limits.windowSeconds,
      limits.signPerKey,
      limits.signPerAccount,
    );
    if (refusedBy === 0) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, secondsLeft), scope: refusedBy === 1 ? "key" : "account" };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // No reconnect after this: with Redis unreachable, the socket of an attempt in flight can close after
    // disconnect() and have ioredis schedule one more attempt, and so on, keeping the process alive.
    this.redis.options.retryStrategy = () => null;
    // QUIT lets pending replies arrive; disconnect() also stops the reconnect loop when Redis was never reachable.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}
