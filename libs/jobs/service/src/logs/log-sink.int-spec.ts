import { type DataSource } from 'typeorm';
import { JobLogLive, type JobLogLiveEvent } from '@hub/jobs-contract';
import { loadConfig, SecretBox } from '@hub/config';
import { InProcessLiveBus } from '@hub/messaging';
import { openDataSource, runMigrations } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, type TestDatabase } from '@hub/testing';
import { JobsConfig } from '../jobs.config';
import { jobsMigrations } from '../migrations';
import { JobLogs } from './job-logs';

const JOB = '6c0000000000000000000002';

/** A job's lines pushed as they pass the gate and stored under the same seq (decision 0637). */
describeWithInfra('LogSink: pushed and stored alike (real Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let logs: JobLogs;
  const live = new InProcessLiveBus();
  const heard: JobLogLiveEvent[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource({
      schema: 'jobs',
      entities: [],
      migrations: jobsMigrations(new SecretBox('jobs-log-sink-test-key', 'hub-job-secrets')),
      databaseUrl: db.url,
      poolSize: 2,
    });
    await runMigrations(ds, 'jobs');
    // Small chunks (64 lines): a run of lines spans several, each with an id reserved ahead.
    logs = new JobLogs(ds, loadConfig(JobsConfig, { HUB_JOBS_LOG_MAX_LINES: '1024' }), live);
    await live.watch(JobLogLive.of(JOB), (m) => heard.push(m));
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('pushes every line with the seq and time it is stored under, each message linked to the one before, then `ended`', async () => {
    const sink = logs.sink(JOB);
    for (let i = 1; i <= 300; i++) {
      sink.write(`line ${i}`);
      // A few event-loop turns apart, as a job's output comes.
      if (i % 25 === 0) await new Promise((r) => setImmediate(r));
    }
    sink.beat();
    await sink.end();

    const pushed = heard.flatMap((m) => m.lines);
    expect(pushed.map((l) => l.data)).toEqual(Array.from({ length: 300 }, (_, i) => `line ${i + 1}`));
    const stored = await logs.read(JOB, 0, 1000);
    expect(stored).toEqual(pushed);
    // `after` is always the seq last pushed: a listener that sent less knows it missed lines.
    let last = 0;
    for (const m of heard) {
      expect(m.after).toBe(last);
      if (m.lines.length > 0) last = m.lines[m.lines.length - 1].seq;
    }
    expect(heard.filter((m) => m.lines.length === 0 && !m.ended)).toHaveLength(1);
    expect(heard[heard.length - 1]).toEqual({ after: last, lines: [], ended: true });
  });
});
