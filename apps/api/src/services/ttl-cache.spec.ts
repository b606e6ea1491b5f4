import { TtlCache } from "./ttl-cache";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("TtlCache", () => {
  it("shares one load between concurrent misses and loads again once the entry has expired", async () => {
    const cache = new TtlCache<string, number>(30);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await sleep(5);
      return loads;
    };
    expect(await Promise.all([cache.get("a", load), cache.get("a", load)])).toEqual([1, 1]);
    expect(await cache.get("a", load)).toBe(1);
    await sleep(40);
    expect(await cache.get("a", load)).toBe(2);
  });

  it("when full, drops the expired entries and keeps the live ones", async () => {
    const cache = new TtlCache<string, string>(40, 3);
    await cache.get("old1", async () => "old1");
    await cache.get("old2", async () => "old2");
    await sleep(50);
    await cache.get("live", async () => "live");
    // Full (three keys): the two expired ones go, the live one stays.
    await cache.get("new", async () => "new");
    expect(await cache.get("live", async () => "reloaded")).toBe("live");
    expect(await cache.get("old1", async () => "reloaded")).toBe("reloaded");
  });

  it("when full of live entries, empties itself rather than grow", async () => {
    const cache = new TtlCache<string, string>(60_000, 2);
    await cache.get("a", async () => "a");
    await cache.get("b", async () => "b");
    await cache.get("c", async () => "c");
    expect(await cache.get("a", async () => "reloaded")).toBe("reloaded");
  });

  it("does not remember a failed load", async () => {
    const cache = new TtlCache<string, string>(60_000);
    await expect(cache.get("a", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("a", async () => "up")).toBe("up");
  });

  it("refreshes a key read late in its life in the background, serving the current value meanwhile", async () => {
    const cache = new TtlCache<string, number>(400);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await sleep(20);
      return loads;
    };
    expect(await cache.get("a", load)).toBe(1);
    await sleep(300);
    // Past three quarters of its life: answered with the current value (not the refresh's), one refresh for all.
    expect(await Promise.all([cache.get("a", load), cache.get("a", load)])).toEqual([1, 1]);
    expect(loads).toBe(2);
    await sleep(40);
    expect(await cache.get("a", load)).toBe(2);
    expect(loads).toBe(2);
  });

  it("hands a refresh still running at expiry to the callers instead of loading again", async () => {
    const cache = new TtlCache<string, number>(200);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await sleep(loads === 1 ? 0 : 150);
      return loads;
    };
    expect(await cache.get("a", load)).toBe(1);
    await sleep(170);
    expect(await cache.get("a", load)).toBe(1);
    await sleep(50);
    // Expired, its refresh still loading: waited for, not repeated.
    expect(await Promise.all([cache.get("a", load), cache.get("a", load)])).toEqual([2, 2]);
    expect(loads).toBe(2);
  });

  it("does not let a refresh started before clear() bring back what was cleared", async () => {
    const cache = new TtlCache<string, string>(200);
    let value = "old";
    const load = async () => {
      const seen = value;
      await sleep(20);
      return seen;
    };
    expect(await cache.get("a", load)).toBe("old");
    await sleep(140);
    expect(await cache.get("a", load)).toBe("old");
    // A write lands and empties the cache while the refresh (which read the old state) runs.
    value = "new";
    cache.clear();
    expect(await cache.get("a", load)).toBe("new");
    await sleep(30);
    expect(await cache.get("a", load)).toBe("new");
  });

  it("keeps the current value when a refresh fails", async () => {
    const cache = new TtlCache<string, string>(200);
    expect(await cache.get("a", async () => "kept")).toBe("kept");
    await sleep(160);
    expect(await cache.get("a", async () => Promise.reject(new Error("down")))).toBe("kept");
    await sleep(5);
    expect(await cache.get("a", async () => "later")).toBe("kept");
  });
});
