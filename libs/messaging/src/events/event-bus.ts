import { Logger } from '@nestjs/common';
import { type EventDescriptor, type EventSource, type PayloadClass } from '@hub/contracts';
import {
  type DeadLetterInput,
  deadLetterDescriptor,
  deadLetterMessage,
  deadLetterMsgId,
  isDeadLetterSubject,
} from './dead-letter';

export interface EventMeta {
  subject: string;
  /** How many times this message was delivered (1 on first delivery). */
  deliveryCount: number;
  msgId?: string;
  /** The message's place in its stream (JetStream's stream sequence, the in-process store's seq): its order. */
  seq?: number;
  /** The W3C trace context the publisher sent with it, when tracing is on (decision 0504). */
  traceparent?: string;
}

export type EventHandler<T> = (payload: T, meta: EventMeta) => Promise<void>;

/** A handler that keeps failing is dead-lettered after this many deliveries unless told otherwise. */
export const DEFAULT_MAX_DELIVER = 10;

export interface DurableConsumerOptions<T> {
  /** Stream to read from (Streams.* in contracts). */
  stream: string;
  /** Durable consumer name; replicas sharing it share the work. */
  durable: string;
  /** The event (or family of events) to receive: its subject filter and payload class. */
  source: EventSource<T>;
  handler: EventHandler<T>;
  /** Redelivery after this long without an ack (handler still running or process gone). */
  ackWaitMs?: number;
  /** Deliveries before a failing message goes to the dead-letter subject (default 10). */
  maxDeliver?: number;
  /**
   * Messages handled at once by this replica (default 1: strictly one after the other). A
   * handler that batches its writes (one commit for the messages in flight) needs more than one.
   * The in-process bus of the all-in-one mode hands them over in slices of this size.
   */
  concurrency?: number;
}

/** How a message is published. */
export interface PublishOptions {
  /** Its id on the bus: a second publish with the same id is dropped. */
  msgId?: string;
  /**
   * The payload classes this payload, as its JSON, passed `validateEventPayload` against in this
   * process before publishing (the edge: `POST /admin/events`). The in-process bus hands the
   * message to consumers of those classes without validating it again (decision 0512); a
   * message that comes over NATS is validated by its consumer whatever its publisher did.
   */
  checked?: readonly PayloadClass<unknown>[];
}

/** One event of an ordered batch (`publishInOrder`). */
export interface OutgoingEvent {
  event: EventDescriptor<unknown>;
  payload: unknown;
  msgId?: string;
  /** As `PublishOptions.checked`: the classes its JSON passed validation against in this process. */
  checked?: readonly PayloadClass<unknown>[];
}

/** How far an ordered batch got: the first `published` went out; `error` stopped the next one. */
export interface PublishedInOrder {
  published: number;
  error?: unknown;
}

/** How far one durable consumer of this process is behind its stream. */
export interface ConsumerLag {
  stream: string;
  durable: string;
  /** Messages not yet acknowledged: waiting to be delivered, or delivered and not acked. */
  pending: number;
}

export interface Unsubscribe {
  (): Promise<void>;
}

/** The pause before a failed message comes back: 1 s, 2 s, 4 s … at most 30 s. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(30_000, 500 * 2 ** Math.min(deliveryCount, 6));
}

/**
 * The event side of the bus. `publish` is durable (JetStream, or the embedded database in the
 * all-in-one mode; deduplicated by msgId); `consume` is at-least-once with explicit ack (a
 * throwing handler gets the message again, up to maxDeliver); `listen` is a fan-out to every
 * replica with no durability, for cache invalidation. Events are named by their descriptors in
 * contracts, which carry the payload class: consumers and listeners validate every payload
 * against it, and an invalid one goes to `hub.deadletter.<subject>` instead of the handler; the
 * in-process bus skips the rules for a message its publisher in this process already validated
 * against the consumer's class (`PublishOptions.checked`, decision 0512).
 */
export abstract class EventBus {
  protected readonly logger = new Logger('EventBus');

  abstract publish<T>(event: EventDescriptor<T>, payload: T, options?: PublishOptions): Promise<void>;
  abstract consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe>;
  abstract listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe;
  abstract close(): Promise<void>;
  /** The lag of every durable consumer this process runs (hub_bus_consumer_pending). */
  abstract consumerLag(): Promise<ConsumerLag[]>;

  /**
   * A watermark of a durable consumer, shared by every replica: every message of its stream with
   * a seq up to the answer that the consumer takes has been acknowledged. It only grows, so an
   * answer kept for a while is still true (only lower than it could be). Ordered webhooks send an
   * event only once every earlier event went through their intake (decision 0511).
   */
  abstract processedThrough(stream: string, durable: string): Promise<number>;

  /**
   * Publishes events in order, stopping at the first that fails, so a later one never goes out
   * before an earlier one (the outbox relay's batches). One after the other here; the in-process
   * bus stores a batch in one statement, all or none.
   */
  async publishInOrder(events: OutgoingEvent[]): Promise<PublishedInOrder> {
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as OutgoingEvent;
      try {
        await this.publish(e.event, e.payload, { msgId: e.msgId, checked: e.checked });
      } catch (error) {
        return { published: i, error };
      }
    }
    return { published: events.length };
  }

  /** Logs the message (subject, msgId) and publishes it on its dead-letter subject. */
  protected async deadLetter(input: DeadLetterInput): Promise<void> {
    this.logger.warn(
      {
        subject: input.subject,
        msgId: input.msgId,
        consumer: input.consumer,
        reason: input.reason,
        error: input.error,
      },
      `dead-lettering ${input.subject} (${input.reason}): ${input.error}`,
    );
    if (isDeadLetterSubject(input.subject)) return;
    await this.publish(deadLetterDescriptor(input.subject), deadLetterMessage(input), {
      msgId: deadLetterMsgId(input.consumer, input.msgId),
    });
  }
}
