import {
  AckPolicy,
  DeliverPolicy,
  headers as natsHeaders,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  nanos,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { type EventDescriptor, type EventSource, ServiceUnavailableError, subjectFilter } from '@hub/contracts';
import { errorText } from './dead-letter';
import {
  type ConsumerLag,
  DEFAULT_MAX_DELIVER,
  EventBus,
  type DurableConsumerOptions,
  type PublishOptions,
  redeliveryDelayMs,
  type Unsubscribe,
} from './event-bus';
import { parseEventPayload } from './payload-validation';
import { currentTraceparent, isTraceparent } from '../tracing/trace-context';
import { DEFAULT_RETENTION_DAYS } from './store/bus-store';

export interface StreamSpec {
  name: string;
  subjects: readonly string[];
}

/**
 * Creates the stream or updates its subjects and max age; safe to call from every replica at
 * boot (give every app the same HUB_BUS_RETENTION_DAYS: the last one up sets it). With
 * `update: false` (a stream the app only reads) an existing stream is left as it is.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  spec: StreamSpec,
  retentionDays = DEFAULT_RETENTION_DAYS,
  options: { update?: boolean } = {},
): Promise<void> {
  const config = {
    name: spec.name,
    subjects: [...spec.subjects],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(retentionDays * 24 * 3600 * 1000),
    duplicate_window: nanos(2 * 60 * 1000),
  };
  try {
    await jsm.streams.info(spec.name);
    if (options.update !== false) await jsm.streams.update(spec.name, config);
  } catch (error) {
    if ((error as { code?: string }).code !== '404') throw error;
    try {
      await jsm.streams.add(config);
    } catch (addError) {
      // Another app made it between our look and our add (apps of one stack start together):
      // it exists now, which is all this app needs; anything else is a real failure.
      await jsm.streams.info(spec.name).catch(() => {
        throw addError;
      });
    }
  }
}

export class NatsEventBus extends EventBus {
  private readonly js: JetStreamClient;
  private readonly stops = new Set<Unsubscribe>();
  /** The durable consumers this process runs, by stream and name (for consumerLag). */
  private readonly durables = new Map<string, { stream: string; durable: string }>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {
    super();
    this.js = nc.jetstream();
  }

  /** `checked` is not sent: every consumer validates what arrives over the wire (decision 0512). */
  async publish<T>(event: EventDescriptor<T>, payload: T, options?: PublishOptions): Promise<void> {
    const subject = event.subject;
    const h = natsHeaders();
    if (options?.msgId) h.set('Nats-Msg-Id', options.msgId);
    const traceparent = currentTraceparent();
    if (traceparent) h.set('traceparent', traceparent);
    try {
      await this.js.publish(subject, JSON.stringify(payload), { msgID: options?.msgId, headers: h });
    } catch (err) {
      // JetStream did not take it (timed out, no stream, NATS away): the caller may try again,
      // so it is a 503 naming the cause, not an unexplained 500. The outbox relay retries anyway.
      this.logger.warn({ err, subject }, 'publish failed');
      throw new ServiceUnavailableError(
        `The event bus did not take the event (${subject}); try again`,
        'BUS_UNAVAILABLE',
      );
    }
  }

  async consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe> {
    // max_deliver stays unlimited on the server: past our bound the message is dead-lettered
    // and acked here, where JetStream would only drop it silently.
    await this.jsm.consumers.add(options.stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: subjectFilter(options.source),
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
      max_deliver: -1,
    });
    const consumer = await this.js.consumers.get(options.stream, options.durable);
    this.durables.set(`${options.stream}\u0000${options.durable}`, {
      stream: options.stream,
      durable: options.durable,
    });
    const limit = Math.max(1, options.concurrency ?? 1);
    // Pull at least as many as may be handled at once: with 64 a consumer of concurrency 128 never
    // had more than 64 messages to batch.
    const messages = await consumer.consume({ max_messages: Math.max(64, limit) });
    const loop = (async () => {
      const inFlight = new Set<Promise<void>>();
      for await (const m of messages) {
        const taken = this.take(m, options).finally(() => inFlight.delete(taken));
        inFlight.add(taken);
        if (inFlight.size >= limit) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    })().catch((err: unknown) => this.logger.error({ err, durable: options.durable }, 'consumer stopped'));
    const stop: Unsubscribe = async () => {
      this.stops.delete(stop);
      await messages.close();
      await loop;
    };
    this.stops.add(stop);
    return stop;
  }

  /** JetStream's own count per consumer: messages not yet delivered plus those delivered and not acked. */
  async consumerLag(): Promise<ConsumerLag[]> {
    return Promise.all(
      [...this.durables.values()].map(async (d) => {
        const info = await this.jsm.consumers.info(d.stream, d.durable);
        return { ...d, pending: info.num_pending + info.num_ack_pending };
      }),
    );
  }

  /**
   * The stream's last seq is read first: when the consumer then has nothing pending or unacked,
   * every message it takes up to that seq was acked. Otherwise its ack floor (acked without a gap).
   */
  async processedThrough(stream: string, durable: string): Promise<number> {
    const last = (await this.jsm.streams.info(stream)).state.last_seq;
    const info = await this.jsm.consumers.info(stream, durable);
    return info.num_pending === 0 && info.num_ack_pending === 0 ? last : info.ack_floor.stream_seq;
  }

  /** One message: validate, handle, ack; a failure comes back later or, past the bound, is dead-lettered. */
  private async take<T>(m: JsMsg, options: DurableConsumerOptions<T>): Promise<void> {
    const meta = {
      subject: m.subject,
      deliveryCount: m.info.deliveryCount,
      msgId: m.headers?.get('Nats-Msg-Id') || undefined,
      seq: m.info.streamSequence,
      traceparent: traceparentOf(m),
    };
    const letter = {
      subject: m.subject,
      msgId: meta.msgId,
      consumer: options.durable,
      deliveryCount: meta.deliveryCount,
    };
    try {
      const parsed = parseEventPayload(options.source.payload, m.string());
      if (!parsed.ok) {
        await this.deadLetter({ ...letter, reason: 'invalid', error: parsed.error, payload: parsed.payload });
        m.ack();
        return;
      }
      try {
        await options.handler(parsed.value, meta);
        m.ack();
      } catch (err) {
        if (meta.deliveryCount >= (options.maxDeliver ?? DEFAULT_MAX_DELIVER)) {
          await this.deadLetter({
            ...letter,
            reason: 'failed',
            error: errorText(err),
            payload: JSON.parse(m.string()) as unknown,
          });
          m.ack();
          return;
        }
        // Negative ack with a pause: the message comes back, other messages keep flowing.
        this.logger.warn({ err, subject: m.subject }, `handler failed, redelivering ${m.subject}`);
        m.nak(redeliveryDelayMs(meta.deliveryCount));
      }
    } catch (err) {
      // Dead-lettering itself failed (NATS away): try the whole message again later.
      this.logger.warn({ err, subject: m.subject }, `could not dead-letter ${m.subject}, redelivering`);
      m.nak(redeliveryDelayMs(meta.deliveryCount));
    }
  }

  listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe {
    const subject = subjectFilter(source);
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        const msgId = msg.headers?.get('Nats-Msg-Id') || undefined;
        const parsed = parseEventPayload(source.payload, msg.string());
        if (!parsed.ok) {
          const letter = {
            subject: msg.subject,
            msgId,
            consumer: 'listen',
            deliveryCount: 1,
            reason: 'invalid' as const,
          };
          this.deadLetter({ ...letter, error: parsed.error, payload: parsed.payload }).catch((e: unknown) =>
            this.logger.warn({ err: e, subject: msg.subject }, 'could not dead-letter'),
          );
          return;
        }
        try {
          handler(parsed.value, msg.subject);
        } catch (error) {
          this.logger.warn({ err: error, subject: msg.subject }, 'listener failed');
        }
      },
    });
    return async () => sub.unsubscribe();
  }

  async close(): Promise<void> {
    await Promise.all([...this.stops].map((stop) => stop()));
  }
}

/** The message's traceparent header, when it carries a well-formed one. */
function traceparentOf(m: JsMsg): string | undefined {
  const value = m.headers?.get('traceparent');
  return isTraceparent(value) ? value : undefined;
}
