import { type EntityManager } from 'typeorm';
import { deleteInBatches, lockForTransaction } from '@hub/persistence';
import { type JobStage } from '@hub/contracts';
import { JobEntity } from './job.entity';
import { JobNotFoundError } from './jobs.errors';

export const ACTIVE_STAGES: JobStage[] = ['SCHEDULING', 'RUNNING'];

export type JobPatch = Partial<
  Pick<
    JobEntity,
    | 'stage'
    | 'message'
    | 'failureCount'
    | 'startedAt'
    | 'finishedAt'
    | 'runner'
    | 'heartbeatAt'
    | 'labels'
    | 'runHandle'
  >
>;

export interface JobPageQuery {
  namespace: string;
  limit: number;
  /** Any of them. */
  stages?: JobStage[];
  /** Every one must match (jsonb containment). */
  labels: Record<string, string>;
  /** Ids below this one (the previous page's last). */
  cursor?: string;
}

/** Active jobs of one stage: how many, and the seconds since the oldest was created. */
export interface ActiveStageRow {
  stage: string;
  n: string;
  oldest: string | null;
}

/** A data-modifying statement for `Outbox.write`, which writes it with its events in one statement. */
export interface JobStatement {
  sql: string;
  parameters: unknown[];
}

/**
 * Reads and conditional writes of jobs. The writes whose events go in the same statement
 * (`Outbox.write`, decision 0613) are answered as statements: the caller runs them with the events
 * (`JobWriteBatches`), and `fromRow` makes the jobs of the rows they return.
 */
