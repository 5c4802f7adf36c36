import { Logger } from '@nestjs/common';
import { type PayloadClass, subjectFilter } from '@hub/contracts';
import { type DeadLetterInput, errorText } from '../dead-letter';
import { DEFAULT_MAX_DELIVER, type DurableConsumerOptions, redeliveryDelayMs } from '../event-bus';
import { parseEventPayload, type Validated } from '../payload-validation';
import { AckQueue } from './ack-queue';
import { type BusStore, type ConsumerRef, FETCH_LIMIT, type StoredEvent } from './bus-store';

const BATCH = 16;

type Outcome = 'ack' | 'later';

/**
 * One durable consumer of the in-process bus: every `consume` with the same stream and durable
 * name shares it (round robin), like replicas on one JetStream consumer. Up to `concurrency`
 * messages are in the handlers at once (default 1: one after the other, in order), started in
 * order as slots free up, as JetStream's consumer does; acks are written in groups. A failed one
 * waits with backoff while later ones flow.
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
  /** Claimed, not handed over yet (claiming is in batches; handing over as slots free up). */
  private queue: StoredEvent[] = [];
  private readonly handling = new Set<Promise<void>>();
  private readonly acks: AckQueue;
  /** The last pass stopped with every slot busy, before claiming all that was due. */
  private full = false;
  /**
   * Set when messages may be pending that no timer covers: at start (what a stopped process
   * held), after a retry, a failure or a timer; the pass that finds it asks when the next is due.
   */
  private unsettled = true;
  /** When a statement last read past the cursor. */
  private fetchedAt = 0;

  constructor(
    private readonly store: BusStore,
    first: DurableConsumerOptions<unknown>,
    private readonly deadLetter: (input: DeadLetterInput) => Promise<void>,
    /** The traceparent its publisher sent, if this process still remembers it (decision 0504). */
    private readonly traceOf: (msgId: string | undefined) => string | undefined = () => undefined,
    /** Parses and validates a message for a handler (the bus skips what its publisher here validated, decision 0512). */
    private readonly parse: (
      cls: PayloadClass<unknown>,
      text: string,
      msgId: string | undefined,
    ) => Validated<unknown> = (cls, text) => parseEventPayload(cls, text),
  ) {
    this.ref = { stream: first.stream, durable: first.durable };
    this.filter = subjectFilter(first.source);
    this.acks = new AckQueue(store, this.ref, (err) => this.failed(err));
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
    // The timer stays: it is for a message that is not due yet, which this pass will not claim.
    this.running = this.drain()
      .catch((err: unknown) => this.failed(err))
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
    await Promise.all([...this.handling]);
    await this.acks.flushed();
  }

  private failed(err: unknown): void {
    this.logger.warn({ err, durable: this.ref.durable }, 'consumer pass failed, retrying');
    this.unsettled = true;
    this.schedule(1000);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        // Whatever comes due then, the pass looks again for the next one after it.
        this.unsettled = true;
        this.kick();
      },
      Math.min(Math.max(ms, 5), 30_000),
    );
    this.timer.unref();
  }

  private get concurrency(): number {
    return Math.max(1, this.subscribers[0]?.concurrency ?? 1);
  }

  private async drain(): Promise<void> {
    this.full = false;
    for (;;) {
      const first = this.subscribers[0];
      if (this.stopped || !first) return;
      this.handOver();
      // Every slot busy: a handler that finishes hands over the next, or runs a pass for more.
      // What is new meanwhile goes to pending at most once a second (lag and processedThrough
      // count what is past the cursor; pending keeps it from the retention's prune).
      if (this.queue.length > 0 || this.handling.size >= this.concurrency) {
        this.full = true;
        if (Date.now() - this.fetchedAt >= 1000) await this.fetchAll();
        return;
      }
      // One statement claims what is due and what is new (a pass per new event costs one round trip).
      const limit = Math.max(BATCH, this.concurrency);
      this.fetchedAt = Date.now();
      const { claimed, read } = await this.store.fetchAndClaim(this.ref, this.filter, first.ackWaitMs ?? 30_000, limit);
      this.queue.push(...claimed);
      // Less than it could claim, and the end of the stream reached: nothing else is due now.
      if (claimed.length < limit && read < FETCH_LIMIT) break;
    }
    this.handOver();
    if (this.unsettled && this.handling.size === 0 && this.queue.length === 0) {
      this.unsettled = false;
      const due = await this.store.nextDueInMs(this.ref);
      if (due !== null) this.schedule(due);
    }
  }

  /** Moves every event past the cursor that matches into pending (a fetch that read less than its limit reached the end). */
  private async fetchAll(): Promise<void> {
    this.fetchedAt = Date.now();
    while (!this.stopped && (await this.store.fetchNew(this.ref, this.filter)) >= FETCH_LIMIT) {
      // keep reading until the cursor reaches the end of the stream
    }
  }

  /** Starts claimed messages, in order, while slots are free. */
  private handOver(): void {
    while (!this.stopped && this.queue.length > 0 && this.handling.size < this.concurrency) {
      const m = this.queue.shift() as StoredEvent;
      const run: Promise<void> = this.deliver(m)
        .then(
          (outcome) => {
            if (outcome === 'ack') this.acks.add(m.seq);
            else this.unsettled = true;
          },
          (err: unknown) => this.failed(err),
        )
        .finally(() => {
          this.handling.delete(run);
          // The next claimed one; with none left, a pass if one stopped short for want of a slot
          // (more may be due), or to ask when a message left for later comes back.
          if (this.queue.length > 0) this.handOver();
          else if (this.full || (this.unsettled && this.handling.size === 0)) this.kick();
        });
      this.handling.add(run);
    }
  }

  /** Validates and handles one message: 'ack' when it is done with (handled or dead-lettered), 'later' when it comes back. */
  private async deliver(m: StoredEvent): Promise<Outcome> {
    const sub = this.subscribers[this.next++ % this.subscribers.length];
    if (!sub) return 'later';
    const meta = {
      subject: m.subject,
      deliveryCount: m.deliveries,
      msgId: m.msgId,
      seq: Number(m.seq),
      traceparent: this.traceOf(m.msgId),
    };
    const letter = { subject: m.subject, msgId: m.msgId, consumer: this.ref.durable, deliveryCount: m.deliveries };
    const parsed = this.parse(sub.source.payload, m.payload, m.msgId);
    if (!parsed.ok) {
      await this.deadLetter({ ...letter, reason: 'invalid', error: parsed.error, payload: parsed.payload });
      return 'ack';
    }
    try {
      await sub.handler(parsed.value, meta);
    } catch (err) {
      if (m.deliveries >= (sub.maxDeliver ?? DEFAULT_MAX_DELIVER)) {
        await this.deadLetter({
          ...letter,
          reason: 'failed',
          error: errorText(err),
          payload: JSON.parse(m.payload) as unknown,
        });
        return 'ack';
      }
      this.logger.warn({ err, subject: m.subject }, `handler failed, redelivering ${m.subject}`);
      await this.store.retryLater(this.ref, m.seq, redeliveryDelayMs(m.deliveries));
      return 'later';
    }
    return 'ack';
  }
}
