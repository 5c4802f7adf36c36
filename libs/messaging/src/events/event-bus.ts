import { type EventDescriptor, type EventSource } from '@hub/contracts';

export interface EventMeta {
  subject: string;
  /** How many times this message was delivered (1 on first delivery). */
  deliveryCount: number;
  msgId?: string;
}

export type EventHandler<T> = (payload: T, meta: EventMeta) => Promise<void>;

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
  maxDeliver?: number;
}

export interface Unsubscribe {
  (): Promise<void>;
}

/**
 * The event side of the bus. `publish` is durable (JetStream, deduplicated by msgId);
 * `consume` is at-least-once with explicit ack (a throwing handler gets the message again);
 * `listen` is a fan-out to every replica with no durability, for cache invalidation.
 * Events are named by their descriptors in contracts, which carry the payload type.
 */
export abstract class EventBus {
  abstract publish<T>(event: EventDescriptor<T>, payload: T, options?: { msgId?: string }): Promise<void>;
  abstract consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe>;
  abstract listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe;
  abstract close(): Promise<void>;
}
