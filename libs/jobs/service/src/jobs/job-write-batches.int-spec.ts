import { type DataSource } from 'typeorm';
import { SecretBox } from '@hub/config';
import { type EventBus, Outbox, type OutboxRelay } from '@hub/messaging';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { jobsMigrations } from '../migrations';
import { JobEntity } from './job.entity';
import { JobWriteBatches } from './job-write-batches';

const id = (i: number): string => `6c${i.toString(16).padStart(22, '0')}`;

/** The supervisor's updates, batched (decision 0636): each applies only to a job still in one of `from`. */
describeWithInfra('JobWriteBatches.advance, batched (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: JobWriteBatches;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'jobs',
      entities: [JobEntity],
      migrations: jobsMigrations(new SecretBox('jobs-store-test-key', 'hub-job-secrets')),
      databaseUrl: db.url,
      poolSize: 4,
    });
    await runMigrations(ds, 'jobs');
    const relay = { kick: () => undefined, noteChecked: () => undefined } as unknown as OutboxRelay;
    store = new JobWriteBatches(ds, new Outbox(ds, 'jobs', relay, {} as EventBus));
    // Eight jobs; the sixth and the eighth were canceled before their run started.
    await ds.query(
      `INSERT INTO jobs.jobs (id, namespace, owner, created_by, initiator, spec, stage)
       SELECT '6c' || lpad(to_hex(i), 22, '0'), 'alice', '{"id": "5a0000000000000000000001", "name": "alice", "type": "user"}',
              '{"id": "5a0000000000000000000001", "name": "alice"}', '{"type": "user", "id": "5a0000000000000000000001"}', '{}',
              CASE WHEN i IN (6, 8) THEN 'CANCELED' ELSE 'SCHEDULING' END
         FROM generate_series(1, 8) i`,
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('writes RUNNING, the start, the replica and the handle of each job still SCHEDULING, with a status event for each of those alone', async () => {
    const jobs = await ds.getRepository(JobEntity).find({ order: { id: 'ASC' } });
    const at = (i: number): Date => new Date(Date.UTC(2026, 10, 28, 10, 0, i));
    // Asked at once: the first two go alone, the other six together.
    const started = await Promise.all(
      jobs.map((j, i) =>
        store.advance(j, ['SCHEDULING'], {
          stage: 'RUNNING',
          startedAt: at(i + 1),
          runner: 'replica-1',
          heartbeatAt: at(i + 1),
          message: null,
          runHandle: { kind: 'process', process: { bootId: 'boot', pid: 1000 + i, startTicks: 7 } },
        }),
      ),
    );
    expect(started.map((j) => j?.stage ?? null)).toEqual([
      'RUNNING',
      'RUNNING',
      'RUNNING',
      'RUNNING',
      'RUNNING',
      null,
      'RUNNING',
      null,
    ]);
    const rows = (await ds.query(
      `SELECT id, stage, started_at, heartbeat_at, runner, run_handle->'process'->>'pid' AS pid FROM jobs.jobs ORDER BY id`,
    )) as {
      id: string;
      stage: string;
      started_at: Date | null;
      heartbeat_at: Date | null;
      runner: string | null;
      pid: string | null;
    }[];
    rows.forEach((r, i) => {
      if (i === 5 || i === 7) {
        expect(r).toEqual({
          id: id(i + 1),
          stage: 'CANCELED',
          started_at: null,
          heartbeat_at: null,
          runner: null,
          pid: null,
        });
        return;
      }
      expect(r).toEqual({
        id: id(i + 1),
        stage: 'RUNNING',
        started_at: at(i + 1),
        heartbeat_at: at(i + 1),
        runner: 'replica-1',
        pid: String(1000 + i),
      });
      expect(started[i]?.startedAt).toEqual(at(i + 1));
    });
    const events = (await ds.query(`SELECT aggregate, payload FROM jobs.outbox ORDER BY seq`)) as {
      aggregate: string;
      payload: string;
    }[];
    expect(events.map((e) => e.aggregate).sort()).toEqual([1, 2, 3, 4, 5, 7].map(id));
    expect(events.map((e) => (JSON.parse(e.payload) as { stage: string }).stage)).toEqual(Array(6).fill('RUNNING'));
    // Asked again (a job no longer SCHEDULING): nothing changes, no event.
    expect(
      await store.advance(jobs[0], ['SCHEDULING'], { stage: 'RUNNING', startedAt: at(9), runner: 'replica-2' }),
    ).toBeNull();
    expect(await ds.query(`SELECT count(*)::int AS n FROM jobs.outbox`)).toEqual([{ n: 6 }]);
  });

  it('ends jobs together, each with its own stage, message and failure count', async () => {
    const jobs = await ds.getRepository(JobEntity).find({ order: { id: 'ASC' } });
    const finishedAt = new Date(Date.UTC(2026, 10, 28, 10, 5));
    const ended = await Promise.all([
      ...jobs.map((j, i) =>
        store.advance(j, ['SCHEDULING', 'RUNNING'], {
          stage: i % 2 === 0 ? 'COMPLETED' : 'ERROR',
          message: i % 2 === 0 ? null : `exit ${i}`,
          failureCount: i % 2,
          finishedAt,
          runner: null,
        }),
      ),
    ]);
    expect(ended.map((j) => j?.stage ?? null)).toEqual([
      'COMPLETED',
      'ERROR',
      'COMPLETED',
      'ERROR',
      'COMPLETED',
      null,
      'COMPLETED',
      null,
    ]);
    const rows = (await ds.query(
      `SELECT stage, message, failure_count, finished_at, runner FROM jobs.jobs WHERE stage <> 'CANCELED' ORDER BY id`,
    )) as { stage: string; message: string | null; failure_count: number; finished_at: Date; runner: string | null }[];
    expect(rows).toEqual(
      [0, 1, 2, 3, 4, 6].map((i) => ({
        stage: i % 2 === 0 ? 'COMPLETED' : 'ERROR',
        message: i % 2 === 0 ? null : `exit ${i}`,
        failure_count: i % 2,
        finished_at: finishedAt,
        runner: null,
      })),
    );
    const events = (await ds.query(`SELECT payload FROM jobs.outbox ORDER BY seq OFFSET 6`)) as { payload: string }[];
    expect(
      events
        .map((e) => JSON.parse(e.payload) as { jobId: string; stage: string; message: string | null })
        .map((e) => [e.jobId, e.stage, e.message])
        .sort(),
    ).toEqual(
      [0, 1, 2, 3, 4, 6].map((i) => [id(i + 1), i % 2 === 0 ? 'COMPLETED' : 'ERROR', i % 2 === 0 ? null : `exit ${i}`]),
    );
  });
});
