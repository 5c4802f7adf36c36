import { type EntityManager } from 'typeorm';

/** A chunk to store (`drop`: the job's older chunks to delete with it). */
export interface ChunkWrite {
  jobId: string;
  id: number;
  drop: number[];
  lines: string[];
  ts: string[];
  bytes: number;
}

/** A chunk as the log reads it: its id, and each line with its time. */
export interface ChunkRow {
  id: string;
  ts: Date[];
  lines: string[];
}

/**
 * The statements of the job logs' chunks (`jobs.job_log_chunks`, decision 0631). `JobLogs` keeps
 * what is not SQL: the sinks, the live push, the pool of chunk ids, the batching of chunks and the paging
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
   * Chunks under their reserved ids (of one job or several), and each one's older chunks `drop`
   * deleted, in one statement (atomic without a transaction of its own: one round trip, where
   * BEGIN, DELETE, INSERT, COMMIT per chunk took four).
   */
  insert(m: EntityManager, chunks: ChunkWrite[]): Promise<void> {
    const parameters: unknown[] = [];
    const rows = chunks.map((c) => {
      parameters.push(c.id, c.jobId, c.ts, c.lines, c.bytes);
      const n = parameters.length;
      return `($${n - 4}, $${n - 3}, $${n - 2}::timestamptz[], $${n - 1}::text[], $${n})`;
    });
    const insert = `INSERT INTO jobs.job_log_chunks (id, job_id, ts, lines, bytes) VALUES ${rows.join(', ')}`;
    const drops = chunks.flatMap((c) => c.drop.map((id) => ({ jobId: c.jobId, id })));
    if (drops.length === 0) return m.query(insert, parameters);
    parameters.push(
      drops.map((d) => d.jobId),
      drops.map((d) => d.id),
    );
    const n = parameters.length;
    return m.query(
      `WITH dropped AS (DELETE FROM jobs.job_log_chunks c USING unnest($${n - 1}::char(24)[], $${n}::bigint[]) AS d(job_id, id)
         WHERE c.id = d.id AND c.job_id = d.job_id)
       ${insert}`,
      parameters,
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
