import { type EventHandler } from './consume-options';

/** Remembers which event ids were handled (a database table, a file, Redis …). */
export interface IdempotencyStore {
  has(eventId: string): boolean | Promise<boolean>;
  add(eventId: string): void | Promise<void>;
}

/** Ids in memory, the oldest forgotten past `max`: enough within one process's lifetime. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly ids = new Set<string>();

  constructor(private readonly max = 100_000) {}

  has(eventId: string): boolean {
    return this.ids.has(eventId);
  }

  add(eventId: string): void {
    this.ids.add(eventId);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

/**
 * Wraps a handler so an event it already handled (same event id: a redelivery, a republish
 * after a crash, a replay) is acknowledged without running it again. The id is recorded after
 * the handler succeeded: a crash in between runs it once more, so keep the handler's own effect
 * idempotent too or record the id in the same transaction as the effect.
 */
export function idempotent<T>(store: IdempotencyStore, handler: EventHandler<T>): EventHandler<T> {
  return async (payload, meta) => {
    if (await store.has(meta.eventId)) return;
    await handler(payload, meta);
    await store.add(meta.eventId);
  };
}
