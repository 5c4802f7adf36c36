import { Logger } from '@nestjs/common';
import { type EventDescriptor, type EventSource, subjectFilter } from '@hub/contracts';
import { EventBus, type DurableConsumerOptions, type Unsubscribe } from './event-bus';
import { subjectMatches } from './subject-match';

interface Listener {
  pattern: string;
  deliver: (payload: unknown, subject: string, msgId?: string) => void;
}

/**
 * The all-in-one stand-in for JetStream: same contract (dedupe by msgId within two minutes,
 * retry a failing handler with backoff), kept in memory. What is in flight when the process
 * stops is not kept; the distributed mode keeps it in JetStream.
 */
export class InProcessEventBus extends EventBus {
  private readonly logger = new Logger('EventBus');
  private readonly listeners = new Set<Listener>();
  private readonly seen = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  async publish<T>(event: EventDescriptor<T>, payload: T, options?: { msgId?: string }): Promise<void> {
    const subject = event.subject;
    if (options?.msgId && this.isDuplicate(options.msgId)) return;
    const copy: unknown = JSON.parse(JSON.stringify(payload));
    for (const l of this.listeners) if (subjectMatches(l.pattern, subject)) l.deliver(copy, subject, options?.msgId);
  }

  async consume<T>(options: DurableConsumerOptions<T>): Promise<Unsubscribe> {
    const attempt = (payload: unknown, subject: string, msgId: string | undefined, count: number): void => {
      options.handler(payload as T, { subject, deliveryCount: count, msgId }).catch((err: unknown) => {
        if (this.closed || (options.maxDeliver && count >= options.maxDeliver)) return;
        this.logger.warn({ err, subject }, `handler failed, redelivering ${subject}`);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          attempt(payload, subject, msgId, count + 1);
        }, Math.min(30_000, 500 * 2 ** Math.min(count, 6)));
        this.timers.add(timer);
      });
    };
    return this.add({ pattern: subjectFilter(options.source), deliver: (p, s, id) => setImmediate(() => attempt(p, s, id, 1)) });
  }

  listen<T>(source: EventSource<T>, handler: (payload: T, subject: string) => void): Unsubscribe {
    const subject = subjectFilter(source);
    return this.add({ pattern: subject, deliver: (p, s) => handler(p as T, s) });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.listeners.clear();
  }

  private add(listener: Listener): Unsubscribe {
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }

  private isDuplicate(msgId: string): boolean {
    const now = Date.now();
    // Insertion order is time order: drop expired ids from the front only.
    for (const [id, at] of this.seen) {
      if (now - at <= 120_000) break;
      this.seen.delete(id);
    }
    if (this.seen.has(msgId)) return true;
    this.seen.set(msgId, now);
    return false;
  }
}