export const JobsStore = {
  async find(m: EntityManager, namespace: string, jobId: string): Promise<JobEntity> {
    const j = await m.getRepository(JobEntity).findOneBy({ id: jobId });
    if (!j || j.namespace.toLowerCase() !== namespace.toLowerCase() || j.stage === 'DELETED')
      throw new JobNotFoundError(jobId, namespace);
    return j;
  },

  /** Newest first, `limit + 1` rows (the extra one says a next page exists); DELETED jobs never. */
  page(m: EntityManager, q: JobPageQuery): Promise<JobEntity[]> {
    const query = m
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .where('lower(j.namespace) = lower(:ns)', { ns: q.namespace })
      .andWhere(`j.stage <> 'DELETED'`)
      .orderBy('j.id', 'DESC')
      .take(q.limit + 1);
    if (q.stages) query.andWhere('j.stage IN (:...stages)', { stages: q.stages });
    if (Object.keys(q.labels).length > 0)
      query.andWhere('j.labels @> :labels::jsonb', { labels: JSON.stringify(q.labels) });
    if (q.cursor) query.andWhere('j.id < :cursor', { cursor: q.cursor });
    return query.getMany();
  },

  byId(m: EntityManager, jobId: string): Promise<JobEntity | null> {
    return m.getRepository(JobEntity).findOneBy({ id: jobId });
  },

  /**
   * Applies the patch only while the job is in one of `from` (so a cancel and an exit cannot both
   * win), in the caller's transaction; returns the updated job, or null when it had moved on. A
   * patch with a `stage` or a `failureCount` is a stage change: the caller adds its status event
   * (`recordStatus`) in the same transaction.
   */
  async transition(m: EntityManager, jobId: string, from: JobStage[], patch: JobPatch): Promise<JobEntity | null> {
    // One conditional UPDATE … RETURNING, which locks the row as it writes it: one round trip
    // instead of SELECT … FOR UPDATE then UPDATE (cancel, relabel, sweep; the supervisor uses `advance`).
    const result = await m
      .createQueryBuilder()
      .update(JobEntity)
      .set({ ...patch, updatedAt: new Date() })
      .where('id = :id AND stage IN (:...from)', { id: jobId, from })
      .returning('*')
      .callListeners(false)
      .updateEntity(false)
      .execute();
    const row = (result.raw as Record<string, unknown>[])[0];
    return row ? JobsStore.fromRow(m, row) : null;
  },

  /** A job from a row RETURNING * gave (column names, database values). */
  fromRow(m: EntityManager, row: Record<string, unknown>): JobEntity {
    const j = new JobEntity();
    for (const column of m.connection.getMetadata(JobEntity).columns) {
      column.setEntityValue(j, m.connection.driver.prepareHydratedValue(row[column.databaseName], column));
    }
    return j;
  },

  /**
   * Held until commit: parallel creates in one namespace (from other replicas) count one after
   * the other, so they cannot all see room for one more (without it each statement's snapshot
   * would miss the others' uncommitted rows). The count runs in the next statement, whose
   * snapshot is taken once the lock is held, so it sees every job committed before; it does
   * not see the rows its own statement inserts.
   */
  async lockNamespace(m: EntityManager, namespace: string): Promise<void> {
    await lockForTransaction(m, `jobs.namespace:${namespace.toLowerCase()}`);
  },

  /** One INSERT of `jobs` (all of `namespace`), returning per row `active`: the namespace's other active jobs. */
  insertStatement(m: EntityManager, jobs: JobEntity[], namespace: string): JobStatement {
    const [sql, parameters] = m
      .createQueryBuilder()
      .insert()
      .into(JobEntity)
      .values(jobs)
      .callListeners(false)
      .updateEntity(false)
      .getQueryAndParameters();
    const ns = parameters.length + 1;
    return {
      sql: `${sql} RETURNING (SELECT count(*)::int FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND lower(namespace) = lower($${ns})) AS active`,
      parameters: [...parameters, namespace],
    };
  },

  /** `transition` of one job as one statement (UPDATE … RETURNING *), for `Outbox.write`. */
  advanceStatement(m: EntityManager, jobId: string, from: JobStage[], patch: JobPatch): JobStatement {
    const [sql, parameters] = m
      .createQueryBuilder()
      .update(JobEntity)
      .set({ ...patch, updatedAt: new Date() })
      .where('id = :id AND stage IN (:...from)', { id: jobId, from })
      .returning('*')
      .getQueryAndParameters();
    return { sql, parameters };
  },

  /**
   * The jobs' patches (the same columns) in one UPDATE, each value from an array of its column's
   * type, applied to those still in one of `from`; returns `j.*` of each updated job.
   */
  advanceManyStatement(
    m: EntityManager,
    from: JobStage[],
    changes: { job: Pick<JobEntity, 'id'>; patch: JobPatch }[],
  ): JobStatement {
    const meta = m.connection.getMetadata(JobEntity);
    const keys = Object.keys(changes[0].patch) as (keyof JobPatch)[];
    const parameters: unknown[] = [changes.map((a) => a.job.id), from];
    const columns = keys.map((key) => {
      const column = meta.findColumnWithPropertyName(key);
      if (!column) throw new Error(`no column ${key}`);
      parameters.push(changes.map((a) => m.connection.driver.preparePersistentValue(a.patch[key], column) as unknown));
      return { name: `"${column.databaseName}"`, type: String(column.type), n: parameters.length };
    });
    return {
      sql: `UPDATE jobs.jobs j SET ${columns.map((c) => `${c.name} = b.${c.name}`).join(', ')}, updated_at = now()
          FROM unnest($1::char(24)[]${columns.map((c) => `, $${c.n}::${c.type}[]`).join('')}) AS b(id${columns.map((c) => `, ${c.name}`).join('')})
          WHERE j.id = b.id AND j.stage = ANY($2::varchar[]) RETURNING j.*`,
      parameters,
    };
  },

  /**
   * A running replica's sign of life, with each job's resource sample (null: keep the last), in
   * one statement per heartbeat; returns those of the jobs that were canceled (by any replica).
   */
  async heartbeat(m: EntityManager, beats: { id: string; metrics: JobEntity['metrics'] }[]): Promise<string[]> {
    if (beats.length === 0) return [];
    const rows = await m.query<{ id: string }[]>(
      `WITH touched AS (
         UPDATE jobs.jobs j SET heartbeat_at = now(), metrics = coalesce(b.metrics, j.metrics)
           FROM unnest($1::char(24)[], $2::jsonb[]) AS b(id, metrics) WHERE j.id = b.id RETURNING j.id, j.stage)
       SELECT id FROM touched WHERE stage = 'CANCELED'`,
      [beats.map((b) => b.id), beats.map((b) => (b.metrics ? JSON.stringify(b.metrics) : null))],
    );
    return rows.map((r) => r.id);
  },

  /** Active jobs nobody has touched for `staleMs` (and not ours): their replica is gone. */
  async stale(m: EntityManager, staleMs: number, replica: string): Promise<string[]> {
    const rows = await m.query<{ id: string }[]>(
      `SELECT id FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND runner IS DISTINCT FROM $2 AND coalesce(heartbeat_at, created_at) < now() - make_interval(secs => $1)`,
      [staleMs / 1000, replica],
    );
    return rows.map((r) => r.id);
  },

  /** Where an attempt runs and who drives it (the job row keeps it until the next attempt). */
  async setHandle(m: EntityManager, id: string, handle: NonNullable<JobEntity['runHandle']>): Promise<void> {
    await m.query(`UPDATE jobs.jobs SET run_handle = $2 WHERE id = $1`, [id, JSON.stringify(handle)]);
  },

  /** Active jobs driven by another service process of this machine (boot): the sweeper checks whether it still lives. */
  async orphansOf(
    m: EntityManager,
    bootId: string,
    replica: string,
  ): Promise<{ id: string; handle: NonNullable<JobEntity['runHandle']> }[]> {
    const rows = await m.query<{ id: string; run_handle: NonNullable<JobEntity['runHandle']> }[]>(
      `SELECT id, run_handle FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND run_handle->'supervisor'->>'bootId' = $1 AND runner IS DISTINCT FROM $2`,
      [bootId, replica],
    );
    return rows.map((r) => ({ id: r.id, handle: r.run_handle }));
  },

  /** Jobs not finished yet, by stage: one query on the partial index of active jobs (jobs_active). */
  activeByStage(m: EntityManager): Promise<ActiveStageRow[]> {
    return m.query(
      `SELECT stage, count(*) AS n, EXTRACT(EPOCH FROM now() - min(created_at)) AS oldest
             FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') GROUP BY stage`,
    );
  },

  /**
   * Deletes the jobs finished more than `retentionDays` ago with their log chunks, 1,000 a
   * statement until none is left: never an active one, nor the last run of a scheduled job (its
   * view names it). Answers how many went.
   */
  deleteFinished(m: EntityManager, retentionDays: number): Promise<number> {
    return deleteInBatches(
      m,
      `WITH doomed AS (
         SELECT j.id FROM jobs.jobs j
          WHERE j.stage NOT IN ('SCHEDULING', 'RUNNING') AND j.finished_at IS NOT NULL
            AND j.finished_at < now() - make_interval(secs => $1::float8 * 86400)
            AND NOT EXISTS (SELECT 1 FROM jobs.scheduled_jobs s WHERE s.last_job_id = j.id)
          LIMIT $2),
       logs AS (DELETE FROM jobs.job_log_chunks c USING doomed d WHERE c.job_id = d.id)
       DELETE FROM jobs.jobs WHERE id IN (SELECT id FROM doomed)`,
      [retentionDays],
    );
  },
};
