import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type DirectLease, DeliveryQueueStore, type MatchInput } from '../delivery/delivery-queue.store';
import { DeliveryWorker } from '../delivery/delivery-worker';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import { type Queued, queuedByEvent } from './queued';

interface Waiting {
  match: MatchInput;
  lane: string;
  done: (queued: Queued) => void;
  fail: (err: unknown) => void;
}

/** At most this many events per statement (the consumer has as many in flight). */
export const INTAKE_BATCH = 64;
/** At most this many intake statements at once, each of other lanes (decision 0508). */
export const INTAKE_WRITERS = 3;

/**
 * Group commit of the intake (decision 0501): the events the consumer handles at once are matched
 * and queued by one statement, written as soon as a writer is free; no timer, so an event alone
 * waits for nothing. One event per statement made the intake the slowest stage: on a busy machine
 * each event waited for the last one's round trip, and the backlog grew on the bus (bench:webhooks
 * at 500 deliveries/s: publish → queued p50 7.4 s, queued → received 61 ms).
 *
 * Lanes (decision 0508): an event's lane is its repo's namespace. A lane has at most one statement
 * at a time, and a statement takes the waiting events of every lane that has none running, so
 * one namespace's events are queued in order and batched as before, while another's never wait
 * behind them: a user whose event fans out to 100 webhooks (a statement of 100 rows, hundreds of
 * ms on a busy machine) held every other user's events behind it in the one writer.
 */
@Injectable()
export class IntakeBatch {
  private waiting: Waiting[] = [];
  /** Lanes with a statement running. */
  private readonly writing = new Set<string>();
  private writers = 0;
  private scheduled = false;

  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    /** Absent in tests of the intake alone: then every row waits for a claim. */
    @Optional() private readonly worker?: DeliveryWorker,
  ) {}

  /** Resolves with the deliveries queued for this event once its rows are committed. */
  add(match: MatchInput): Promise<Queued> {
    return new Promise((done, fail) => {
      this.waiting.push({ match, lane: match.ownerName.toLowerCase(), done, fail });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // The messages of one pull reach their handlers in the same turn: they join this statement.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Starts statements while a writer is free and events of an idle lane wait. */
  private flush(): void {
    while (this.writers < INTAKE_WRITERS) {
      const group: Waiting[] = [];
      const rest: Waiting[] = [];
      for (const w of this.waiting) (group.length < INTAKE_BATCH && !this.writing.has(w.lane) ? group : rest).push(w);
      if (group.length === 0) return;
      this.waiting = rest;
      const lanes = new Set(group.map((w) => w.lane));
      for (const lane of lanes) this.writing.add(lane);
      this.writers++;
      void this.write(group).finally(() => {
        this.writers--;
        for (const lane of lanes) this.writing.delete(lane);
        if (this.waiting.length > 0) this.schedule();
      });
    }
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      // Room in the worker, when it has taken every due row it could: the rows are leased as they
      // are written and sent at once, with no claim (decision 0510).
      const lease = this.worker?.reserveLease();
      let queued: Map<string, Queued>;
      try {
        queued = await this.enqueue(unique(group.map((w) => w.match)), lease);
      } finally {
        if (lease) this.worker?.releaseLease(lease);
      }
      if (lease) this.worker?.startLeased([...queued.values()].flatMap((q) => q.leased));
      for (const w of group) w.done(queued.get(w.match.eventId) ?? NONE);
    } catch (err) {
      if (group.length === 1) return group[0]?.fail(err);
      // One event the statement refuses must not fail its neighbours (they would come back from
      // the bus with it, and be dead-lettered with it): each alone, so only that one fails.
      for (const w of group) {
        try {
          w.done((await this.enqueue([w.match])).get(w.match.eventId) ?? NONE);
        } catch (e) {
          w.fail(e);
        }
      }
    }
  }

  /** One intake statement (`DeliveryQueueStore.enqueue`), its rows grouped per event. */
  private async enqueue(events: MatchInput[], lease?: DirectLease): Promise<Map<string, Queued>> {
    return queuedByEvent(events, await DeliveryQueueStore.enqueue(this.ds.manager, events, this.config, lease));
  }
}

const NONE: Queued = { count: 0, owners: [], leased: [] };

/** A redelivered event may meet its first copy in a batch: it is matched once. */
function unique(matches: MatchInput[]): MatchInput[] {
  return [...new Map(matches.map((m) => [m.eventId, m])).values()];
}
