import { TtlCache } from "./ttl-cache";

// The cache reads Date.now(): each test moves this clock itself and finishes each load when it chooses, so no timing
// of a loaded machine can change an outcome.
let clock = 0;
beforeEach(() => {
  clock = 0;
  jest.spyOn(Date, "now").mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

/** A load that ends when the test calls `finish`. */
function controlledLoads<V>() {
  const pending: Array<{ finish(value: V): void; fail(error: Error): void }> = [];
  const load = () =>
    new Promise<V>((resolve, reject) => {
      pending.push({ finish: resolve, fail: reject });
    });
  return { load, pending };
}

/** Lets the promise callbacks of a finished load run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("TtlCache", () => {
  it("shares one load between concurrent misses and loads again once the entry has expired", async () => {
    const cache = new TtlCache<string, number>(30);
    let loads = 0;
    const load = async () => (loads += 1);
    expect(await Promise.all([cache.get("a", load), cache.get("a", load)])).toEqual([1, 1]);
    clock = 10;
    expect(await cache.get("a", load)).toBe(1);
    clock = 40;
    expect(await cache.get("a", load)).toBe(2);
    expect(loads).toBe(2);
  });

  it("when full, drops the expired entries and keeps the live ones", async () => {
    const cache = new TtlCache<string, string>(40, 3);
    await cache.get("old1", async () => "old1");
    await cache.get("old2", async () => "old2");
    clock = 50;
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
    const { load, pending } = controlledLoads<number>();
    const first = cache.get("a", load);
    pending[0].finish(1);
    expect(await first).toBe(1);
    clock = 300;
    // Past three quarters of its life: answered with the current value (not the refresh's), one refresh for all.
    expect(await Promise.all([cache.get("a", load), cache.get("a", load)])).toEqual([1, 1]);
    expect(pending).toHaveLength(2);
    pending[1].finish(2);
    await settle();
    clock = 340;
    expect(await cache.get("a", load)).toBe(2);
    expect(pending).toHaveLength(2);
  });

  it("hands a refresh still running at expiry to the callers instead of loading again", async () => {
    const cache = new TtlCache<string, number>(200);
    const { load, pending } = controlledLoads<number>();
    const first = cache.get("a", load);
    pending[0].finish(1);
    expect(await first).toBe(1);
    clock = 170;
    expect(await cache.get("a", load)).toBe(1);
    clock = 220;
    // Expired, its refresh still loading: waited for, not repeated.
    const waiting = Promise.all([cache.get("a", load), cache.get("a", load)]);
    pending[1].finish(2);
    expect(await waiting).toEqual([2, 2]);
    expect(pending).toHaveLength(2);
  });

  it("does not let a refresh started before clear() bring back what was cleared", async () => {
    const cache = new TtlCache<string, string>(200);
    let state = "old";
    // Each load reads the state when it starts, as a query does, and answers when the test finishes it.
    const started: Array<() => void> = [];
    const load = () =>
      new Promise<string>((resolve) => {
        const seen = state;
        started.push(() => resolve(seen));
      });
    const first = cache.get("a", load);
    started[0]();
    expect(await first).toBe("old");
    clock = 160;
    expect(await cache.get("a", load)).toBe("old");
    expect(started).toHaveLength(2);
    // A write lands and empties the cache while the refresh (which read the old state) runs.
    state = "new";
    cache.clear();
    const fresh = cache.get("a", load);
    started[2]();
    expect(await fresh).toBe("new");
    started[1]();
    await settle();
    expect(await cache.get("a", load)).toBe("new");
  });

  it("keeps the current value when a refresh fails", async () => {
    const cache = new TtlCache<string, string>(200);
    expect(await cache.get("a", async () => "kept")).toBe("kept");
    clock = 160;
    expect(await cache.get("a", async () => Promise.reject(new Error("down")))).toBe("kept");
    await settle();
    clock = 165;
    expect(await cache.get("a", async () => "later")).toBe("kept");
  });
});
