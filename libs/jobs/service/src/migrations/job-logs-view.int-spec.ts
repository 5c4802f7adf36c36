import { type DataSource } from 'typeorm';
import { loadConfig, SecretBox } from '@hub/config';
import { InProcessLiveBus } from '@hub/messaging';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { JobsConfig } from '../jobs.config';
import { JobLogs } from '../logs/job-logs';
import { JobLogChunks1764000500000 } from './1764000500000-job-log-chunks';
import { jobsMigrations } from '.';

/** 0.1.0's JobLogs statements, word for word (libs/service-jobs/src/logs/job-logs.ts at edf7198). */
const OLD = {
  append: `INSERT INTO jobs.job_logs (job_id, ts, line) SELECT $1, t.ts, t.line FROM unnest($2::timestamptz[], $3::text[]) WITH ORDINALITY AS t(ts, line, n) ORDER BY t.n`,
  dropOldest: `DELETE FROM jobs.job_logs WHERE job_id = $1 AND seq IN (SELECT seq FROM jobs.job_logs WHERE job_id = $1 ORDER BY seq LIMIT $2)`,
  read: `SELECT seq, line, ts FROM jobs.job_logs WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT 5000`,
  tail: `SELECT * FROM (SELECT seq, line, ts FROM jobs.job_logs WHERE job_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) t ORDER BY seq`,
};
const JOB = '6c0000000000000000000001';

/**
 * Expand/contract (decision 0207): the previous release's jobs service, running beside this
 * release's schema during a rolling upgrade, still appends, reads and trims its jobs' logs, and
 * this release reads what it wrote.
 */
describeWithInfra('jobs.job_logs for the previous release (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let logs: JobLogs;
  const oldRead = async (after: number): Promise<{ seq: number; line: string }[]> =>
    ((await ds.query(OLD.read, [JOB, after])) as { seq: string; line: string }[]).map((r) => ({
      seq: Number(r.seq),
      line: r.line,
    }));

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'jobs',
      entities: [],
      migrations: jobsMigrations(new SecretBox('jobs-log-view-test-key', 'hub-job-secrets')),
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'jobs');
    logs = new JobLogs(ds, loadConfig(JobsConfig, {}), new InProcessLiveBus());
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it("stores the previous release's lines where this release reads them, numbered alike, and trims them", async () => {
    // This release wrote the job's first lines; the previous release's replica then takes over.
    const t = new Date().toISOString();
    const [id] = await logs.reserve(1);
    await logs.insert(JOB, id, [], ['one', 'two'], [t, t], 6);
    await ds.query(OLD.append, [JOB, [t, t], ['three', 'four']]);

    const mine = await logs.read(JOB, 0);
    expect(mine.map((l) => l.data)).toEqual(['one', 'two', 'three', 'four']);
    // The previous release reads every line in order, with the seqs this release gives them.
    expect(await oldRead(0)).toEqual(mine.map((l) => ({ seq: l.seq, line: l.data })));
    expect(await oldRead(mine[1].seq)).toEqual([
      { seq: mine[2].seq, line: 'three' },
      { seq: mine[3].seq, line: 'four' },
    ]);
    const tail = (await ds.query(OLD.tail, [JOB, 0, 1])) as { line: string }[];
    expect(tail.map((r) => r.line)).toEqual(['four']);

    // Its cap drops the oldest lines it can: its own one-line chunks; this release's chunk stays whole.
    await ds.query(OLD.dropOldest, [JOB, 3]);
    expect((await logs.read(JOB, 0)).map((l) => l.data)).toEqual(['one', 'two', 'four']);
  });

  it('goes away with its down, and the chunks stay', async () => {
    await ds.undoLastMigration({ transaction: 'each' });
    await expect(ds.query(OLD.read, [JOB, 0])).rejects.toThrow(/job_logs/);
    expect((await logs.read(JOB, 0)).map((l) => l.data)).toEqual(['one', 'two', 'four']);
  });
});

/**
 * The rolling upgrade from 0.1.0 (decision 0207): its jobs service appends lines while this
 * release's migrations run. test:k8s's upgrade lost one (29 Nov): committed after the chunks'
 * copy, before the table's drop. Now the migration locks the table first and makes the view in the
 * same transaction: an insert in flight is copied, one that comes meanwhile goes through the view.
 */
describeWithInfra('jobs.job_logs while the chunks migration runs (real Postgres)', () => {
  const box = new SecretBox('jobs-log-view-test-key', 'hub-job-secrets');
  let db: TestDatabase;
  const open = (migrations: (new () => unknown)[]): Promise<DataSource> =>
    // Room for the open transaction, the waiting insert and the looks at pg_locks.
    openDataSource({ schema: 'jobs', entities: [], migrations, databaseUrl: db.url, poolSize: 4 });
  /** Sessions waiting for a lock on jobs.job_logs. */
  const waiting = async (ds: DataSource): Promise<number> =>
    Number(
      (
        (await ds.query(
          `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = 'jobs.job_logs'::regclass`,
        )) as { n: string }[]
      )[0].n,
    );
  const until = async (what: () => Promise<boolean>): Promise<void> => {
    while (!(await what())) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it("keeps the line of an insert in flight and of one that waits on the migration's lock", async () => {
    // The schema as 0.1.0 left it: the migrations before the chunks.
    const all = jobsMigrations(box);
    const before = await open(all.slice(0, all.indexOf(JobLogChunks1764000500000)));
    await runMigrations(before, 'jobs');
    const t = new Date().toISOString();
    // 0.1.0 appends one line in a transaction still open when the migration starts...
    const inFlight = before.createQueryRunner();
    await inFlight.connect();
    await inFlight.startTransaction();
    await inFlight.query(OLD.append, [JOB, [t], ['in flight']]);
    const after = await open(all);
    const migrating = runMigrations(after, 'jobs');
    await until(async () => (await waiting(before)) === 1);
    // ...and another one while the migration waits for it (queued behind the migration's lock).
    const meanwhile = before.query(OLD.append, [JOB, [t], ['meanwhile']]);
    await until(async () => (await waiting(before)) === 2);
    await inFlight.commitTransaction();
    await inFlight.release();
    await migrating;
    await meanwhile;

    const logs = new JobLogs(after, loadConfig(JobsConfig, {}), new InProcessLiveBus());
    expect((await logs.read(JOB, 0)).map((l) => l.data)).toEqual(['in flight', 'meanwhile']);
    await before.destroy();
    await after.destroy();
  });
});
