import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { lockForTransaction } from '@hub/persistence';
import { type JobStage, LimitReachedError } from '@hub/contracts';
import { Outbox, type OutboxEvent } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { recordStatus, statusEvent } from './job-events';
import { JobEntity } from './job.entity';
import { JobNotFoundError } from './jobs.errors';
import { KeyedBatches } from './keyed-batches';

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

/** At most this many creates of one namespace go in one transaction, and this many such transactions at once. */
const MAX_CREATE_BATCH = 100;
const CREATE_BATCHES_AT_ONCE = 2;

interface QueuedCreate {
  job: JobEntity;
  events: OutboxEvent[];
  maxActive: number;
  resolve(): void;
  reject(e: unknown): void;
}

/** At most this many supervisor updates go in one statement, and this many such statements at once. */
const MAX_ADVANCE_BATCH = 100;
const ADVANCE_BATCHES_AT_ONCE = 2;

interface QueuedAdvance {
  job: JobEntity;
  from: JobStage[];
  patch: JobPatch;
  resolve(j: JobEntity | null): void;
  reject(e: unknown): void;
}

/** A batch of creates would pass the namespace's cap (rolled back): `active` other jobs were active. */
class BatchOverCap extends Error {
  constructor(readonly active: number) {
    super(`${active} active`);
  }
}

const limitReached = (namespace: string, active: number, maxActive: number): LimitReachedError =>
  new LimitReachedError(
    `${namespace} has ${active} active jobs`,
    'HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE',
    maxActive,
    'wait for one to finish or cancel one',
  );

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

