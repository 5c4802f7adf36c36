import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Job logs in chunks (decision 0631): one row per batch of lines instead of one per line, so a
 * log flood inserts and deletes a few rows a second, not thousands. The kept lines move over.
 */
export class JobLogChunks1764000500000 implements MigrationInterface {
  name = 'JobLogChunks1764000500000';

  async up(q: QueryRunner): Promise<void> {
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
  }

  async down(q: QueryRunner): Promise<void> {
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
