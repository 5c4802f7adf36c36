export type DeliveryIdState = 'new' | 'in-flight' | 'done';

export const DEFAULT_SEEN_IDS_CAPACITY = 10_000;

/**
 * Remembers the `webhook-id`s of deliveries already handled, so a replayed (or retried after a
 * lost response) delivery is answered 200 without running the handler twice.
 *
 * An id is remembered only once its handler succeeded: the hub retries a failed delivery with
 * the same id, and that retry must run the handler again. Memory is bounded twice over: entries
 * expire after the signature tolerance (an older replay fails the timestamp check anyway) and
 * the oldest entries are evicted beyond `capacity`.
 *
 * Eviction order is kept in a ring buffer beside the Map: iterating a Map from its start after
 * many deletions walks the deleted slots too, which made every delivery pay for old ones.
 */
export class SeenDeliveryIdsCache {
  /** id → expiry (ms) */
  private readonly done = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  private readonly ringIds: string[];
  private readonly ringExpiries: number[];
  private head = 0;
  private count = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly capacity: number = DEFAULT_SEEN_IDS_CAPACITY,
    private readonly now: () => number = Date.now,
  ) {
    if (!(capacity >= 1)) throw new RangeError('The seen-ids capacity must be at least 1.');
    this.ringIds = new Array<string>(capacity);
    this.ringExpiries = new Array<number>(capacity).fill(0);
  }

  /** Marks the id in flight when it is new; the caller must then `complete` or `abandon` it. */
  begin(id: string): DeliveryIdState {
    if (this.inFlight.has(id)) return 'in-flight';
    const expiry = this.done.get(id);
    if (expiry !== undefined) {
      if (expiry > this.now()) return 'done';
      this.done.delete(id);
    }
    this.inFlight.add(id);
    return 'new';
  }

  complete(id: string): void {
    this.inFlight.delete(id);
    const now = this.now();
    while (this.count > 0 && (this.count === this.capacity || this.ringExpiries[this.head] <= now)) this.dropOldest();
    const expiry = now + this.ttlMs;
    const slot = (this.head + this.count) % this.capacity;
    this.ringIds[slot] = id;
    this.ringExpiries[slot] = expiry;
    this.count += 1;
    this.done.set(id, expiry);
  }

  abandon(id: string): void {
    this.inFlight.delete(id);
  }

  get size(): number {
    return this.done.size;
  }

  private dropOldest(): void {
    const id = this.ringIds[this.head];
    // The id may have expired and been completed again since: only drop this very entry.
    if (this.done.get(id) === this.ringExpiries[this.head]) this.done.delete(id);
    this.head = (this.head + 1) % this.capacity;
    this.count -= 1;
  }
}
