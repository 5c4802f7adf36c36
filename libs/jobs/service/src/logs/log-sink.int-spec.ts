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
/** Four jobs created here: two chunk statements at once, so the other two jobs' chunks wait and go together. */
const CREATED = [
  '6c0000000000000000000003',
  '6c0000000000000000000004',
  '6c0000000000000000000005',
  '6c0000000000000000000006',
];

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

  it('a job created here: ids from the pool, increasing; chunks of jobs at once in one statement; past the budget the oldest chunks go in that statement', async () => {
    const pushed = new Map<string, JobLogLiveEvent[]>(CREATED.map((id) => [id, []]));
    for (const [id, list] of pushed) await live.watch(JobLogLive.of(id), (m) => list.push(m));
    const query = jest.spyOn(ds.manager, 'query');
    const sinks = CREATED.map((id) => logs.sink(id, true));
    for (let i = 1; i <= 2000; i++) {
      for (const [k, sink] of sinks.entries()) sink.write(`${k} ${i}`);
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(sinks.map((s) => s.end()));
    // Chunks of several jobs went together, and the drops in the inserts' statements.
    const inserts = query.mock.calls
      .map(([sql]) => sql)
      .filter((sql) => sql.includes('INSERT INTO jobs.job_log_chunks'));
    query.mockRestore();
    expect(inserts.some((sql) => sql.includes('), ($'))).toBe(true);
    expect(inserts.some((sql) => sql.includes('DELETE FROM jobs.job_log_chunks'))).toBe(true);
    for (const [id, list] of pushed) {
      const lines = list.flatMap((m) => m.lines);
      const seqs = lines.map((l) => l.seq);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
      // More than the budget went through: the oldest chunks had to go.
      expect(lines.length).toBeGreaterThan(1100);
      const stored = await logs.read(id, 0);
      // Budget 1,024 lines in chunks of 64: whole chunks dropped, at least 15/16 kept, the newest last.
      expect(stored.length).toBeLessThanOrEqual(1024);
      expect(stored.length).toBeGreaterThanOrEqual(960);
      expect(stored).toEqual(lines.slice(-stored.length));
    }
  });
});
