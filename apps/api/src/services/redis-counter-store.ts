import Redis from "ioredis";
import { urlOrigin } from "@raffle/config";

import { jsonLog } from "./json-logger";

// For each key: INCR, and start the window on the first hit (or if a key ever lost its expiry), atomically in Redis:
// a crash between two commands can never leave a counter that never resets. All of a request's counters go in one
// call, so a signature costs one script run and one reply to parse. (One Redis, not Redis Cluster: the keys of one
// call may live in different slots.)
const INCREMENT_IN_WINDOW = `
local result = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  local ttl = redis.call('TTL', key)
  if ttl < 0 then
    redis.call('EXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  result[2 * i - 1] = count
  result[2 * i] = ttl
end
return result`;

type RedisWithWindow = Redis & {
  incrementInWindow(numberOfKeys: number, ...keysThenWindow: Array<string | number>): Promise<number[]>;
};

/** Rate-limit counters shared by every API process and replica: one script call per request. */
export class RedisCounterStore {
  private readonly redis: RedisWithWindow;

  constructor(url: string, keyPrefix: string) {
    // The offline queue stays on: without it every command sent before the connection is up (the first requests
    // after start-up) fails. maxRetriesPerRequest still fails a command fast when Redis is down. Auto-pipelining
    // sends the commands of concurrent requests in one write.
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableAutoPipelining: true, keyPrefix });
    // No fixed numberOfKeys: each call passes its key count first.
    redis.defineCommand("incrementInWindow", { lua: INCREMENT_IN_WINDOW });
    this.redis = redis as RedisWithWindow;
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

  async increment(keys: string[], windowSeconds: number): Promise<Array<{ count: number; resetInSeconds: number }>> {
    const reply = await this.redis.incrementInWindow(keys.length, ...keys.map((key) => `ratelimit:${key}`), windowSeconds);
    return keys.map((_, index) => ({ count: reply[2 * index], resetInSeconds: Math.max(1, reply[2 * index + 1]) }));
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    // QUIT lets pending replies arrive; disconnect() also stops the reconnect loop when Redis was never reachable.
    if (this.redis.status === "ready") await this.redis.quit().catch(() => undefined);
    this.redis.disconnect();
  }
}
