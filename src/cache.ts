// A small time-bounded cache for facts read on every request (API keys, verified domains, the MTA-STS
// requirement of a recipient domain). Bounded staleness across processes is the price: a change made by
// another process is seen within `ttlMs` (or the entry's own time, set()); changes made in this process
// invalidate their entries at once. Full, it starts over empty.
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>, now = Date.now()): Promise<V> {
    const hit = this.fresh(key, now);
    if (hit) return hit.value;
    const value = await load();
    this.set(key, value, now + this.ttlMs);
    return value;
  }

  /** What is kept for `key` while it is fresh at `now` (wrapped: a kept value may be undefined). */
  fresh(key: string, now: number): { value: V } | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > now ? hit : undefined;
  }

  /** Keeps `value` for `key` until `expires` (the time the caller's clock tells), whatever `ttlMs` says. */
  set(key: string, value: V, expires: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
