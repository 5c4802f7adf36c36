import { type DataSource } from 'typeorm';
import { loadConfig, SecretBox } from '@hub/config';
import { InProcessLiveBus } from '@hub/messaging';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { JobsConfig } from '../jobs.config';
import { JobLogs } from '../logs/job-logs';
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
