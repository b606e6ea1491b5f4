import Redis from "ioredis";

import { jsonLog } from "./json-logger";

/** Rate-limit counters shared by every API replica: INCR plus a first-hit EXPIRE, in one round trip. */
export class RedisCounterStore {
  private readonly redis: Redis;

  constructor(url: string) {
    // The offline queue stays on: without it every command sent before the connection is up (the first requests
    // after start-up) fails. maxRetriesPerRequest still fails a command fast when Redis is down.
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 });
    // Connection errors as structured log lines (ioredis would print them raw); commands fail on their own.
    this.redis.on("error", (error: Error) => jsonLog("warn", "redis error", { component: "rate-limit", error: error.message }));
  }

  async increment(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }> {
    const prefixed = `raffle:ratelimit:${key}`;
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .incr(prefixed)
      .ttl(prefixed)
      .exec()) as [[null, number], [null, number]];
    if (ttl < 0) await this.redis.expire(prefixed, windowSeconds);
    return { count, resetInSeconds: ttl > 0 ? ttl : windowSeconds };
  }

  async close(): Promise<void> {
    // QUIT lets pending replies arrive; disconnect() also stops the reconnect loop when Redis was never reachable.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}
