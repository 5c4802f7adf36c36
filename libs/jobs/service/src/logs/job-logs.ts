import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { JobLogLive, type JobLogLiveEvent, type JobLogLine } from '@hub/jobs-contract';
import { LiveBus } from '@hub/messaging';
import { type JobsConfig } from '../jobs.config';
import { JOBS_CONFIG, JOBS_DS } from '../jobs.di';
import { KeyedBatches } from '../jobs/keyed-batches';
import { type ChunkWrite, JobLogsStore } from './job-logs.store';
import { LogSink, type LogSinkPort } from './log-sink';

/** A line's seq is its chunk's id times this plus its place in the chunk (chunks hold fewer lines). */
export const SEQ_PER_CHUNK = 65_536;

/** Chunk ids the pool of new jobs' sinks asks the sequence for at a time (a sink takes 32). */
const POOL_REFILL = 1024;
/** Chunks of different jobs stored at once go in one statement, this many at most, two statements at a time. */
const MAX_CHUNK_BATCH = 50;
const CHUNK_BATCHES_AT_ONCE = 2;
/** A chunk larger than this (a flood's) goes in a statement of its own: a batch's statement stays small. */
const BATCHED_CHUNK_BYTES = 64 * 1024;

interface QueuedChunk extends ChunkWrite {
  /** Its answer: undefined when stored, else the error. */
  answer: (error?: unknown) => void;
}

export interface StoredChunk {
  id: number;
  lines: number;
  bytes: number;
}

/**
 * The kept log lines of every job, in chunks (decision 0631): bounded per job by
 * HUB_JOBS_LOG_MAX_LINES and HUB_JOBS_LOG_MAX_BYTES, readable after it ends; and pushed live on
 * `live.job-log.<jobId>` as they are printed (decision 0637).
 */
@Injectable()
export class JobLogs implements LogSinkPort {
  constructor(
    @InjectDataSource(JOBS_DS) private readonly ds: DataSource,
    @Inject(JOBS_CONFIG) private readonly config: JobsConfig,
    private readonly live: LiveBus,
  ) {}

  /** Chunk ids reserved for new jobs' sinks and not handed out yet, increasing. */
  private pool: number[] = [];
  private refilling: Promise<void> | null = null;

  /**
   * `created`: the job was just created by this replica, so it has no chunk stored anywhere: its
   * sink reads none, and takes its chunk ids from this replica's pool (one query for many jobs).
   */
  sink(jobId: string, created = false): LogSink {
    const c = this.config;
    return new LogSink(
      this,
      jobId,
      {
        maxLength: c.HUB_JOBS_LOG_MAX_LINE_LENGTH,
        maxLines: c.HUB_JOBS_LOG_MAX_LINES,
        maxBytes: c.HUB_JOBS_LOG_MAX_BYTES,
        rateBytes: c.HUB_JOBS_LOG_RATE_BYTES,
        readBytes: c.HUB_JOBS_LOG_READ_BYTES,
      },
      created,
    );
  }

  /** The job's chunks already stored (a sink taking over a job another replica ran). */
  async chunks(jobId: string): Promise<StoredChunk[]> {
    const rows = await JobLogsStore.chunks(this.ds.manager, jobId);
    return rows.map((r) => ({ id: Number(r.id), lines: r.lines, bytes: r.bytes }));
  }

  /**
   * Chunk ids for lines not stored yet (their seqs are pushed before the INSERT), increasing, and
   * above every id handed out to the job before. `pooled` (a job created here, whose only sink
   * this is): from the pool. Its ids come from the sequence in refills asked one after the other and
   * go out in order, so each is above every one handed out before it; a job another replica may
   * have run asks the sequence itself (a pooled id could be below the ids that replica took since).
   */
  async reserve(count: number, pooled = false): Promise<number[]> {
    if (!pooled) return this.fromSequence(count);
    while (this.pool.length < count) {
      this.refilling ??= this.fromSequence(Math.max(count, POOL_REFILL))
        .then((ids) => {
          this.pool.push(...ids);
        })
        .finally(() => (this.refilling = null));
      await this.refilling;
    }
    return this.pool.splice(0, count);
  }

  private async fromSequence(count: number): Promise<number[]> {
    const rows = await JobLogsStore.reserve(this.ds.manager, count);
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  /**
   * Chunks of many jobs at once (a burst of short jobs each prints a line or two): the first goes at
   * once, those asked while it is written go next together, in one statement (KeyedBatches); a
   * batch that fails is written again chunk by chunk, so each sink gets its own answer. A sink
   * stores one chunk at a time, so a job's chunks still go in order.
   */
  private readonly chunkBatches = new KeyedBatches<QueuedChunk>(MAX_CHUNK_BATCH, CHUNK_BATCHES_AT_ONCE, (batch) =>
    this.writeChunks(batch),
  );

  /** Stores one chunk under its reserved id and deletes the given older ones, in one statement. */
  async insert(jobId: string, id: number, drop: number[], lines: string[], ts: string[], bytes: number): Promise<void> {
    const chunk = { jobId, id, drop, lines, ts, bytes };
    if (bytes > BATCHED_CHUNK_BYTES) return JobLogsStore.insert(this.ds.manager, [chunk]);
    await new Promise<void>((resolve, reject) =>
      this.chunkBatches.add('chunks', { ...chunk, answer: (e) => (e === undefined ? resolve() : reject(e)) }),
    );
  }

  private async writeChunks(batch: QueuedChunk[]): Promise<() => void> {
    if (batch.length > 1) {
      try {
        await JobLogsStore.insert(this.ds.manager, batch);
        return () => batch.forEach((c) => c.answer());
      } catch {
        // One by one below: a bad chunk fails only its own sink.
      }
    }
    const errors: unknown[] = [];
    for (const c of batch)
      errors.push(
        await JobLogsStore.insert(this.ds.manager, [c]).then(
          () => undefined,
          (e: unknown) => e ?? new Error('not stored'),
        ),
      );
    return () => batch.forEach((c, i) => c.answer(errors[i]));
  }

  push(jobId: string, message: JobLogLiveEvent): void {
    this.live.send(JobLogLive.of(jobId), message);
  }

  async read(jobId: string, afterSeq: number, tail?: number): Promise<JobLogLine[]> {
    const after = Math.floor(afterSeq / SEQ_PER_CHUNK);
    const rows = tail
      ? await JobLogsStore.last(this.ds.manager, jobId, after, tail)
      : await JobLogsStore.from(this.ds.manager, jobId, after);
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
