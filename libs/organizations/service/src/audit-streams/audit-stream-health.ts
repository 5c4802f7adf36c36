import { Injectable, Logger } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { AuditStreamEvents, type AuditStreamHealthEvent } from '@hub/organizations-contract';
import { Outbox } from '@hub/messaging';
import { type LeasedStream } from './audit-stream-cursor.store';

/**
 * What happens when a stream turns failing (failing past HUB_AUDIT_STREAM_FAILING_AFTER_S) or
 * recovers: a `hub.organizations.audit-stream.health` event, written in the transaction that
 * changed the stream's state (the notifications service mails the organization's admins).
 */
@Injectable()
export class AuditStreamHealth {
  private readonly logger = new Logger('AuditStreamHealth');

  constructor(private readonly outbox: Outbox) {}

  async becameFailing(m: EntityManager, s: LeasedStream, error: string): Promise<void> {
    this.logger.warn({ stream: s.id, organization: s.organization_name, error }, 'audit stream is failing');
    await this.record(m, s, { state: 'failing', error: error.slice(0, 1000) });
  }

  async recovered(m: EntityManager, s: LeasedStream): Promise<void> {
    this.logger.log({ stream: s.id, organization: s.organization_name }, 'audit stream recovered');
    await this.record(m, s, { state: 'active', error: null });
  }

  /** Publishes what the committed transactions added, at once rather than at the relay's next poll. */
  published(): void {
    this.outbox.kick();
  }

  private async record(
    m: EntityManager,
    s: LeasedStream,
    change: Pick<AuditStreamHealthEvent, 'state' | 'error'>,
  ): Promise<void> {
    const e: AuditStreamHealthEvent = {
      organization: s.organization_name,
      streamId: s.id,
      type: s.type,
      ...change,
      at: new Date().toISOString(),
    };
    await this.outbox.add(m, AuditStreamEvents.Health, e, { aggregate: s.id });
  }
}
