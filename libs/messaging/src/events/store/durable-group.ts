import { Logger } from '@nestjs/common';
import { subjectFilter } from '@hub/contracts';
import { type DeadLetterInput, errorText } from '../dead-letter';
import { DEFAULT_MAX_DELIVER, type DurableConsumerOptions, redeliveryDelayMs } from '../event-bus';
import { parseEventPayload } from '../payload-validation';
import { type BusStore, type ConsumerRef, type StoredEvent } from './bus-store';

const BATCH = 16;

type Outcome = 'ack' | 'later';

/**
 * One durable consumer of the in-process bus: every `consume` with the same stream and durable
 * name shares it (round robin), like replicas on one JetStream consumer. Messages are handed
 * over in order, `concurrency` at a time (default 1: one after the other), and the ones handled
 * are acknowledged together by one statement; a failed one waits with backoff while later ones flow.
 */
export class DurableGroup {
  private readonly logger = new Logger('EventBus');
  readonly ref: ConsumerRef;
  readonly filter: string;
  private readonly subscribers: DurableConsumerOptions<unknown>[] = [];
  private next = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: BusStore,
    first: DurableConsumerOptions<unknown>,
    private readonly deadLetter: (input: DeadLetterInput) => Promise<void>,
  ) {
    this.ref = { stream: first.stream, durable: first.durable };
    this.filter = subjectFilter(first.source);
  }

  async start(): Promise<void> {
    await this.store.ensureConsumer(this.ref, this.filter);
    await this.store.releaseInFlight(this.ref);
  }

  add(options: DurableConsumerOptions<unknown>): void {
    this.subscribers.push(options);
    this.kick();
  }

  /** Removes one subscriber; true when none is left. */
  remove(options: DurableConsumerOptions<unknown>): boolean {
    const i = this.subscribers.indexOf(options);
    if (i >= 0) this.subscribers.splice(i, 1);
    return this.subscribers.length === 0;
  }

  kick(): void {
    if (this.stopped || this.subscribers.length === 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain()
      .catch((err: unknown) => {
        this.logger.warn({ err, durable: this.ref.durable }, 'consumer pass failed, retrying');
        this.schedule(1000);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(ms, 5), 30_000));
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.store.fetchNew(this.ref, this.filter)) > 0) {
      // keep reading until the cursor reaches the end of the stream
    }
    for (;;) {
      const first = this.subscribers[0];
      if (this.stopped || !first) return;
      const slice = Math.max(1, first.concurrency ?? 1);
      const batch = await this.store.claimDue(this.ref, first.ackWaitMs ?? 30_000, Math.max(BATCH, slice));
      if (batch.length === 0) break;
      for (let i = 0; i < batch.length; i += slice) {
        if (this.stopped) return;
        await this.deliverSlice(batch.slice(i, i + slice));
      }
    }
    const due = await this.store.nextDueInMs(this.ref);
    if (due !== null) this.schedule(due);
  }

  /** Hands the messages over at once and acks those that are done; the first error then fails the pass. */
  private async deliverSlice(slice: StoredEvent[]): Promise<void> {
    const outcomes = await Promise.allSettled(slice.map((m) => this.deliver(m)));
    const done = slice.filter((_, i) => {
      const o = outcomes[i];
      return o?.status === 'fulfilled' && o.value === 'ack';
    });
    if (done.length > 0) await this.store.ack(this.ref, done.map((m) => m.seq));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Validates and handles one message: 'ack' when it is done with (handled or dead-lettered), 'later' when it comes back. */
  private async deliver(m: StoredEvent): Promise<Outcome> {
    const sub = this.subscribers[this.next++ % this.subscribers.length];
    if (!sub) return 'later';
    const meta = { subject: m.subject, deliveryCount: m.deliveries, msgId: m.msgId };
    const letter = { subject: m.subject, msgId: m.msgId, consumer: this.ref.durable, deliveryCount: m.deliveries };
    const parsed = parseEventPayload(sub.source.payload, m.payload);
    if (!parsed.ok) {
      await this.deadLetter({ ...letter, reason: 'invalid', error: parsed.error, payload: parsed.payload });
      return 'ack';
    }
    try {
      await sub.handler(parsed.value, meta);
    } catch (err) {
      if (m.deliveries >= (sub.maxDeliver ?? DEFAULT_MAX_DELIVER)) {
        await this.deadLetter({ ...letter, reason: 'failed', error: errorText(err), payload: JSON.parse(m.payload) as unknown });
        return 'ack';
      }
      this.logger.warn({ err, subject: m.subject }, `handler failed, redelivering ${m.subject}`);
      await this.store.retryLater(this.ref, m.seq, redeliveryDelayMs(m.deliveries));
      return 'later';
    }
    return 'ack';
  }
}
