interface Entry<V> {
  value: Promise<V>;
  /** Served until then: the load's start plus ttlMs, so a value is never older than ttlMs. */
  until: number;
  /** A hit from then on starts the next load in the background. */
  refreshAt: number;
  /** That background load, while it runs; an expired entry hands it to the next caller instead of loading again. */
  next?: { value: Promise<V>; startedAt: number };
}

/** Share of ttlMs after which a hit refreshes the entry ahead of its expiry. */
const REFRESH_AHEAD = 0.75;

/**
 * A small time-bounded cache for hot reads. Concurrent misses of one key share a single load, so a burst of requests
 * costs one database round trip. Entries live `ttlMs` from the start of their load. A key read in the last quarter of
 * its life is loaded again in the background while the current value is still served: a steadily read key is never
 * waited for, and its value stays as fresh as before (the new one replaces it only once loaded). A request that finds
 * the entry expired while that load runs waits for it rather than starting another (one load per key at a time).
 * The cache holds at most `maxEntries` keys: when full, it drops the expired ones, and only if none has expired
 * everything (a key read once is never read from memory again, so pages walked by a crawler cannot pile up).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) {
      if (now >= hit.refreshAt && !hit.next) this.refresh(key, hit, load, now);
      return hit.value;
    }
    if (hit?.next) return this.install(key, hit.next.value, hit.next.startedAt).value;
    if (this.entries.size >= this.maxEntries) this.evict(now);
    return this.install(key, load(), now).value;
  }

  private install(key: K, value: Promise<V>, startedAt: number): Entry<V> {
    const entry: Entry<V> = { value, until: startedAt + this.ttlMs, refreshAt: startedAt + this.ttlMs * REFRESH_AHEAD };
    this.entries.set(key, entry);
    // A failed load is not remembered (unless a newer entry has replaced this one already).
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry;
  }

  /** Loads the key again behind `hit`; the result replaces `hit` only if nothing emptied or replaced it meanwhile. */
  private refresh(key: K, hit: Entry<V>, load: () => Promise<V>, now: number): void {
    const next = { value: load(), startedAt: now };
    hit.next = next;
    next.value.then(
      () => {
        if (this.entries.get(key) === hit) this.install(key, next.value, next.startedAt);
      },
      // A failed refresh leaves the current value until it expires; the next miss loads again.
      () => {
        if (hit.next === next) hit.next = undefined;
      },
    );
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
