import { type EntityManager } from 'typeorm';
import { auditEvent, type AuditEventType, Events, type RequestContext } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';

/** Records one audit event of an organization, authored by the caller (or the system), in the caller's transaction. */
export async function recordAudit(
  outbox: Outbox,
  m: EntityManager,
  ctx: RequestContext,
  org: { id: string; name: string },
  type: AuditEventType,
  message: string,
  data?: unknown,
): Promise<void> {
  await outbox.add(m, Events.Audit.of(type), auditEvent(ctx, org, type, message, data), { aggregate: org.id });
}
