import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type EventFamily, Streams, type WebhookDomain } from '@hub/contracts';
import { RepoEvents } from '@hub/organizations-contract';
import { type WebhookPayloadV3, WebhookEvents } from '@hub/webhooks-contract';
import { SpanKind } from '@opentelemetry/api';
import {
  contextFromTraceparent,
  currentTraceparent,
  EventBus,
  type EventMeta,
  hubTracer,
  isTracingOn,
  type Unsubscribe,
} from '@hub/messaging';
import { createHash } from 'node:crypto';
import { type MatchInput } from '../delivery/delivery-queue.store';
import { DeliveryWorker } from '../delivery/delivery-worker';
import { INTAKE_BATCH, IntakeBatch } from './intake-batch';
import { intakeDurable } from './intake-watermark';
import { PrivateRepoAccess } from './private-repo-access';

/**
 * Events in: a durable consumer per domain. The message is acked only once its deliveries are
 * rows in the queue, so an event accepted by the bus reaches every matching webhook even if this
 * process dies in between (the bus redelivers; the insert is idempotent). The events in flight
 * are queued together (IntakeBatch), and the worker is woken at once.
 */
@Injectable()
export class EventIntake implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EventIntake');
  private readonly stops: Unsubscribe[] = [];

  constructor(
    private readonly bus: EventBus,
    private readonly batch: IntakeBatch,
    private readonly worker: DeliveryWorker,
    private readonly visibility: PrivateRepoAccess,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const families: [EventFamily<WebhookPayloadV3>, WebhookDomain][] = [
      [RepoEvents, 'repo'],
      [WebhookEvents.Discussion, 'discussion'],
    ];
    for (const [source, domain] of families) {
      this.stops.push(
        await this.bus.consume({
          stream: Streams.Events.name,
          durable: intakeDurable(domain),
          source,
          ackWaitMs: 30_000,
          concurrency: INTAKE_BATCH,
          handler: (payload, meta) => this.take(payload, meta, domain),
        }),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }

  /** With tracing on, the intake is a span continuing the publisher's trace (decision 0504). */
  private take(payload: WebhookPayloadV3, meta: EventMeta, domain: WebhookDomain): Promise<void> {
    if (!isTracingOn()) return this.queue(payload, meta, domain);
    return hubTracer().startActiveSpan(
      'webhooks.intake',
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.destination.name': meta.subject } },
      contextFromTraceparent(meta.traceparent),
      async (span) => {
        try {
          await this.queue(payload, meta, domain, currentTraceparent());
        } finally {
          span.end();
        }
      },
    );
  }

  private async queue(
    payload: WebhookPayloadV3,
    meta: EventMeta,
    domain: WebhookDomain,
    traceparent?: string,
  ): Promise<void> {
    // The msgId dedupes repeats; without one the payload itself is the identity (serialized only then).
    const eventId =
      meta.msgId ??
      createHash('sha256')
        .update(`${meta.subject}\n${JSON.stringify(payload)}`)
        .digest('hex')
        .slice(0, 48);
    // A `webhook` member from the publisher is dropped: each attempt sets its own.
    const event: Record<string, unknown> = { ...payload };
    delete event['webhook'];
    const owner = payload.repo.name.split('/')[0];
    const match: MatchInput = {
      eventId,
      subject: meta.subject,
      payload: JSON.stringify(event),
      domain,
      repoType: payload.repo.type,
      repoName: payload.repo.name,
      ownerName: owner,
      seq: meta.seq,
      traceparent,
    };
    if (payload.repo['private'] === true)
      match.allowedOwners = await this.visibility.allowedOwners(match, payload.repo);
    const queued = await this.batch.add(match);
    if (queued.count > 0) this.logger.debug({ eventId, queued: queued.count }, 'deliveries queued');
    // Rows leased as they were queued are on their way already (decision 0510); the others wait for a claim.
    if (queued.count > queued.leased.length) this.worker.poke(queued.owners, meta.seq);
  }
}
