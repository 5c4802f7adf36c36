import { type EntityManager } from 'typeorm';
import { type AuditEventMessage, type AuditEventType, Events, type RequestContext } from '@hub/contracts';
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
  const event: AuditEventMessage = {
    type,
    organizationId: org.id,
    organization: org.name,
    message,
    data,
    createdAt: new Date().toISOString(),
    author: ctx.userId
      ? { _id: ctx.userId, user: ctx.userName ?? '', type: 'user' }
      : { _id: '000000000000000000000000', user: 'system', type: 'system' },
    token: ctx.tokenId ? { id: ctx.tokenId, role: ctx.tokenRole } : undefined,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
  await outbox.add(m, Events.Audit.of(type), event, { aggregate: org.id });
}
