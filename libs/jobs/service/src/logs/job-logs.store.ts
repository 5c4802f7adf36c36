import { type EntityManager } from 'typeorm';

/** A chunk as the log reads it: its id, and each line with its time. */
export interface ChunkRow {
  id: string;
  ts: Date[];
  lines: string[];
}

/**
 * The statements of the job logs' chunks (`jobs.job_log_chunks`, decision 0631). `JobLogs` keeps
 * what is not SQL: the sinks, the live push, the pool of chunk ids and the paging
 * of a read.
 */
export const JobLogsStore = {
  /** The job's chunks already stored, oldest first. */
  chunks(m: EntityManager, jobId: string): Promise<{ id: string; lines: number; bytes: number }[]> {
    return m.query(
      `SELECT id, cardinality(lines) AS lines, bytes FROM jobs.job_log_chunks WHERE job_id = $1 ORDER BY id`,
      [jobId],
    );
  },

  /** `count` new chunk ids, increasing. */
  reserve(m: EntityManager, count: number): Promise<{ id: string }[]> {
    return m.query(
      `SELECT nextval(pg_get_serial_sequence('jobs.job_log_chunks', 'id')) AS id FROM generate_series(1, $1)`,
      [count],
    );
  },

  /**
   * One chunk under its reserved id, and the job's older chunks `drop` deleted, in one statement
   * (atomic without a transaction of its own: one round trip, where BEGIN, DELETE, INSERT, COMMIT took four).
   */
  insert(
    m: EntityManager,
    jobId: string,
    id: number,
    drop: number[],
    lines: string[],
    ts: string[],
    bytes: number,
  ): Promise<void> {
    const values = `VALUES ($1, $2, $3::timestamptz[], $4::text[], $5)`;
    return drop.length === 0
      ? m.query(`INSERT INTO jobs.job_log_chunks (id, job_id, ts, lines, bytes) ${values}`, [
          id,
          jobId,
          ts,
          lines,
          bytes,
        ])
      : m.query(
          `WITH dropped AS (DELETE FROM jobs.job_log_chunks WHERE job_id = $2 AND id = ANY($6::bigint[]))
           INSERT INTO jobs.job_log_chunks (id, job_id, ts, lines, bytes) ${values}`,
          [id, jobId, ts, lines, bytes, drop],
        );
  },

  /** The newest `count` chunks from chunk id `from` on, newest first. */
  last(m: EntityManager, jobId: string, from: number, count: number): Promise<ChunkRow[]> {
    return m.query(
      `SELECT id, ts, lines FROM jobs.job_log_chunks WHERE job_id = $1 AND id >= $2 ORDER BY id DESC LIMIT $3`,
      [jobId, from, count],
    );
  },

  /** The first 50 chunks from chunk id `from` on, oldest first. */
  from(m: EntityManager, jobId: string, from: number): Promise<ChunkRow[]> {
    return m.query(
      `SELECT id, ts, lines FROM jobs.job_log_chunks WHERE job_id = $1 AND id >= $2 ORDER BY id LIMIT 50`,
      [jobId, from],
    );
  },
};
