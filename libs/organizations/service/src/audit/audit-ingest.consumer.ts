import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type AuditEventMessage, Events, Streams } from '@hub/contracts';
import { EventBus, type Unsubscribe } from '@hub/messaging';
import { InsertBatcher, newObjectId } from '@hub/persistence';
import { AuditLog, auditId } from './audit-log';

/** Audit messages in flight at once (and so the largest insert). */
const INGEST_CONCURRENCY = 128;

/**
 * Stores every `hub.audit.<type>` any service publishes (through its outbox) in the organization's
 * audit log. Durable and idempotent: a redelivered event has the same bus id and inserts nothing.
 * Messages are taken many at once and stored in batches (one INSERT per batch, bench:audit).
 */
@Injectable()
export class AuditIngestConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: Unsubscribe;
  private readonly batcher = new InsertBatcher<{ id: string; event: AuditEventMessage }>(
    (items) => this.log.insert(items),
    INGEST_CONCURRENCY,
  );

  constructor(
    private readonly events: EventBus,
    private readonly log: AuditLog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.events.consume({
      stream: Streams.Audit.name,
      durable: 'organizations-audit-ingest',
      source: Events.Audit,
      // Many at once, written in batches: audit events need no order (the export sorts by time).
      concurrency: INGEST_CONCURRENCY,
      handler: (event, meta) => this.batcher.add({ id: meta.msgId ? auditId(meta.msgId) : newObjectId(), event }),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}
