import { Logger } from '@nestjs/common';
import { type NatsConnection, type Subscription } from 'nats';
import { type EventDescriptor } from '@hub/contracts';
import { parseEventPayload } from '../events/payload-validation';

/**
 * Messages for whoever listens right now, never stored (decision 0637): a job's log lines on their
 * way to open log streams. Core NATS in the distributed mode (no JetStream: a message nobody hears
 * costs nothing and is gone), a map of handlers in the all-in-one hub. At most once, in order per
 * subject from one publisher; a listener that needs what it missed reads it from where it is stored.
 */
export abstract class LiveBus {
  protected readonly logger = new Logger('LiveBus');

  abstract send<T>(event: EventDescriptor<T>, payload: T): void;

  /** Resolves once the subscription is in place (a message sent after that reaches the handler); the answer unsubscribes. */
  abstract watch<T>(event: EventDescriptor<T>, handler: (payload: T) => void): Promise<() => void>;
}

/** Core NATS: publish and subscribe on the descriptor's subject; each message validated against its class. */
export class NatsLiveBus extends LiveBus {
  constructor(private readonly nc: NatsConnection) {
    super();
  }

  send<T>(event: EventDescriptor<T>, payload: T): void {
    if (this.nc.isClosed()) return;
    this.nc.publish(event.subject, JSON.stringify(payload));
  }

  async watch<T>(event: EventDescriptor<T>, handler: (payload: T) => void): Promise<() => void> {
    const sub: Subscription = this.nc.subscribe(event.subject, {
      callback: (err, msg) => {
        if (err) return;
        const parsed = parseEventPayload(event.payload, msg.string());
        if (!parsed.ok) {
          this.logger.warn({ subject: msg.subject, error: parsed.error }, 'invalid live message dropped');
          return;
        }
        try {
          handler(parsed.value);
        } catch (error) {
          this.logger.warn({ err: error, subject: msg.subject }, 'live listener failed');
        }
      },
    });
    // The server has the subscription once a round trip came back: what is sent from now on arrives.
    await this.nc.flush();
    return () => sub.unsubscribe();
  }
}

/** The all-in-one hub: handlers by subject, called in the sender's turn (they only queue work). */
export class InProcessLiveBus extends LiveBus {
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();

  send<T>(event: EventDescriptor<T>, payload: T): void {
    const set = this.handlers.get(event.subject);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(payload);
      } catch (error) {
        this.logger.warn({ err: error, subject: event.subject }, 'live listener failed');
      }
    }
  }

  async watch<T>(event: EventDescriptor<T>, handler: (payload: T) => void): Promise<() => void> {
    const h = handler as (payload: unknown) => void;
    let set = this.handlers.get(event.subject);
    if (!set) this.handlers.set(event.subject, (set = new Set()));
    set.add(h);
    return () => {
      set.delete(h);
      if (set.size === 0 && this.handlers.get(event.subject) === set) this.handlers.delete(event.subject);
    };
  }
}
