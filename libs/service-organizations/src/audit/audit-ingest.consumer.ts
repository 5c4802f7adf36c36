import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Events, Streams } from '@hub/contracts';
import { EventBus, type Unsubscribe } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';
import { AuditLog, auditId } from './audit-log';

/**
 * Stores every `hub.audit.<type>` any service publishes (through its outbox) in the organization's
 * audit log. Durable and idempotent: a redelivered event has the same bus id and inserts nothing.
 */
@Injectable()
export class AuditIngestConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private stop?: Unsubscribe;

  constructor(
    private readonly events: EventBus,
    private readonly log: AuditLog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await this.events.consume({
      stream: Streams.Audit.name, durable: 'organizations-audit-ingest', source: Events.Audit,
      handler: (event, meta) => this.log.insert([{ id: meta.msgId ? auditId(meta.msgId) : newObjectId(), event }]),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.();
  }
}
