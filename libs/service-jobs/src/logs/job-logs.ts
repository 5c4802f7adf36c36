import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobLogLine } from '@hub/contracts';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.tokens';
import { LogSink } from './log-sink';

/** A line's seq is its chunk's id times this plus its place in the chunk (chunks hold fewer lines). */
export const SEQ_PER_CHUNK = 65_536;

export interface StoredChunk {
  id: number;
  lines: number;
  bytes: number;
}

/**
 * The kept log lines of every job, in chunks (decision 0631): bounded per job by
 * HUB_JOBS_LOG_MAX_LINES and HUB_JOBS_LOG_MAX_BYTES, readable after it ends.
 */
@Injectable()
export class JobLogs {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
  ) {}

  sink(jobId: string): LogSink {
    const c = this.config;
    return new LogSink(this, jobId, {
      maxLength: c.HUB_JOBS_LOG_MAX_LINE_LENGTH,
      maxLines: c.HUB_JOBS_LOG_MAX_LINES,
      maxBytes: c.HUB_JOBS_LOG_MAX_BYTES,
      rateBytes: c.HUB_JOBS_LOG_RATE_BYTES,
      readBytes: c.HUB_JOBS_LOG_READ_BYTES,
    });
  }

  /** The job's chunks already stored (a sink taking over a job another replica ran). */
  async chunks(jobId: string): Promise<StoredChunk[]> {
    const rows = await this.ds.query<{ id: string; lines: number; bytes: number }[]>(
      `SELECT id, cardinality(lines) AS lines, bytes FROM jobs.job_log_chunks WHERE job_id = $1 ORDER BY id`,
      [jobId],
    );
    return rows.map((r) => ({ id: Number(r.id), lines: r.lines, bytes: r.bytes }));
  }

  /** Stores one chunk after deleting the given older ones, in one transaction; answers its id. */
  async replace(jobId: string, drop: number[], ts: Date, lines: string[], bytes: number): Promise<number> {
    return this.ds.transaction(async (m) => {
      if (drop.length > 0)
        await m.query(`DELETE FROM jobs.job_log_chunks WHERE job_id = $1 AND id = ANY($2::bigint[])`, [jobId, drop]);
      const stamp = ts.toISOString();
      const [row] = await m.query<{ id: string }[]>(
        `INSERT INTO jobs.job_log_chunks (job_id, ts, lines, bytes)
         VALUES ($1, array_fill($2::timestamptz, ARRAY[$4::int]), $3::text[], $5) RETURNING id`,
        [jobId, stamp, lines, lines.length, bytes],
      );
      return Number(row.id);
    });
  }

  async read(jobId: string, afterSeq: number, tail?: number): Promise<JobLogLine[]> {
    const after = Math.floor(afterSeq / SEQ_PER_CHUNK);
    const rows = tail
      ? await this.ds.query<{ id: string; ts: Date[]; lines: string[] }[]>(
          `SELECT id, ts, lines FROM jobs.job_log_chunks WHERE job_id = $1 AND id >= $2 ORDER BY id DESC LIMIT $3`,
          [jobId, after, tail],
        )
      : await this.ds.query<{ id: string; ts: Date[]; lines: string[] }[]>(
          `SELECT id, ts, lines FROM jobs.job_log_chunks WHERE job_id = $1 AND id >= $2 ORDER BY id LIMIT 50`,
          [jobId, after],
        );
    if (tail) rows.reverse();
    const out: JobLogLine[] = [];
    for (const r of rows) {
      const base = Number(r.id) * SEQ_PER_CHUNK;
      r.lines.forEach((data, i) => {
        const seq = base + i + 1;
        if (seq > afterSeq) out.push({ seq, data, timestamp: new Date(r.ts[i]).toISOString() });
      });
      if (!tail && out.length >= 5000) break;
    }
    return tail ? out.slice(-tail) : out;
  }
}
