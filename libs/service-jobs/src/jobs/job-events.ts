import { type EntityManager } from 'typeorm';
import { type AuditEventMessage, type AuditEventType, Events, type RequestContext } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';
import { type JobEntity } from './job.entity';

/** `hub.jobs.job.status` for the job as it now stands, in the transaction that changed it. */
export async function recordStatus(outbox: Outbox, m: EntityManager, j: JobEntity): Promise<void> {
  await outbox.add(m, Events.JobStatus, {
    jobId: j.id, namespace: j.namespace, ownerId: j.owner.id, createdByName: j.createdBy.name, stage: j.stage, message: j.message,
    failureCount: j.failureCount, at: new Date().toISOString(), initiator: j.initiator,
  }, { aggregate: j.id });
}

/** One audit event (`jobs.*`, `scheduled_job.*`) of the namespace owning the job. */
export async function recordJobAudit(
  outbox: Outbox, m: EntityManager, ctx: RequestContext, j: Pick<JobEntity, 'id' | 'owner'>, type: AuditEventType, message: string, data?: unknown,
): Promise<void> {
  const event: AuditEventMessage = {
    type,
    organizationId: j.owner.id,
    organization: j.owner.name,
    message,
    data: { jobId: j.id, ...(typeof data === 'object' && data !== null ? data : {}) },
    createdAt: new Date().toISOString(),
    author: ctx.userId
      ? { _id: ctx.userId, user: ctx.userName ?? '', type: 'user' }
      : { _id: '000000000000000000000000', user: 'system', type: 'system' },
    token: ctx.tokenId ? { id: ctx.tokenId, role: ctx.tokenRole } : undefined,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
  await outbox.add(m, Events.Audit.of(type), event, { aggregate: j.owner.id });
}
