import { Injectable } from '@nestjs/common';
import { ApplyThreadEventUseCase } from './apply-thread-event.use-case';
import { type ThreadEvent } from './thread-event';

/** Events applied in one transaction at most (a fan-out of 100 writes 100 rows per event). */
export const MAX_EVENTS_PER_COMMIT = 32;

interface Pending {
  event: ThreadEvent;
  resolve: (notified: number) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for ingest: events handed over while a transaction runs wait and are applied
 * together, in arrival order, in the next one (one commit, one fsync, for the lot). Each
 * caller's promise settles only once its event is committed, so the bus acks nothing that is
 * not stored. If a batch fails, its events are applied one by one, each in its own transaction:
 * one bad event fails alone and comes back from the bus; the others are not held up.
 */
@Injectable()
export class ThreadEventBatcher {
  private queue: Pending[] = [];
  private draining = false;

  constructor(private readonly apply: ApplyThreadEventUseCase) {}

  submit(event: ThreadEvent): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.flush(this.queue.splice(0, MAX_EVENTS_PER_COMMIT));
    } finally {
      this.draining = false;
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Pending];
      await this.apply.apply(only.event).then(only.resolve, only.reject);
      return;
    }
    let notified: number[];
    try {
      notified = await this.apply.applyAll(batch.map((p) => p.event));
    } catch {
      for (const p of batch) await this.apply.apply(p.event).then(p.resolve, p.reject);
      return;
    }
    batch.forEach((p, i) => p.resolve(notified[i] ?? 0));
  }
}
