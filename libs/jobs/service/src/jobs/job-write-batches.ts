import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobStage, LimitReachedError } from '@hub/contracts';
import { Outbox, type OutboxEvent } from '@hub/messaging';
import { JOBS_DS } from '../jobs.di';
import { statusEvent } from './job-events';
import { type JobEntity } from './job.entity';
import { type JobPatch, JobsStore } from './jobs.store';
import { KeyedBatches } from './keyed-batches';

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

/** Which supervisor updates can share a statement: the same stages to move from, the same columns. */
const advanceKind = (from: JobStage[], patch: JobPatch): string => `${from.join()}|${Object.keys(patch).sort().join()}`;

/**
 * The job writes this replica queues and sends in batches (decision 0636): the creates of a
 * namespace and the supervisor's stage updates. It holds the queues (KeyedBatches); the statements
 * are `JobsStore`'s, each written with its status events (`Outbox.write`, decision 0613).
 */
@Injectable()
export class JobWriteBatches {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(Outbox) private readonly outbox: Outbox,
  ) {}

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
      await JobsStore.lockNamespace(m, job.namespace);
      const [{ active }] = await this.outbox.write<{ active: number }>(
        JobsStore.insertStatement(
          m,
          batch.map((c) => c.job),
          job.namespace,
        ),
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
   * `JobsStore.transition` for the supervisor driving the job: one statement (UPDATE … RETURNING
   * with the status event beside it) instead of BEGIN, UPDATE, INSERT, COMMIT. The event is made
   * from the job the supervisor holds and the patch, which is exact because while a job is active
   * only its supervisor changes its message and failure count (a cancel or a sweep changes its
   * stage, and then this update does not apply).
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
      a.resolve(row ? JobsStore.fromRow(this.ds.manager, row) : null);
    }
  }

  private async advanceOne(job: JobEntity, from: JobStage[], patch: JobPatch): Promise<JobEntity | null> {
    const [row] = await this.outbox.write<Record<string, unknown>>(
      JobsStore.advanceStatement(this.ds.manager, job.id, from, patch),
      [statusEvent({ ...job, ...patch })],
    );
    return row ? JobsStore.fromRow(this.ds.manager, row) : null;
  }

  /** The batch's jobs (same `from`, same columns) in one statement, each applied job's status event beside it. */
  private advanceMany(batch: QueuedAdvance[]): Promise<Record<string, unknown>[]> {
    return this.outbox.write<Record<string, unknown>>(
      JobsStore.advanceManyStatement(this.ds.manager, batch[0].from, batch),
      batch.map((a) => statusEvent({ ...a.job, ...a.patch })),
      undefined,
      'id',
    );
  }
}
