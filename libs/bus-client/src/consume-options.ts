export interface EventMeta {
  /** The subject without the bus prefix (`hub.audit.org.create`). */
  subject: string;
  /** The event id: the `Nats-Msg-Id` header (else `<stream>:<sequence>`); key idempotency on it. */
  eventId: string;
  /** 1 on the first delivery. */
  deliveryCount: number;
  streamSequence: number;
  /** When JetStream stored the event. */
  publishedAt: Date;
}

export type EventHandler<T> = (payload: T, meta: EventMeta) => Promise<void> | void;

/**
 * Where a durable consumer starts the first time it is created (JetStream keeps this with the
 * consumer: later starts resume where it stopped, whatever this says).
 * `all`: from the oldest event the stream still retains; `new`: only events published from now;
 * `{ since }`: from the first event stored at or after that time.
 */
export type StartFrom = 'all' | 'new' | { since: Date };

export interface ConsumeOptions<T> {
  /** The durable consumer's name (letters, digits, `-`, `_`); replicas sharing it share the work. */
  durable: string;
  handler: EventHandler<T>;
  /** Narrow a family to one suffix or a wildcard below it (`org.create`, `org.>`). */
  only?: string;
  /** Default `all`. */
  from?: StartFrom;
  /** Deliveries before a failing event goes to the dead-letter subject. Default 5. */
  maxDeliver?: number;
  /** Pause before redelivery n (1-based): default 1 s, 2 s, 4 s … at most 60 s. */
  backoffMs?: (deliveryCount: number) => number;
  /** Redelivered when not acknowledged within this long (the process died). Default 30 s. */
  ackWaitMs?: number;
  /** `false`: an invalid or failing event is logged and acknowledged, not dead-lettered. */
  deadLetter?: boolean;
}

export function defaultBackoffMs(deliveryCount: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, deliveryCount - 1));
}
