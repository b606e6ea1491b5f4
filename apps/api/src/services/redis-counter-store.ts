import Redis from "ioredis";

import { jsonLog } from "./json-logger";

// INCR, and start the window on the first hit (or if a key ever lost its expiry), atomically in Redis: a crash
// between two commands can never leave a counter that never resets.
const INCREMENT_IN_WINDOW = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type RedisWithWindow = Redis & { incrementInWindow(key: string, windowSeconds: number): Promise<[number, number]> };

/** Rate-limit counters shared by every API process and replica: one script call per counter. */
export class RedisCounterStore {
  private readonly redis: RedisWithWindow;

  constructor(url: string, keyPrefix: string) {
    // The offline queue stays on: without it every command sent before the connection is up (the first requests
    // after start-up) fails. maxRetriesPerRequest still fails a command fast when Redis is down. Auto-pipelining
    // sends the commands of concurrent requests in one write.
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableAutoPipelining: true, keyPrefix });
    redis.defineCommand("incrementInWindow", { numberOfKeys: 1, lua: INCREMENT_IN_WINDOW });
    this.redis = redis as RedisWithWindow;
    // Connection errors as structured log lines (ioredis would print them raw); commands fail on their own.
    this.redis.on("error", (error: Error) => jsonLog("warn", "redis error", { component: "rate-limit", error: error.message }));
  }

  async increment(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }> {
    const [count, ttl] = await this.redis.incrementInWindow(`ratelimit:${key}`, windowSeconds);
    return { count, resetInSeconds: Math.max(1, ttl) };
  }

  async close(): Promise<void> {
    // QUIT lets pending replies arrive; disconnect() also stops the reconnect loop when Redis was never reachable.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}
