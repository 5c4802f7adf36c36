import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobLogLine } from '@hub/contracts';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.tokens';

const FLUSH_MS = 50;
const FLUSH_LINES = 500;

/** Buffers one job's lines and writes them in order, in batches. */
export class LogSink {
  private buffer: { ts: Date; line: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private written = 0;

  constructor(
    private readonly logs: JobLogs,
    private readonly jobId: string,
    private readonly maxLength: number,
    private readonly maxLines: number,
  ) {}

  write(line: string): void {
    this.written++;
    this.buffer.push({ ts: new Date(), line: line.length > this.maxLength ? line.slice(0, this.maxLength) : line });
    if (this.buffer.length >= FLUSH_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Resolves once every line written so far is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0)
      this.chain = this.chain.then(() => this.logs.append(this.jobId, batch)).catch(() => undefined);
    return this.chain;
  }

  /** Once the job has ended: drops its oldest lines beyond the bound (one job writes to one sink, so most have nothing to drop). */
  async trim(): Promise<void> {
    await this.flush();
    if (this.written > this.maxLines) await this.logs.trim(this.jobId);
  }
}

/** The kept log lines of every job: bounded per job (HUB_JOBS_LOG_MAX_LINES), readable after it ends. */
@Injectable()
export class JobLogs {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
  ) {}

  sink(jobId: string): LogSink {
    return new LogSink(this, jobId, this.config.HUB_JOBS_LOG_MAX_LINE_LENGTH, this.config.HUB_JOBS_LOG_MAX_LINES);
  }

  async append(jobId: string, lines: { ts: Date; line: string }[]): Promise<void> {
    await this.ds.query(
      `INSERT INTO jobs.job_logs (job_id, ts, line) SELECT $1, t.ts, t.line FROM unnest($2::timestamptz[], $3::text[]) WITH ORDINALITY AS t(ts, line, n) ORDER BY t.n`,
      [jobId, lines.map((l) => l.ts.toISOString()), lines.map((l) => l.line.replace(/\0/g, ''))],
    );
  }

  /** Drops the oldest lines beyond the bound. */
  async trim(jobId: string): Promise<void> {
    await this.ds.query(
      `DELETE FROM jobs.job_logs WHERE job_id = $1 AND seq <= (SELECT seq FROM jobs.job_logs WHERE job_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`,
      [jobId, this.config.HUB_JOBS_LOG_MAX_LINES],
    );
  }

  async read(jobId: string, afterSeq: number, tail?: number): Promise<JobLogLine[]> {
    const rows = tail
      ? await this.ds.query<{ seq: string; line: string; ts: Date }[]>(
          `SELECT * FROM (SELECT seq, line, ts FROM jobs.job_logs WHERE job_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) t ORDER BY seq`,
          [jobId, afterSeq, tail],
        )
      : await this.ds.query<{ seq: string; line: string; ts: Date }[]>(
          `SELECT seq, line, ts FROM jobs.job_logs WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT 5000`,
          [jobId, afterSeq],
        );
    return rows.map((r) => ({ seq: Number(r.seq), data: r.line, timestamp: new Date(r.ts).toISOString() }));
  }
}
