import { type EntityManager } from 'typeorm';
import { type AuditEventMessage, type AuditEventType, Events, type RequestContext } from '@hub/contracts';
import { JobsEvents } from '@hub/jobs-contract';
import { type Outbox, type OutboxEvent, outboxEvent } from '@hub/messaging';
import { type JobEntity } from './job.entity';

/** `hub.jobs.job.status` for the job as it now stands. */
export function statusEvent(
  j: Pick<JobEntity, 'id' | 'namespace' | 'owner' | 'createdBy' | 'stage' | 'message' | 'failureCount' | 'initiator'>,
): OutboxEvent {
  return outboxEvent(
    JobsEvents.JobStatus,
    {
      jobId: j.id,
      namespace: j.namespace,
      ownerId: j.owner.id,
      createdByName: j.createdBy.name,
      createdById: j.createdBy.id,
      stage: j.stage,
      message: j.message,
      failureCount: j.failureCount,
      at: new Date().toISOString(),
      initiator: j.initiator,
    },
    j.id,
  );
}

/** `hub.jobs.job.status` for the job as it now stands, in the transaction that changed it. */
export async function recordStatus(outbox: Outbox, m: EntityManager, j: JobEntity): Promise<void> {
  const { event, payload, aggregate } = statusEvent(j);
  await outbox.add(m, event, payload, { aggregate });
}

/** One audit event (`jobs.*`, `scheduled_job.*`) of the namespace owning the job, in the transaction that made it. */
export async function recordJobAudit(
  outbox: Outbox,
  m: EntityManager,
  ctx: RequestContext,
  j: Pick<JobEntity, 'id' | 'owner'>,
  type: AuditEventType,
  message: string,
  data?: unknown,
): Promise<void> {
  const { event, payload, aggregate } = jobAuditEvent(ctx, j, type, message, data);
  await outbox.add(m, event, payload, { aggregate });
}

/** One audit event (`jobs.*`, `scheduled_job.*`) of the namespace owning the job. */
export function jobAuditEvent(
  ctx: RequestContext,
  j: Pick<JobEntity, 'id' | 'owner'>,
  type: AuditEventType,
  message: string,
  data?: unknown,
): OutboxEvent {
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
  return outboxEvent(Events.Audit.of(type), event, j.owner.id);
}
