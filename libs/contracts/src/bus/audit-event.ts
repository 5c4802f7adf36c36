import { type AuditEventType } from '../enums';
import { type RequestContext } from './context';
import { type AuditEventMessage } from './events';

/** The author of events no user caused (the admin API, the system itself). */
export const SYSTEM_AUTHOR_ID = '000000000000000000000000';

/**
 * One `hub.audit.<type>` message of an organization, authored by the caller of the request (or
 * the system): every service builds its audit events here and adds them to its outbox.
 */
export function auditEvent(
  ctx: RequestContext,
  org: { id: string; name: string },
  type: AuditEventType,
  message: string,
  data?: unknown,
): AuditEventMessage {
  return {
    type,
    organizationId: org.id,
    organization: org.name,
    message,
    data,
    createdAt: new Date().toISOString(),
    author: ctx.userId
      ? { _id: ctx.userId, user: ctx.userName ?? '', type: 'user' }
      : { _id: SYSTEM_AUTHOR_ID, user: 'system', type: 'system' },
    token: ctx.tokenId ? { id: ctx.tokenId, role: ctx.tokenRole } : undefined,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
}
