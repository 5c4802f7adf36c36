import { Injectable } from '@nestjs/common';
import { Streams, type WebhookDomain } from '@hub/contracts';
import { EventBus } from '@hub/messaging';

/** The intake's durable consumer of a domain (EventIntake): replicas share it. */
export const intakeDurable = (domain: WebhookDomain): string => `webhooks-${domain}`;
/** The domains the intake consumes, each with its durable consumer. */
export const INTAKE_DOMAINS: readonly WebhookDomain[] = ['repo', 'discussion'];

/** How long a watermark read is reused: it only grows, so an older one only holds ordered heads a little longer. */
const KEEP_MS = 25;

/**
 * The seq through which every hub event went through the intake, in every replica (decision
 * 0511): the events' rows are in the queue up to it. An ordered webhook's head is sent only when
 * its event_seq is at most one past it, so an earlier event still in another replica's (or this
 * one's) intake cannot be queued behind a later one that was already sent.
 */
@Injectable()
export class IntakeWatermark {
  private read?: { at: number; value: Promise<number> };

  constructor(private readonly bus: EventBus) {}

  current(): Promise<number> {
    if (this.read && Date.now() - this.read.at < KEEP_MS) return this.read.value;
    const value = Promise.all(
      INTAKE_DOMAINS.map((d) => this.bus.processedThrough(Streams.Events.name, intakeDurable(d)).catch(() => 0)),
    ).then((ws) => Math.min(...ws));
    this.read = { at: Date.now(), value };
    return value;
  }
}
