import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { lockForTransaction } from '@hub/persistence';
import { type JobStage, LimitReachedError } from '@hub/contracts';
import { Outbox, type OutboxEvent } from '@hub/messaging';
import { JOBS_DS } from '../jobs.tokens';
import { recordStatus, statusEvent } from './job-events';
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

/** At most this many creates of one namespace go in one transaction. */
const MAX_CREATE_BATCH = 100;

interface QueuedCreate {
  job: JobEntity;
  events: OutboxEvent[];
  maxActive: number;
  resolve(): void;
  reject(e: unknown): void;
}

/** A batch of creates would pass the namespace's cap: rolled back, its creates go one by one. */
class BatchOverCap extends Error {}

/** A job from a row RETURNING * gave (column names, database values). */
function hydrate(m: EntityManager, row: Record<string, unknown>): JobEntity {
  const j = new JobEntity();
  for (const column of m.connection.getMetadata(JobEntity).columns) {
    column.setEntityValue(j, m.connection.driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return j;
}

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

/** Reads and conditional writes of jobs; every stage change goes out on the bus with it. */
@Injectable()
export class JobStore {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

  async find(namespace: string, jobId: string): Promise<JobEntity> {
    const j = await this.ds.getRepository(JobEntity).findOneBy({ id: jobId });
    if (!j || j.namespace.toLowerCase() !== namespace.toLowerCase() || j.stage === 'DELETED')
      throw new JobNotFoundError(jobId, namespace);
    return j;
  }

  /** Newest first, `limit + 1` rows (the extra one says a next page exists); DELETED jobs never. */
  page(q: JobPageQuery): Promise<JobEntity[]> {
    const query = this.ds
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
  }

  byId(jobId: string): Promise<JobEntity | null> {
    return this.ds.getRepository(JobEntity).findOneBy({ id: jobId });
  }

  /**
   * Applies the patch only while the job is in one of `from` (so a cancel and an exit cannot both
   * win); returns the updated job, or null when it had moved on. `extra` runs in the same transaction.
   * A patch with a `stage` moves the job to a stage outside `from` (every caller does), so it is a
   * stage change and goes out on the bus.
   */
  async transition(
    jobId: string,
    from: JobStage[],
    patch: JobPatch,
    extra?: (m: EntityManager, j: JobEntity) => Promise<void>,
  ): Promise<JobEntity | null> {
    return this.outbox.transaction(async (m) => {
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
      if (!row) return null;
      const j = hydrate(m, row);
      if (patch.stage !== undefined || patch.failureCount !== undefined) await recordStatus(this.outbox, m, j);
      if (extra) await extra(m, j);
      return j;
    });
  }

  /**
   * A new job with its status event and `events`, refused (LimitReachedError) when its namespace
   * already has `maxActive` active jobs (HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE).
   *
   * The count needs the namespace's lock until the commit, so creates in one namespace are serial
   * (decision 0636): this replica queues its own by namespace and sends those that arrived while
   * one was under way together, in one transaction (BEGIN, the lock, one INSERT of every job and
   * its events that counts the namespace's other active jobs, COMMIT). Waiting here instead of on
   * the lock keeps pool connections free for the jobs already admitted. A batch that would pass
   * the cap (or fails) rolls back and its jobs are created one by one, in order, the later ones refused.
   */
  insert(job: JobEntity, events: OutboxEvent[], maxActive: number): Promise<void> {
    const key = job.namespace.toLowerCase();
    return new Promise((resolve, reject) => {
      const queued = this.creates.get(key);
      const create: QueuedCreate = { job, events, maxActive, resolve, reject };
      if (queued) queued.push(create);
      else {
        this.creates.set(key, [create]);
        void this.createAll(key);
      }
    });
  }

  /** Creates by namespace: each entry's first batch is being written, the rest waits for the next one. */
  private readonly creates = new Map<string, QueuedCreate[]>();

  private async createAll(key: string): Promise<void> {
    for (;;) {
      const queued = this.creates.get(key) ?? [];
      const batch = queued.splice(0, MAX_CREATE_BATCH);
      if (batch.length === 0) {
        this.creates.delete(key);
        return;
      }
      try {
        await this.insertBatch(batch);
        batch.forEach((c) => c.resolve());
      } catch (e) {
        if (batch.length === 1) batch[0].reject(e);
        // Over the cap, or one job's own error: one by one, so each gets its own answer.
        else for (const c of batch) await this.insertBatch([c]).then(c.resolve, c.reject);
      }
    }
  }

  /** One transaction for the batch; BatchOverCap (rolled back) when more than one would not all fit. */
  private async insertBatch(batch: QueuedCreate[]): Promise<void> {
    const [{ job, maxActive }] = batch;
    await this.outbox.transaction(async (m) => {
      // Held until commit: parallel creates in one namespace (from other replicas) count one after
      // the other, so they cannot all see room for one more (without it each statement's snapshot
      // would miss the others' uncommitted rows). The count runs in the next statement, whose
      // snapshot is taken once the lock is held, so it sees every job committed before; it does
      // not see the rows its own statement inserts.
      await lockForTransaction(m, `jobs.namespace:${job.namespace.toLowerCase()}`);
      const [sql, parameters] = m
        .createQueryBuilder()
        .insert()
        .into(JobEntity)
        .values(batch.map((c) => c.job))
        .callListeners(false)
        .updateEntity(false)
        .getQueryAndParameters();
      const ns = parameters.length + 1;
      const [{ active }] = await this.outbox.write<{ active: number }>(
        {
          sql: `${sql} RETURNING (SELECT count(*)::int FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND lower(namespace) = lower($${ns})) AS active`,
          parameters: [...parameters, job.namespace],
        },
        batch.flatMap((c) => [statusEvent(c.job), ...c.events]),
        m,
      );
      if (active + batch.length > maxActive) {
        if (batch.length > 1) throw new BatchOverCap();
        throw new LimitReachedError(
          `${job.namespace} has ${active} active jobs`,
          'HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE',
          maxActive,
          'wait for one to finish or cancel one',
        );
      }
    });
  }

  /**
   * `transition` for the supervisor driving the job: one statement (UPDATE … RETURNING with the
   * status event beside it) instead of BEGIN, UPDATE, INSERT, COMMIT. The event is made from the
   * job the supervisor holds and the patch, which is exact because while a job is active only its
   * supervisor changes its message and failure count (a cancel or a sweep changes its stage, and
   * then this update does not apply).
   */
  async advance(job: JobEntity, from: JobStage[], patch: JobPatch): Promise<JobEntity | null> {
    const [sql, parameters] = this.ds
      .createQueryBuilder()
      .update(JobEntity)
      .set({ ...patch, updatedAt: new Date() })
      .where('id = :id AND stage IN (:...from)', { id: job.id, from })
      .returning('*')
      .getQueryAndParameters();
    const [row] = await this.outbox.write<Record<string, unknown>>({ sql, parameters }, [
      statusEvent({ ...job, ...patch }),
    ]);
    return row ? hydrate(this.ds.manager, row) : null;
  }

  /**
   * A running replica's sign of life, with each job's resource sample (null: keep the last), in
   * one statement per heartbeat; returns those of the jobs that were canceled (by any replica).
   */
  async heartbeat(beats: { id: string; metrics: JobEntity['metrics'] }[]): Promise<string[]> {
    if (beats.length === 0) return [];
    const rows = await this.ds.query<{ id: string }[]>(
      `WITH touched AS (
         UPDATE jobs.jobs j SET heartbeat_at = now(), metrics = coalesce(b.metrics, j.metrics)
           FROM unnest($1::char(24)[], $2::jsonb[]) AS b(id, metrics) WHERE j.id = b.id RETURNING j.id, j.stage)
       SELECT id FROM touched WHERE stage = 'CANCELED'`,
      [beats.map((b) => b.id), beats.map((b) => (b.metrics ? JSON.stringify(b.metrics) : null))],
    );
    return rows.map((r) => r.id);
  }

  /** Active jobs nobody has touched for `staleMs` (and not ours): their replica is gone. */
  async stale(staleMs: number, replica: string): Promise<string[]> {
    const rows = await this.ds.query<{ id: string }[]>(
      `SELECT id FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND runner IS DISTINCT FROM $2 AND coalesce(heartbeat_at, created_at) < now() - make_interval(secs => $1)`,
      [staleMs / 1000, replica],
    );
    return rows.map((r) => r.id);
  }

  /** Where an attempt runs and who drives it (the job row keeps it until the next attempt). */
  async setHandle(id: string, handle: NonNullable<JobEntity['runHandle']>): Promise<void> {
    await this.ds.query(`UPDATE jobs.jobs SET run_handle = $2 WHERE id = $1`, [id, JSON.stringify(handle)]);
  }

  /** Active jobs driven by another service process of this machine (boot): the sweeper checks whether it still lives. */
  async orphansOf(
    bootId: string,
    replica: string,
  ): Promise<{ id: string; handle: NonNullable<JobEntity['runHandle']> }[]> {
    const rows = await this.ds.query<{ id: string; run_handle: NonNullable<JobEntity['runHandle']> }[]>(
      `SELECT id, run_handle FROM jobs.jobs WHERE stage IN ('SCHEDULING', 'RUNNING') AND run_handle->'supervisor'->>'bootId' = $1 AND runner IS DISTINCT FROM $2`,
      [bootId, replica],
    );
    return rows.map((r) => ({ id: r.id, handle: r.run_handle }));
  }
}
