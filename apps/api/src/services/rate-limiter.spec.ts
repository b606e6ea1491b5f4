import { RateLimiter } from "./rate-limiter";

const ALICE = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const BOB = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

/** The in-memory limiter (no REDIS_URL): fixed windows per API key and per account of a merchant. */
describe("RateLimiter in memory", () => {
  let now: number;
  const key = (apiKeyId: number, merchantId = 1) => ({ apiKeyId, merchantId });

  beforeEach(() => {
    now = Date.UTC(2030, 0, 1);
    jest.spyOn(Date, "now").mockImplementation(() => now);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it("refuses an account over its limit with the merchant, whatever the merchant's key, with the seconds left", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 60, signPerKey: 100, signPerAccount: 2, redisKeyPrefix: "unused:" });
    expect((await limiter.countSign(key(1), ALICE)).allowed).toBe(true);
    now += 15_500;
    expect((await limiter.countSign(key(2), ALICE.toLowerCase())).allowed).toBe(true);
    expect(await limiter.countSign(key(3), ALICE)).toEqual({ allowed: false, retryAfterSeconds: 45, scope: "account" });
    expect((await limiter.countSign(key(1), BOB)).allowed).toBe(true);
  });

  it("keeps each merchant's count of an account apart: one merchant cannot lock a player out of another", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 60, signPerKey: 100, signPerAccount: 2, redisKeyPrefix: "unused:" });
    for (let i = 0; i < 5; i += 1) await limiter.countSign(key(9, 9), ALICE);
    expect((await limiter.countSign(key(9, 9), ALICE)).allowed).toBe(false);
    expect((await limiter.countSign(key(1, 1), ALICE)).allowed).toBe(true);
    expect((await limiter.countSign(key(1, 1), ALICE)).allowed).toBe(true);
  });

  it("does not count refused requests against the account", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 60, signPerKey: 2, signPerAccount: 3, redisKeyPrefix: "unused:" });
    // Key 5 spends its own allowance on ALICE, then is refused: its refusals leave ALICE's count at 2.
    for (let i = 0; i < 4; i += 1) await limiter.countSign(key(5), ALICE);
    expect((await limiter.countSign(key(6), ALICE)).allowed).toBe(true);
    expect(await limiter.countSign(key(6), ALICE)).toMatchObject({ allowed: false, scope: "account" });
  });

  it("refuses a key over its limit whatever the account", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 10, signPerKey: 2, signPerAccount: 100, redisKeyPrefix: "unused:" });
    expect((await limiter.countSign(key(7), ALICE)).allowed).toBe(true);
    expect((await limiter.countSign(key(7), BOB)).allowed).toBe(true);
    expect(await limiter.countSign(key(7), BOB)).toEqual({ allowed: false, retryAfterSeconds: 10, scope: "key" });
    expect((await limiter.countSign(key(8), BOB)).allowed).toBe(true);
  });

  it("keeps each per-IP budget apart: players, the console's sign-in and the public reads of one address", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 60, signPerKey: 100, signPerAccount: 100, redisKeyPrefix: "unused:" });
    const ip = "203.0.113.7";
    for (let i = 0; i < 3; i += 1) expect((await limiter.countPlayer(ip, null, { perIp: 3, perAddress: 0 })).allowed).toBe(true);
    expect((await limiter.countPlayer(ip, null, { perIp: 3, perAddress: 0 })).allowed).toBe(false);
    for (let i = 0; i < 2; i += 1) expect((await limiter.countClient("console", ip, 2)).allowed).toBe(true);
    expect(await limiter.countClient("console", ip, 2)).toEqual({ allowed: false, retryAfterSeconds: 60, scope: "key" });
    expect((await limiter.countClient("reads", ip, 1)).allowed).toBe(true);
    expect((await limiter.countClient("reads", ip, 1)).allowed).toBe(false);
    expect((await limiter.countClient("reads", "203.0.113.8", 1)).allowed).toBe(true);
  });

  it("starts a new window once the old one is over", async () => {
    const limiter = RateLimiter.create({ windowSeconds: 10, signPerKey: 1, signPerAccount: 1, redisKeyPrefix: "unused:" });
    expect((await limiter.countSign(key(1), ALICE)).allowed).toBe(true);
    now += 9_999;
    expect((await limiter.countSign(key(1), ALICE)).allowed).toBe(false);
    now += 1;
    expect((await limiter.countSign(key(1), ALICE)).allowed).toBe(true);
    await limiter.close();
  });
});
