/**
 * A small time-bounded cache for hot reads. Concurrent misses of one key share a single load, so a burst of requests
 * costs one database round trip. Entries live `ttlMs`; the cache holds at most `maxEntries` keys: when full, it drops
 * the expired ones, and only if none has expired everything (a key read once is never read from memory again, so
 * pages walked by a crawler cannot pile up).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= this.maxEntries) this.evict(now);
    const value = load();
    this.entries.set(key, { value, until: now + this.ttlMs });
    // A failed load is not remembered.
    value.catch(() => this.entries.delete(key));
    return value;
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
