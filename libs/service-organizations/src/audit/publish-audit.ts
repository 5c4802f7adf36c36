import { type AuditEventMessage, type AuditEventType, Events, type RequestContext } from '@hub/contracts';
import { type EventBus } from '@hub/messaging';
import { newObjectId } from '@hub/persistence';

/** Publishes one audit event for an organization, authored by the caller (or the system). */
export async function publishAudit(
  events: EventBus,
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
  await events.publish(Events.Audit.of(type), event, { msgId: newObjectId() });
}
