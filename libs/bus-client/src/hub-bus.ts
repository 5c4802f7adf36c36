import {
  AckPolicy,
  connect,
  type ConsumerConfig,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  nanos,
} from 'nats';
import { BusNames } from './bus-names';
import { type ConsumeOptions, defaultBackoffMs, type EventMeta } from './consume-options';
import { deadLetterFor } from './dead-letter';
import { type EventDefinition } from './event-definition';
import { PayloadValidator } from './payload-validator';

export interface BusLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface HubBusOptions {
  /** NATS server(s), comma separated. Default: `NATS_URL`. */
  url?: string;
  /** The hub's `HUB_BUS_PREFIX`. Default: that variable, else none. */
  prefix?: string;
  /** Connection name shown by the NATS server. */
  name?: string;
  /**
   * The NATS user and password the hub's operator gave you (the hub's NATS lets no anonymous
   * client in; its read-only user is `subscriber`). Default: `NATS_USER`, `NATS_PASSWORD`.
   */
  user?: string;
  password?: string;
  logger?: BusLogger;
}

export interface Subscription {
  /** Stops taking messages; the one being handled finishes first. */
  stop(): Promise<void>;
}

const CONSOLE: BusLogger = { info: (m) => console.log(m), warn: (m) => console.warn(m) };

function deliverPolicy(from: ConsumeOptions<unknown>['from']): Partial<ConsumerConfig> {
  if (from === 'new') return { deliver_policy: DeliverPolicy.New };
  if (from && typeof from === 'object')
    return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: from.since.toISOString() };
  return { deliver_policy: DeliverPolicy.All };
}

/** A connection to a hub's bus for subscribers: durable, validated, typed consumers. */
export class HubBus {
  private readonly validator = new PayloadValidator();
  private readonly subscriptions = new Set<Subscription>();

  private constructor(
    readonly names: BusNames,
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly logger: BusLogger,
  ) {}

  static async connect(options: HubBusOptions = {}): Promise<HubBus> {
    const url = options.url ?? process.env['NATS_URL'];
    if (!url) throw new Error("NATS_URL is required: the address of the hub's NATS server");
    const names = new BusNames(options.prefix ?? process.env['HUB_BUS_PREFIX'] ?? '');
    const user = options.user ?? process.env['NATS_USER'];
    const pass = options.password ?? process.env['NATS_PASSWORD'];
    // Replies come to the user's own inbox (`_INBOX_<user>`): the only one its permissions allow.
    const nc = await connect({
      servers: url.split(','),
      name: options.name,
      maxReconnectAttempts: -1,
      user,
      pass,
      inboxPrefix: user ? `_INBOX_${user}` : undefined,
    });
    return new HubBus(names, nc, await nc.jetstreamManager(), nc.jetstream(), options.logger ?? CONSOLE);
  }

  /**
   * Starts (or resumes) a durable consumer of one event of the contract. Each message is checked
   * against the event's schema: an invalid one goes to the dead-letter subject at once; a handler
   * that throws gets the message again after a growing pause, up to `maxDeliver` deliveries, then
   * the message is dead-lettered. Messages are handled one at a time, in stream order.
   */
  async consume<T>(event: EventDefinition<T>, options: ConsumeOptions<T>): Promise<Subscription> {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(options.durable))
      throw new Error('durable must be 1..100 letters, digits, - or _');
    if (options.only && !event.family) throw new Error(`${event.name} is one subject: "only" narrows families`);
    const stream = this.names.stream(event.stream);
    const filter = this.names.subject(options.only ? `${event.filter.slice(0, -2)}.${options.only}` : event.filter);
    const durable = this.names.stream(options.durable);
    const existing = await this.jsm.consumers.info(stream, durable).catch(() => null);
    if (existing && existing.config.filter_subject !== filter) {
      throw new Error(
        `durable ${durable} exists on ${stream} with filter ${existing.config.filter_subject}, not ${filter}: delete it or pick another name`,
      );
    }
    if (!existing) {
      await this.jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        filter_subject: filter,
        ack_wait: nanos(options.ackWaitMs ?? 30_000),
        max_deliver: -1,
        ...deliverPolicy(options.from),
      });
    }
    const consumer = await this.js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const m of messages) await this.take(m, event, options);
    })().catch((err: unknown) => this.logger.warn(`consumer ${durable} stopped: ${String(err)}`));
    const subscription: Subscription = {
      stop: async () => {
        this.subscriptions.delete(subscription);
        await messages.close();
        await loop;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private async take<T>(m: JsMsg, event: EventDefinition<T>, options: ConsumeOptions<T>): Promise<void> {
    const meta: EventMeta = {
      subject: this.names.bare(m.subject),
      eventId: m.headers?.get('Nats-Msg-Id') || `${event.stream}:${m.seq}`,
      deliveryCount: m.info.deliveryCount,
      streamSequence: m.seq,
      publishedAt: new Date(Math.floor(m.info.timestampNanos / 1e6)),
    };
    const letter = { meta, consumer: options.durable, names: this.names };
    try {
      const checked = this.validator.check<T>(event.schema, m.string());
      if (!checked.ok) {
        await this.giveUp(
          options,
          deadLetterFor({ ...letter, reason: 'invalid', error: checked.error, payload: checked.payload }),
        );
        m.ack();
        return;
      }
      try {
        await options.handler(checked.value, meta);
        m.ack();
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        if (meta.deliveryCount >= (options.maxDeliver ?? 5)) {
          await this.giveUp(options, deadLetterFor({ ...letter, reason: 'failed', error, payload: checked.value }));
          m.ack();
          return;
        }
        this.logger.warn(
          `${options.durable}: handler failed on ${meta.subject} (${error}), delivery ${meta.deliveryCount}; retrying`,
        );
        m.nak((options.backoffMs ?? defaultBackoffMs)(meta.deliveryCount));
      }
    } catch (err) {
      this.logger.warn(`${options.durable}: could not dead-letter ${meta.subject} (${String(err)}); retrying`);
      m.nak((options.backoffMs ?? defaultBackoffMs)(meta.deliveryCount));
    }
  }

  private async giveUp<T>(options: ConsumeOptions<T>, letter: ReturnType<typeof deadLetterFor>): Promise<void> {
    this.logger.warn(`${options.durable}: ${letter.message.reason} ${letter.message.subject}: ${letter.message.error}`);
    if (options.deadLetter === false) return;
    await this.js.publish(letter.subject, JSON.stringify(letter.message), { msgID: letter.msgId });
  }

  /** Stops every consumer and closes the connection (pending acks are flushed). */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}
