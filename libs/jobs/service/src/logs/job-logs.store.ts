import { type EntityManager } from 'typeorm';

/** A chunk as the log reads it: its id, and each line with its time. */
export interface ChunkRow {
  id: string;
  ts: Date[];
  lines: string[];
}

/**
 * The statements of the job logs' chunks (`jobs.job_log_chunks`, decision 0631). `JobLogs` keeps
 * what is not SQL: the sinks, the live push, the transaction of a chunk's insert and the paging
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

  drop(m: EntityManager, jobId: string, ids: number[]): Promise<void> {
    return m.query(`DELETE FROM jobs.job_log_chunks WHERE job_id = $1 AND id = ANY($2::bigint[])`, [jobId, ids]);
  },

  /** One chunk under its reserved id. */
  insert(m: EntityManager, jobId: string, id: number, lines: string[], ts: string[], bytes: number): Promise<void> {
    return m.query(
      `INSERT INTO jobs.job_log_chunks (id, job_id, ts, lines, bytes) VALUES ($1, $2, $3::timestamptz[], $4::text[], $5)`,
      [id, jobId, ts, lines, bytes],
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
