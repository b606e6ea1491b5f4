import Redis from "ioredis";

/** Rate-limit counters shared by every API replica: INCR plus a first-hit EXPIRE, in one round trip. */
export class RedisCounterStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false });
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
    await this.redis.quit().catch(() => undefined);
  }
}
