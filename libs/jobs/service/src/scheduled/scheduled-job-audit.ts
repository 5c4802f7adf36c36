import { type EntityManager } from 'typeorm';
import { type AuditEventType, type RequestContext } from '@hub/contracts';
import { type Outbox } from '@hub/messaging';
import { recordJobAudit } from '../jobs/job-events';
import { type ScheduledJobEntity } from './scheduled-job.entity';

/** A scheduled job's audit event (`scheduled_job.*`), in the transaction that made the change. */
export function recordScheduledJobAudit(
  outbox: Outbox,
  m: EntityManager,
  ctx: RequestContext,
  s: ScheduledJobEntity,
  type: AuditEventType,
): Promise<void> {
  return recordJobAudit(outbox, m, ctx, s, type, `Scheduled job ${s.id}: ${type.split('.')[1]}`, {
    scheduledJobId: s.id,
    schedule: s.schedule,
  });
}
