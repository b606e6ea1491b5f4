import { randomInt } from "node:crypto";
import Redis from "ioredis";
import { Wallet } from "ethers";

import { isRetryable } from "@raffle/config";

import { infrastructureProblem } from "../src/common/infrastructure-problems";
import { DependencyUnavailableError } from "../src/services/errors";
import { RateLimiter } from "../src/services/rate-limiter";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const LIMITS = { windowSeconds: 30, signPerKey: 3, signPerAccount: 2, redisUrl: REDIS_URL, redisKeyPrefix: "raffle-test:" };

/** With REDIS_URL, every API replica counts in the same Redis: two limiters here stand for two replicas. */
describe("RateLimiter on Redis", () => {
  const limiters: RateLimiter[] = [];
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });

  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
    await redis.quit();
  });

  function replica(): RateLimiter {
    const limiter = RateLimiter.create(LIMITS);
    limiters.push(limiter);
    return limiter;
  }

  // A key id and accounts no other run uses, so reruns and parallel runs never share counters.
  const uniqueKeyId = () => randomInt(1_000_000_000, 2 ** 47);
  // One merchant for the run, unless a test says otherwise.
  const merchantId = uniqueKeyId();
  const requester = (apiKeyId = uniqueKeyId(), merchant = merchantId) => ({ apiKeyId, merchantId: merchant });

  it("answers the very first request, sent while the connection is still opening", async () => {
    await expect(replica().countSign(requester(), Wallet.createRandom().address)).resolves.toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it("shares the per-account count between replicas, and the refusal carries the window's remaining seconds", async () => {
    const [first, second] = [replica(), replica()];
    const account = Wallet.createRandom().address;
    expect((await first.countSign(requester(), account)).allowed).toBe(true);
    expect((await second.countSign(requester(), account.toLowerCase())).allowed).toBe(true);
    const refused = await first.countSign(requester(), account);
    expect(refused).toMatchObject({ allowed: false, scope: "account" });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(LIMITS.windowSeconds);
  });

  it("shares each per-IP budget between replicas, apart from the others of the same IP", async () => {
    const [first, second] = [replica(), replica()];
    const ip = `198.51.100.${randomInt(1, 255)}:${uniqueKeyId()}`;
    expect((await first.countClient("reads", ip, 2)).allowed).toBe(true);
    expect((await second.countClient("reads", ip, 2)).allowed).toBe(true);
    expect((await first.countClient("reads", ip, 2)).allowed).toBe(false);
    expect((await second.countClient("console", ip, 1)).allowed).toBe(true);
    expect((await first.countClient("console", ip, 1)).allowed).toBe(false);
    expect((await first.countPlayer(ip, null, { perIp: 1, perAddress: 0 })).allowed).toBe(true);
  });

  it("shares the per-key count between replicas", async () => {
    const [first, second] = [replica(), replica()];
    const keyId = uniqueKeyId();
    for (const limiter of [first, second, first])
      expect((await limiter.countSign(requester(keyId), Wallet.createRandom().address)).allowed).toBe(true);
    expect(await second.countSign(requester(keyId), Wallet.createRandom().address)).toMatchObject({ allowed: false, scope: "key" });
  });

  it("keeps each merchant's count of an account apart, and adds no refused request to it", async () => {
    const limiter = replica();
    const account = Wallet.createRandom().address;
    const otherMerchant = requester(uniqueKeyId(), uniqueKeyId());
    // Another merchant's key spends its own allowance (3) on the account, then is refused twice.
    for (let i = 0; i < 5; i += 1) await limiter.countSign(otherMerchant, account);
    expect((await limiter.countSign(requester(), account)).allowed).toBe(true);
    expect((await limiter.countSign(requester(), account)).allowed).toBe(true);
    expect(await limiter.countSign(requester(), account)).toMatchObject({ allowed: false, scope: "account" });
    // The other merchant's account counter stopped at its limit (2): the refusals were not counted.
    expect(await redis.get(`${LIMITS.redisKeyPrefix}ratelimit:sign:account:${otherMerchant.merchantId}:${account.toLowerCase()}`)).toBe("2");
  });

  it("counts the key and the account in one script call, and lets both counters expire with the window", async () => {
    const keyId = uniqueKeyId();
    const account = Wallet.createRandom().address;
    const limiter = replica();
    await limiter.countSign(requester(), Wallet.createRandom().address); // loads the script on this connection
    // The commands this process sends (the server's own command stats count every client: other suites use Redis too).
    const sendCommand = jest.spyOn(Redis.prototype, "sendCommand");
    try {
      await limiter.countSign(requester(keyId), account);
      expect(sendCommand.mock.calls.map(([command]) => (command as unknown as { name: string }).name)).toEqual(["evalsha"]);
    } finally {
      sendCommand.mockRestore();
    }
    for (const key of [
      `${LIMITS.redisKeyPrefix}ratelimit:sign:key:${keyId}`,
      `${LIMITS.redisKeyPrefix}ratelimit:sign:account:${merchantId}:${account.toLowerCase()}`,
    ]) {
      expect(await redis.get(key)).toBe("1");
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(LIMITS.windowSeconds);
    }
  });

  it("counts the requests of one event-loop pass in one script call, deciding each in order as one call each would", async () => {
    const keyId = uniqueKeyId();
    const account = Wallet.createRandom().address;
    const limiter = replica();
    await limiter.countSign(requester(), Wallet.createRandom().address); // loads the script on this connection
    const sendCommand = jest.spyOn(Redis.prototype, "sendCommand");
    try {
      // Five requests of one key (limit 3): the first two also count for the account (limit 2), the third is
      // refused for the account, the last two for the key; a player's request, with its own limits, rides along.
      const decisions = await Promise.all([
        ...Array.from({ length: 5 }, () => limiter.countSign(requester(keyId), account)),
        limiter.countPlayer("192.0.2.7", null, { perIp: 1, perAddress: 1 }),
      ]);
      expect(sendCommand.mock.calls.map(([command]) => (command as unknown as { name: string }).name)).toEqual(["evalsha"]);
      expect(decisions.map((decision) => (decision.allowed ? "allowed" : decision.scope))).toEqual([
        "allowed",
        "allowed",
        "account",
        "key",
        "key",
        expect.any(String),
      ]);
    } finally {
      sendCommand.mockRestore();
    }
    expect(await redis.get(`${LIMITS.redisKeyPrefix}ratelimit:sign:key:${keyId}`)).toBe("5");
    expect(await redis.get(`${LIMITS.redisKeyPrefix}ratelimit:sign:account:${merchantId}:${account.toLowerCase()}`)).toBe("2");
  });

  it("fails fast with 503 serviceUnavailable, not a 500, when Redis is unreachable", async () => {
    const unreachable = RateLimiter.create({ ...LIMITS, redisUrl: "redis://127.0.0.1:1" });
    const started = Date.now();
    const error = await unreachable.countSign(requester(), Wallet.createRandom().address).catch((caught: unknown) => caught);
    // The service says what failed (a retryable outage of the rate limiter); the edge answers it as a 503 problem.
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    expect(isRetryable(error)).toBe(true);
    expect(infrastructureProblem(error)).toMatchObject({ statusCode: 503, code: "serviceUnavailable", headers: { "Retry-After": "1" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    await unreachable.close();
    // ioredis destroys a never-connected socket on a 2 s timer of its own; let it run so Jest exits cleanly.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
  });
});
