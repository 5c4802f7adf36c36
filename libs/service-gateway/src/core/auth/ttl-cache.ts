/**
 * A small map whose entries expire after a TTL, bounded in size (the oldest entry goes first:
 * Map order is insertion order). A TTL or size of 0 turns caching off.
 */
export class TtlCache<K, V> {
  protected readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private evictions = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxSize: number,
  ) {}

  get(key: K, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: K, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0 || this.maxSize <= 0) return;
    if (this.entries.size >= this.maxSize) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
    this.evictions++;
  }

  /**
   * Changes on every eviction. A caller that fetched a value while an eviction ran may hold a
   * stale one (read before the change that caused the eviction committed): it takes the
   * generation before fetching and stores with setUnlessEvicted.
   */
  get generation(): number {
    return this.evictions;
  }

  protected markEvicted(): void {
    this.evictions++;
  }

  /** set, unless anything was evicted since `generation` was read. */
  setUnlessEvicted(key: K, value: V, generation: number, now = Date.now()): void {
    if (generation === this.evictions) this.set(key, value, now);
  }

  get size(): number {
    return this.entries.size;
  }
}
