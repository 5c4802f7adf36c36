import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { type AuditEventType, LimitReachedError, type RequestContext } from '@hub/contracts';
import { Outbox } from '@hub/messaging';
import { lockForTransaction } from '@hub/persistence';
import { JOBS_DS } from '../jobs.di';
import { recordJobAudit } from '../jobs/job-events';
import { ScheduledJobNotFoundError } from '../jobs/jobs.errors';
import { ScheduledJobEntity } from './scheduled-job.entity';

/** Reads and writes of scheduled jobs; every change commits with its audit event (outbox). */
@Injectable()
export class ScheduledJobStore {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  async find(namespace: string, scheduledJobId: string): Promise<ScheduledJobEntity> {
    const s = await this.ds.getRepository(ScheduledJobEntity).findOneBy({ id: scheduledJobId });
    if (!s || s.namespace.toLowerCase() !== namespace.toLowerCase())
      throw new ScheduledJobNotFoundError(scheduledJobId, namespace);
    return s;
  }

  /** A namespace's scheduled jobs, newest first (at most 1000: the per-namespace cap is far below). */
  list(namespace: string): Promise<ScheduledJobEntity[]> {
    return this.ds
      .getRepository(ScheduledJobEntity)
      .createQueryBuilder('s')
      .where('lower(s.namespace) = lower(:ns)', { ns: namespace })
      .orderBy('s.id', 'DESC')
      .take(1000)
      .getMany();
  }

  /** Inserts `s` unless its namespace already has `max` (HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE). */
  async insert(s: ScheduledJobEntity, max: number, ctx: RequestContext): Promise<void> {
    await this.outbox.transaction(async (m) => {
      // Held until commit, so parallel creates in one namespace cannot all see room for one more.
      await lockForTransaction(m, `jobs.scheduled:${s.namespace.toLowerCase()}`);
      const [{ n }] = (await m.query(
        `SELECT count(*)::int AS n FROM jobs.scheduled_jobs WHERE lower(namespace) = lower($1)`,
        [s.namespace],
      )) as { n: number }[];
      if (n >= max)
        throw new LimitReachedError(
          `${s.namespace} has ${n} scheduled jobs`,
          'HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE',
          max,
          'delete one to create another',
        );
      await m.getRepository(ScheduledJobEntity).insert(s);
      await this.audit(m, ctx, s, 'scheduled_job.create');
    });
  }

  async delete(s: ScheduledJobEntity, ctx: RequestContext): Promise<void> {
    await this.outbox.transaction(async (m) => {
      await m.getRepository(ScheduledJobEntity).delete({ id: s.id });
      await this.audit(m, ctx, s, 'scheduled_job.delete');
    });
  }

  /** Saves a changed row with the audit event that says what changed. */
  async save(s: ScheduledJobEntity, type: AuditEventType, ctx: RequestContext): Promise<void> {
    await this.outbox.transaction(async (m) => {
      await m.getRepository(ScheduledJobEntity).save(s);
      await this.audit(m, ctx, s, type);
    });
  }

  /**
   * Writes only `patch`'s columns (not the whole row, so a firing that moved `next_run_at`
   * meanwhile is not undone) with the audit event; `s` is updated to match.
   */
  async update(
    s: ScheduledJobEntity,
    patch: Partial<Pick<ScheduledJobEntity, 'schedule' | 'jobSpec' | 'nextRunAt' | 'updatedAt'>>,
    type: AuditEventType,
    ctx: RequestContext,
  ): Promise<void> {
    Object.assign(s, patch);
    await this.outbox.transaction(async (m) => {
      const { affected } = await m.getRepository(ScheduledJobEntity).update({ id: s.id }, patch);
      if (!affected) throw new ScheduledJobNotFoundError(s.id, s.namespace);
      await this.audit(m, ctx, s, type);
    });
  }

  /** An audit event alone (a run-now). */
  async record(s: ScheduledJobEntity, type: AuditEventType, ctx: RequestContext): Promise<void> {
    await this.outbox.transaction((m) => this.audit(m, ctx, s, type));
  }

  async setLastJob(scheduledJobId: string, jobId: string): Promise<void> {
    await this.ds.query(`UPDATE jobs.scheduled_jobs SET last_job_id = $2 WHERE id = $1`, [scheduledJobId, jobId]);
  }

  private audit(m: EntityManager, ctx: RequestContext, s: ScheduledJobEntity, type: AuditEventType): Promise<void> {
    return recordJobAudit(this.outbox, m, ctx, s, type, `Scheduled job ${s.id}: ${type.split('.')[1]}`, {
      scheduledJobId: s.id,
      schedule: s.schedule,
    });
  }
}
