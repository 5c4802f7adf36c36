import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createJobLogsView } from './1797000200000-job-logs-view';

/**
 * Job logs in chunks (decision 0631): one row per batch of lines instead of one per line, so a
 * log flood inserts and deletes a few rows a second, not thousands. The kept lines move over.
 */
export class JobLogChunks1764000500000 implements MigrationInterface {
  name = 'JobLogChunks1764000500000';

  async up(q: QueryRunner): Promise<void> {
    // A previous release's jobs service may append lines while this runs (a rolling upgrade,
    // decision 0207): its inserts wait from here to the commit, so none lands between the copy and
    // the drop, and the view made below in this same transaction takes each waiting insert (Postgres
    // looks the name up again once the lock is granted). Before, a line written in that window was
    // lost (test:k8s's upgrade, 29 Nov), and one written before the view existed failed.
    await q.query(`LOCK TABLE jobs.job_logs IN EXCLUSIVE MODE`);
    await q.query(`CREATE TABLE jobs.job_log_chunks (
      id bigserial PRIMARY KEY,
      job_id char(24) NOT NULL,
      ts timestamptz[] NOT NULL,
      lines text[] NOT NULL,
      bytes int NOT NULL)`);
    await q.query(`CREATE INDEX job_log_chunks_job ON jobs.job_log_chunks (job_id, id)`);
    await q.query(`INSERT INTO jobs.job_log_chunks (job_id, ts, lines, bytes)
      SELECT job_id, array_agg(ts ORDER BY seq), array_agg(line ORDER BY seq), sum(octet_length(line))
        FROM (SELECT *, (row_number() OVER (PARTITION BY job_id ORDER BY seq) - 1) / 1000 AS part FROM jobs.job_logs) l
       GROUP BY job_id, part ORDER BY job_id, part`);
    await q.query(`DROP TABLE jobs.job_logs`);
    await createJobLogsView(q);
  }

  async down(q: QueryRunner): Promise<void> {
    // Its view, when 1797000200000's down has not dropped it already.
    await q.query(`DROP VIEW IF EXISTS jobs.job_logs`);
    await q.query(`DROP FUNCTION IF EXISTS jobs.job_logs_insert()`);
    await q.query(`DROP FUNCTION IF EXISTS jobs.job_logs_delete()`);
    await q.query(`CREATE TABLE jobs.job_logs (
      seq bigserial PRIMARY KEY,
      job_id char(24) NOT NULL,
      ts timestamptz NOT NULL DEFAULT now(),
      line text NOT NULL)`);
    await q.query(`CREATE INDEX job_logs_job_seq ON jobs.job_logs (job_id, seq)`);
    await q.query(`INSERT INTO jobs.job_logs (job_id, ts, line)
      SELECT c.job_id, t.ts, t.line FROM jobs.job_log_chunks c, unnest(c.ts, c.lines) WITH ORDINALITY AS t(ts, line, n)
       ORDER BY c.id, t.n`);
    await q.query(`DROP TABLE jobs.job_log_chunks`);
  }
}
