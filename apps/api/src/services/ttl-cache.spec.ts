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
});