/** Which supervisor updates can share a statement: the same stages to move from, the same columns. */
const advanceKind = (from: JobStage[], patch: JobPatch): string => `${from.join()}|${Object.keys(patch).sort().join()}`;

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
   * others were under way together, in one transaction (BEGIN, the lock, one INSERT of every job
   * and its events that counts the namespace's other active jobs, COMMIT). Two batches go at once:
   * the second waits on the lock in the database, so it writes as soon as the first commits (its
   * BEGIN and lock request already sent), and its creates are answered after the first's, so jobs
   * are launched in the order they were created. Waiting here instead of on the lock keeps pool
   * connections free for the jobs already admitted. A batch that would pass the cap rolls back;
   * then the first ones that fit go again as a batch, and the rest are refused (tryBatch).
   */
  insert(job: JobEntity, events: OutboxEvent[], maxActive: number): Promise<void> {
    return new Promise((resolve, reject) =>
      this.creates.add(job.namespace.toLowerCase(), { job, events, maxActive, resolve, reject }),
    );
  }

  /** Creates by namespace (KeyedBatches): one transaction per batch, answered in order. */
  private readonly creates = new KeyedBatches<QueuedCreate>(MAX_CREATE_BATCH, CREATE_BATCHES_AT_ONCE, (batch) =>
    this.writeBatch(batch),
  );

  /** Writes a batch; answers its creates when called (never throws). */
  private async writeBatch(batch: QueuedCreate[]): Promise<() => void> {
    const results = await this.tryBatch(batch);
    return () => batch.forEach((c, i) => (results[i] === true ? c.resolve() : c.reject(results[i])));
  }

  /**
   * Each create's result: true, or the error it answers. Past the cap, the first ones that fit
   * are written again as a batch and the rest refused once they are (the namespace then has
   * `maxActive` active jobs); any other error of a batch: one by one, so each gets its own answer.
   */
  private async tryBatch(batch: QueuedCreate[]): Promise<(true | unknown)[]> {
    try {
      await this.insertBatch(batch);
      return batch.map(() => true);
    } catch (e) {
      if (batch.length === 1) return [e];
      if (!(e instanceof BatchOverCap)) {
        const results: (true | unknown)[] = [];
        for (const c of batch) results.push(...(await this.tryBatch([c])));
        return results;
      }
      const { job, maxActive } = batch[0];
      const room = Math.max(0, maxActive - e.active);
      if (room === 0) return batch.map(() => limitReached(job.namespace, e.active, maxActive));
      const head = await this.tryBatch(batch.slice(0, room));
      // Every one that fit was written: the namespace is full for the rest. Otherwise they try again.
      const tail = head.every((r) => r === true)
        ? batch.slice(room).map(() => limitReached(job.namespace, maxActive, maxActive))
        : await this.tryBatch(batch.slice(room));
      return [...head, ...tail];
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
        if (batch.length > 1) throw new BatchOverCap(active);
        throw limitReached(job.namespace, active, maxActive);
      }
    });
  }

  /**
   * `transition` for the supervisor driving the job: one statement (UPDATE … RETURNING with the
   * status event beside it) instead of BEGIN, UPDATE, INSERT, COMMIT. The event is made from the
   * job the supervisor holds and the patch, which is exact because while a job is active only its
   * supervisor changes its message and failure count (a cancel or a sweep changes its stage, and
   * then this update does not apply).
   *
   * Batched (decision 0636), by kind (the same `from`, the same patched columns): the first goes
   * at once; those asked while batches of their kind are under way go next together, in one
   * statement (UPDATE … FROM unnest(…) … RETURNING, each applied job's status event beside it; at
   * most two such statements of a kind at once): a burst of launches or exits costs a round trip
   * per batch, not per job.
   */
  advance(job: JobEntity, from: JobStage[], patch: JobPatch): Promise<JobEntity | null> {
    // Each kind on its own: a launch's RUNNING never waits behind a batch of exits.
    return new Promise((resolve, reject) =>
      this.advances.add(advanceKind(from, patch), { job, from, patch, resolve, reject }),
    );
  }

  /** Updates by kind (`advanceKind`, KeyedBatches): one statement per batch. */
  private readonly advances = new KeyedBatches<QueuedAdvance>(
    MAX_ADVANCE_BATCH,
    ADVANCE_BATCHES_AT_ONCE,
    async (batch) => {
      await this.writeAdvances(batch);
      return () => undefined;
    },
  );

  /** One statement for the batch, each job's answer from it; on an error, each alone (so each gets its own). */
  private async writeAdvances(batch: QueuedAdvance[]): Promise<void> {
    if (batch.length === 1) {
      const [{ job, from, patch, resolve, reject }] = batch;
      await this.advanceOne(job, from, patch).then(resolve, reject);
      return;
    }
    let rows: Record<string, unknown>[];
    try {
      rows = await this.advanceMany(batch);
    } catch {
      await Promise.all(batch.map((a) => this.writeAdvances([a])));
      return;
    }
    const byId = new Map(rows.map((row) => [String(row['id']), row]));
    for (const a of batch) {
      const row = byId.get(a.job.id);
      a.resolve(row ? hydrate(this.ds.manager, row) : null);
    }
  }

  private async advanceOne(job: JobEntity, from: JobStage[], patch: JobPatch): Promise<JobEntity | null> {
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

  /** The batch's jobs (same `from`, same columns) in one UPDATE, each value from an array of its column's type. */
  private advanceMany(batch: QueuedAdvance[]): Promise<Record<string, unknown>[]> {
    const meta = this.ds.getMetadata(JobEntity);
    const keys = Object.keys(batch[0].patch) as (keyof JobPatch)[];
    const parameters: unknown[] = [batch.map((a) => a.job.id), batch[0].from];
    const columns = keys.map((key) => {
      const column = meta.findColumnWithPropertyName(key);
      if (!column) throw new Error(`no column ${key}`);
      parameters.push(batch.map((a) => this.ds.driver.preparePersistentValue(a.patch[key], column) as unknown));
      return { name: `"${column.databaseName}"`, type: String(column.type), n: parameters.length };
    });
    return this.outbox.write<Record<string, unknown>>(
      {
        sql: `UPDATE jobs.jobs j SET ${columns.map((c) => `${c.name} = b.${c.name}`).join(', ')}, updated_at = now()
          FROM unnest($1::char(24)[]${columns.map((c) => `, $${c.n}::${c.type}[]`).join('')}) AS b(id${columns.map((c) => `, ${c.name}`).join('')})
          WHERE j.id = b.id AND j.stage = ANY($2::varchar[]) RETURNING j.*`,
        parameters,
      },
      batch.map((a) => statusEvent({ ...a.job, ...a.patch })),
      undefined,
      'id',
    );
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
