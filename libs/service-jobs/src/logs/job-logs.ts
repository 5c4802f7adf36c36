import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type JobLogLine } from '@hub/contracts';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.tokens';

const FLUSH_MS = 50;
const FLUSH_LINES = 500;

interface Pending {
  ts: Date;
  line: string;
  bytes: number;
}

/**
 * Buffers one job's lines and writes them in order, in batches, keeping at most `maxLines` lines
 * and `maxBytes` bytes stored at any moment: before a batch goes in, the oldest stored lines that
 * would put it past either bound are deleted, and lines waiting in memory are bounded the same way
 * (a flood faster than the database drops its oldest lines here, never growing the buffer).
 */
export class LogSink {
  private buffer: Pending[] = [];
  private bufferBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | null = null;
  /** Byte sizes of the stored lines, oldest first (from `head`). */
  private stored: number[] = [];
  private head = 0;
  private storedBytes = 0;

  constructor(
    private readonly logs: JobLogs,
    private readonly jobId: string,
    private readonly maxLength: number,
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  write(raw: string): void {
    const line = (raw.length > this.maxLength ? raw.slice(0, this.maxLength) : raw).replace(/\0/g, '');
    const bytes = Buffer.byteLength(line);
    this.buffer.push({ ts: new Date(), line, bytes });
    this.bufferBytes += bytes;
    while (this.buffer.length > this.maxLines || this.bufferBytes > this.maxBytes) {
      this.bufferBytes -= (this.buffer.shift() as Pending).bytes;
    }
    if (this.buffer.length >= FLUSH_LINES) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), FLUSH_MS);
  }

  /** Resolves once every line written so far is stored. */
  flush(): Promise<void> {
    this.kick();
    return this.pending ?? Promise.resolve();
  }

  /** Once the job has ended: every line stored (the bounds already hold). */
  async trim(): Promise<void> {
    await this.flush();
  }

  /** One writer at a time: lines written meanwhile wait in the (bounded) buffer for the next batch. */
  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending ??= this.drain().finally(() => {
      this.pending = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer;
      const batchBytes = this.bufferBytes;
      this.buffer = [];
      this.bufferBytes = 0;
      let drop = 0;
      let bytes = this.storedBytes;
      let lines = this.stored.length - this.head;
      while (lines > 0 && (lines + batch.length > this.maxLines || bytes + batchBytes > this.maxBytes)) {
        bytes -= this.stored[this.head + drop];
        drop++;
        lines--;
      }
      try {
        if (drop > 0) await this.logs.dropOldest(this.jobId, drop);
        await this.logs.append(this.jobId, batch);
      } catch {
        // A lost batch is not retried (the job goes on); the bounds still hold.
      }
      this.head += drop;
      this.storedBytes = bytes + batchBytes;
      for (const l of batch) this.stored.push(l.bytes);
      if (this.head > 4096 && this.head * 2 > this.stored.length) {
        this.stored = this.stored.slice(this.head);
        this.head = 0;
      }
    }
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
    return new LogSink(
      this,
      jobId,
      this.config.HUB_JOBS_LOG_MAX_LINE_LENGTH,
      this.config.HUB_JOBS_LOG_MAX_LINES,
      this.config.HUB_JOBS_LOG_MAX_BYTES,
    );
  }

  async append(jobId: string, lines: { ts: Date; line: string }[]): Promise<void> {
    await this.ds.query(
      `INSERT INTO jobs.job_logs (job_id, ts, line) SELECT $1, t.ts, t.line FROM unnest($2::timestamptz[], $3::text[]) WITH ORDINALITY AS t(ts, line, n) ORDER BY t.n`,
      [jobId, lines.map((l) => l.ts.toISOString()), lines.map((l) => l.line)],
    );
  }

  /** Deletes the job's `count` oldest lines. */
  async dropOldest(jobId: string, count: number): Promise<void> {
    await this.ds.query(
      `DELETE FROM jobs.job_logs WHERE job_id = $1 AND seq IN (SELECT seq FROM jobs.job_logs WHERE job_id = $1 ORDER BY seq LIMIT $2)`,
      [jobId, count],
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
