import { type EntityManager } from 'typeorm';
import { lockForTransaction } from '@hub/persistence';
import { ScheduledJobNotFoundError } from '../jobs/jobs.errors';
import { ScheduledJobEntity } from './scheduled-job.entity';

/** The columns a schedule's change writes (`update`). */
export type ScheduledJobPatch = Partial<Pick<ScheduledJobEntity, 'schedule' | 'jobSpec' | 'nextRunAt' | 'updatedAt'>>;

/** Reads and writes of scheduled jobs; the caller's transaction adds each change's audit event (`recordScheduledJobAudit`). */
export const ScheduledJobsStore = {
  async find(m: EntityManager, namespace: string, scheduledJobId: string): Promise<ScheduledJobEntity> {
    const s = await m.getRepository(ScheduledJobEntity).findOneBy({ id: scheduledJobId });
    if (!s || s.namespace.toLowerCase() !== namespace.toLowerCase())
      throw new ScheduledJobNotFoundError(scheduledJobId, namespace);
    return s;
  },

  /** A namespace's scheduled jobs, newest first (at most 1000: the per-namespace cap is far below). */
  list(m: EntityManager, namespace: string): Promise<ScheduledJobEntity[]> {
    return m
      .getRepository(ScheduledJobEntity)
      .createQueryBuilder('s')
      .where('lower(s.namespace) = lower(:ns)', { ns: namespace })
      .orderBy('s.id', 'DESC')
      .take(1000)
      .getMany();
  },

  /**
   * The namespace's scheduled jobs, counted with the namespace locked until the caller's commit, so
   * parallel creates in one namespace cannot all see room for one more.
   */
  async lockAndCount(m: EntityManager, namespace: string): Promise<number> {
    await lockForTransaction(m, `jobs.scheduled:${namespace.toLowerCase()}`);
    const [{ n }] = (await m.query(
      `SELECT count(*)::int AS n FROM jobs.scheduled_jobs WHERE lower(namespace) = lower($1)`,
      [namespace],
    )) as { n: number }[];
    return n;
  },

  async insert(m: EntityManager, s: ScheduledJobEntity): Promise<void> {
    await m.getRepository(ScheduledJobEntity).insert(s);
  },

  async delete(m: EntityManager, id: string): Promise<void> {
    await m.getRepository(ScheduledJobEntity).delete({ id });
  },

  /** Saves the whole row. */
  async save(m: EntityManager, s: ScheduledJobEntity): Promise<void> {
    await m.getRepository(ScheduledJobEntity).save(s);
  },

  /**
   * Writes only `patch`'s columns (not the whole row, so a firing that moved `next_run_at`
   * meanwhile is not undone); false when the row is gone.
   */
  async update(m: EntityManager, id: string, patch: ScheduledJobPatch): Promise<boolean> {
    const { affected } = await m.getRepository(ScheduledJobEntity).update({ id }, patch);
    return !!affected;
  },

  async setLastJob(m: EntityManager, scheduledJobId: string, jobId: string): Promise<void> {
    await m.query(`UPDATE jobs.scheduled_jobs SET last_job_id = $2 WHERE id = $1`, [scheduledJobId, jobId]);
  },

  /**
   * Up to 50 due, unsuspended schedules, locked until the caller's commit and skipped by any other
   * replica's claim meanwhile (`FOR UPDATE SKIP LOCKED`): each tick fires a schedule once across replicas.
   */
  due(m: EntityManager): Promise<ScheduledJobEntity[]> {
    return m
      .getRepository(ScheduledJobEntity)
      .createQueryBuilder('s')
      .where('s.next_run_at <= now()')
      .andWhere('NOT s.suspend')
      .orderBy('s.next_run_at')
      .take(50)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  },

  async setNextRun(m: EntityManager, id: string, nextRunAt: Date | null): Promise<void> {
    await m.query(`UPDATE jobs.scheduled_jobs SET next_run_at = $2 WHERE id = $1`, [id, nextRunAt]);
  },
};
