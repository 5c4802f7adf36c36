import { Logger } from '@nestjs/common';
import {
  AckPolicy, DeliverPolicy, headers as natsHeaders, type JetStreamClient, type JetStreamManager,
  type NatsConnection, nanos, RetentionPolicy, StorageType,
} from 'nats';
import { type EventDescriptor, type EventSource, subjectFilter } from '@hub/contracts';
import { EventBus, type DurableConsumerOptions, type Unsubscribe } from './event-bus';

export interface StreamSpec {
  name: string;
  subjects: readonly string[];
}

/** Creates the stream or updates its subjects; safe to call from every replica at boot. */
export async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const config = {
    name: spec.name,
    subjects: [...spec.subjects],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(7 * 24 * 3600 * 1000),
    duplicate_window: nanos(2 * 60 * 1000),
  };
  try {
    await jsm.streams.info(spec.name);
    await jsm.streams.update(spec.name, config);
  } catch (error) {
    if ((error as { code?: string }).code !== '404') throw error;
    await jsm.streams.add(config);
  }
}

export class NatsEventBus extends EventBus {
  private readonly logger = new Logger('EventBus');
  private readonly js: JetStreamClient;
  private readonly stops = new Set<Unsubscribe>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {
    super();
    this.js = nc.jetstream();
  }

  async publish<T>(event: EventDescriptor<T>, payload: T, options?: { msgId?: string }): Promise<void> {
    const subject = event.subject;
    const h = natsHeaders();
    if (options?.msgId) h.set('Nats-Msg-Id', options.msgId);
    await this.js.publish(subject, JSON.stringify(payload), { msgID: options?.msgId, headers: h });
  }

  async consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe> {
    await this.jsm.consumers.add(options.stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: subjectFilter(options.source),
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
      max_deliver: options.maxDeliver ?? -1,
    });
    const consumer = await this.js.consumers.get(options.stream, options.durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const m of messages) {
        try {
          await options.handler(JSON.parse(m.string()) as T, {
            subject: m.subject,
            deliveryCount: m.info.deliveryCount,
            msgId: m.headers?.get('Nats-Msg-Id') || undefined,
          });
          m.ack();
        } catch (err) {
          // Negative ack with a pause: the message comes back, other messages keep flowing.
          this.logger.warn({ err, subject: m.subject }, `handler failed, redelivering ${m.subject}`);
          m.nak(Math.min(30_000, 500 * 2 ** Math.min(m.info.deliveryCount, 6)));
        }
      }
    })();
    const stop: Unsubscribe = async () => {
      this.stops.delete(stop);
      await messages.close();
      await loop;
    };
    this.stops.add(stop);
    return stop;
  }

  listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe {
    const subject = subjectFilter(source);
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        try {
          handler(JSON.parse(msg.string()) as T, msg.subject);
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
