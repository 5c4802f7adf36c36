import { type DataSource } from 'typeorm';
import { loadConfig, SecretBox } from '@hub/config';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { JobsConfig } from '../jobs.config';
import { jobsMigrations } from '../migrations';
import { FinishedJobsRetention } from './finished-jobs-retention';

const id = (i: number): string => `6c${i.toString(16).padStart(22, '0')}`;

describeWithInfra('finished jobs retention (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'jobs',
      entities: [],
      migrations: jobsMigrations(new SecretBox('jobs-retention-test-key', 'hub-job-secrets')),
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'jobs');
    // 1,500 jobs finished 100 days ago, 5 running since then, 5 finished yesterday, and one old one a schedule names.
    await ds.query(
      `INSERT INTO jobs.jobs (id, namespace, owner, created_by, initiator, spec, stage, finished_at)
       SELECT '6c' || lpad(to_hex(i), 22, '0'), 'alice', '{}', '{}', '{}', '{}',
              CASE WHEN i BETWEEN 1500 AND 1504 THEN 'RUNNING' WHEN i % 3 = 0 THEN 'ERROR' ELSE 'COMPLETED' END,
              CASE WHEN i BETWEEN 1500 AND 1504 THEN NULL WHEN i > 1504 THEN now() - interval '1 day' ELSE now() - interval '100 days' END
         FROM generate_series(0, 1509) i`,
    );
    await ds.query(
      `INSERT INTO jobs.scheduled_jobs (id, namespace, owner, created_by, schedule, job_spec, last_job_id)
       VALUES ('6d0000000000000000000001', 'alice', '{}', '{}', '@hourly', '{}', $1)`,
      [id(7)],
    );
    // A chunk of log lines for an old job and for one finished yesterday.
    await ds.query(
      `INSERT INTO jobs.job_log_chunks (job_id, ts, lines, bytes) VALUES ($1, ARRAY[now()], ARRAY['old'], 3), ($2, ARRAY[now()], ARRAY['new'], 3)`,
      [id(1), id(1505)],
    );
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('deletes jobs finished longer ago than the retention with their logs, never an active one nor the last run of a schedule', async () => {
    const retention = new FinishedJobsRetention(ds, loadConfig(JobsConfig, { HUB_JOBS_FINISHED_RETENTION_DAYS: '90' }));
    expect(await retention.pass()).toBe(1499);
    const left = (await ds.query(`SELECT id FROM jobs.jobs ORDER BY id`)) as { id: string }[];
    expect(left.map((r) => r.id)).toEqual([7, 1500, 1501, 1502, 1503, 1504, 1505, 1506, 1507, 1508, 1509].map(id));
    // The deleted jobs' logs go with them; a kept job's stay.
    expect(await ds.query(`SELECT job_id FROM jobs.job_log_chunks`)).toEqual([{ job_id: id(1505) }]);
    expect(await retention.pass()).toBe(0);
  });
});
