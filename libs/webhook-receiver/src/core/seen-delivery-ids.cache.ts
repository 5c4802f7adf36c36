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
 */
export class SeenDeliveryIdsCache {
  /** id → expiry (ms). A Map iterates in insertion order, which is also expiry order. */
  private readonly done = new Map<string, number>();
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity: number = DEFAULT_SEEN_IDS_CAPACITY,
    private readonly now: () => number = Date.now,
  ) {}

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
    this.evict();
    this.done.set(id, this.now() + this.ttlMs);
  }

  abandon(id: string): void {
    this.inFlight.delete(id);
  }

  get size(): number {
    return this.done.size;
  }

  private evict(): void {
    const now = this.now();
    for (const [id, expiry] of this.done) {
      if (expiry > now && this.done.size < this.capacity) break;
      this.done.delete(id);
    }
  }
}
