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
  /** Subject filter, NATS wildcards allowed. */
  filterSubject: string;
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
 */
export abstract class EventBus {
  abstract publish<T>(subject: string, payload: T, options?: { msgId?: string }): Promise<void>;
  abstract consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe>;
  abstract listen<T>(subject: string, handler: (payload: T, subject: string) => void): Unsubscribe;
  abstract close(): Promise<void>;
}
