import { type JobLogLiveEvent, type JobLogLiveLine } from '@hub/jobs-contract';
import { LogGate, type LogGateOptions } from './log-gate';
import { SEQ_PER_CHUNK, type StoredChunk } from './job-logs';

const FLUSH_MS = 50;
/** How often a job logging faster than its rate is looked at again. */
const PUMP_MS = 200;
/** Most lines in one chunk (a line's seq leaves room for 65,536). */
const CHUNK_LINES = 4096;
/**
 * Chunk ids reserved at a time (a line's seq is known when it is printed, before it is stored), and
 * the stock below which more are asked for: a job printing steadily uses one per flush (20 a
 * second), and a line that finds none waits for the database (4 at a time delayed a line every
 * 200 ms by a round trip under load).
 */
const RESERVE = 32;
const RESERVE_BELOW = 16;

export interface LogSinkOptions {
  maxLength: number;
  maxLines: number;
  maxBytes: number;
  rateBytes: number;
  /** Bytes a second runners read from a job's output at most (back-pressure past it). */
  readBytes: number;
}

/** Where a sink keeps its chunks and pushes its lines (JobLogs: the database and the LiveBus). */
export interface LogSinkPort {
  chunks(jobId: string): Promise<StoredChunk[]>;
  /** `pooled`: the job was created here (see `JobLogs.reserve`). */
  reserve(count: number, pooled?: boolean): Promise<number[]>;
  insert(jobId: string, id: number, drop: number[], lines: string[], ts: string[], bytes: number): Promise<void>;
  push(jobId: string, message: JobLogLiveEvent): void;
}

/** Lines on their way to one chunk row: its id is reserved, so each line's seq is known at once. */
interface Batch {
  id: number;
  lines: string[];
  ts: string[];
  bytes: number;
}

/**
 * One job's log on its way to the database and to the open log streams (decisions 0631, 0637).
 * Lines go through a LogGate (a ring of the newest, let through at HUB_JOBS_LOG_RATE_BYTES); each
 * line let through gets its seq at once (a chunk id reserved ahead, times 65,536, plus its place)
 * and is pushed live with it, then stored with its chunk, one INSERT per batch; the oldest chunks
 * that would put the job past its line or byte budget are deleted by the same statement. A flood
 * thus costs a few rows a second, whatever the job prints; a viewer gets each line as it passes
 * the gate, and the stored log under the same seq.
 */
export class LogSink {
  /**
   * The gate's bounds: a ring of 8 s of the rate (at least 64 KiB), within half the byte and line
   * budget (the ring handed on at the end, its marker first, fits in what is kept).
   */
  readonly gateOptions: LogGateOptions;
  private readonly gate: LogGate;
  readonly readBytes: number;
  /** Lines let through, waiting for a chunk id (only while none is reserved). */
  private unplaced: { line: string; ts: string }[] = [];
  private unplacedBytes = 0;
  /** Batches not stored yet, oldest first; the last one may still take lines. */
  private batches: Batch[] = [];
  private open: Batch | null = null;
  private ids: number[] = [];
  private reserving: Promise<boolean> | null = null;
  /** The seq of the last line pushed. */
  private lastSeq = 0;
  private pumpTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | null = null;
  /** The job's stored chunks, oldest first; null until read (another replica may have run it). */
  private stored: StoredChunk[] | null;
  private readonly chunkLines: number;
  private readonly chunkBytes: number;

  /**
   * `created`: the job was just created by this replica (the supervisor's sinks): no chunk of it is
   * stored yet, so none is read, and its chunk ids come from the port's pool.
   */
  constructor(
    private readonly port: LogSinkPort,
    private readonly jobId: string,
    private readonly o: LogSinkOptions,
    private readonly created = false,
  ) {
    this.stored = created ? [] : null;
    this.gateOptions = {
      rateBytes: o.rateBytes,
      ringLines: Math.max(1, Math.floor(o.maxLines / 2)),
      ringBytes: Math.min(Math.floor(o.maxBytes / 2), Math.max(8 * o.rateBytes, 64 * 1024)),
    };
    this.gate = new LogGate(this.gateOptions);
    this.readBytes = o.readBytes;
    // Whole chunks are dropped: at least 15/16 of the budget stays filled.
    this.chunkLines = Math.max(1, Math.min(CHUNK_LINES, Math.floor(o.maxLines / 16)));
    this.chunkBytes = Math.max(1024, Math.floor(o.maxBytes / 16));
    // Ids ready before the first line: it is pushed without a round trip to the database.
    this.reserve();
  }

  write(raw: string): void {
    const line = raw.length > this.o.maxLength ? raw.slice(0, this.o.maxLength) : raw;
    this.gate.push(line.includes('\0') ? line.replace(/\0/g, '') : line);
    this.pumpTimer ??= setImmediate(() => this.pump());
  }

  /** Lines an upstream producer (the spawn helper) dropped already: named in the next marker. */
  dropped(lines: number, bytes: number): void {
    this.gate.note(lines, bytes);
    this.pumpTimer ??= setImmediate(() => this.pump());
  }

  /** Tells the open streams the job still runs (the supervisor's heartbeat): a silent one looks again. */
  beat(): void {
    this.port.push(this.jobId, { after: this.lastSeq, lines: [] });
  }

  /** Resolves once every line written so far is stored: the run ended, so the whole ring goes. */
  async flush(): Promise<void> {
    this.clearPump();
    this.take(this.gate.rest());
    while (this.unplaced.length > 0) {
      if (!(await this.reserve())) break;
      this.place();
    }
    this.kick();
    await (this.pending ?? Promise.resolve());
  }

  /** Once the job has ended: every line stored (the bounds already hold), then the streams told. */
  async end(): Promise<void> {
    await this.flush().catch(() => undefined);
    this.port.push(this.jobId, { after: this.lastSeq, lines: [], ended: true });
  }

  private clearPump(): void {
    if (this.pumpTimer) {
      clearTimeout(this.pumpTimer as NodeJS.Timeout);
      clearImmediate(this.pumpTimer as NodeJS.Immediate);
    }
    this.pumpTimer = undefined;
  }

  private pump(): void {
    this.pumpTimer = undefined;
    this.take(this.gate.take());
    if (this.gate.waiting) this.pumpTimer = setTimeout(() => this.pump(), PUMP_MS);
  }

  private take(lines: string[]): void {
    if (lines.length === 0) return;
    const ts = new Date().toISOString();
    for (const line of lines) {
      this.unplaced.push({ line, ts });
      this.unplacedBytes += Buffer.byteLength(line);
    }
    // No id reserved (the database is slow or away): the oldest waiting lines go past the budget.
    while (this.unplaced.length > this.o.maxLines || this.unplacedBytes > this.o.maxBytes)
      this.unplacedBytes -= Buffer.byteLength((this.unplaced.shift() as { line: string }).line);
    this.place();
  }

  /** Gives waiting lines their seq (chunk by chunk), pushes them to the streams, and queues them for storing. */
  private place(): void {
    const out: JobLogLiveLine[] = [];
    const after = this.lastSeq;
    while (this.unplaced.length > 0) {
      const batch = this.open ?? this.openBatch();
      if (!batch) break;
      const { line, ts } = this.unplaced.shift() as { line: string; ts: string };
      const bytes = Buffer.byteLength(line);
      this.unplacedBytes -= bytes;
      batch.lines.push(line);
      batch.ts.push(ts);
      batch.bytes += bytes;
      const seq = batch.id * SEQ_PER_CHUNK + batch.lines.length;
      out.push({ seq, data: line, timestamp: ts });
      this.lastSeq = seq;
      if (batch.lines.length >= this.chunkLines || batch.bytes >= this.chunkBytes) this.open = null;
    }
    if (this.ids.length < RESERVE_BELOW) this.reserve();
    if (out.length === 0) return;
    this.port.push(this.jobId, { after, lines: out });
    this.bound();
    this.flushTimer ??= setTimeout(() => this.kick(), FLUSH_MS);
  }

  private openBatch(): Batch | null {
    const id = this.ids.shift();
    if (id === undefined) return null;
    this.open = { id, lines: [], ts: [], bytes: 0 };
    this.batches.push(this.open);
    return this.open;
  }

  /** The database is slower than the rate: the oldest waiting batches go (the budget would drop them). */
  private bound(): void {
    let lines = this.batches.reduce((s, b) => s + b.lines.length, 0);
    let bytes = this.batches.reduce((s, b) => s + b.bytes, 0);
    while (this.batches.length > 1 && (lines > this.o.maxLines || bytes > this.o.maxBytes)) {
      const b = this.batches.shift() as Batch;
      lines -= b.lines.length;
      bytes -= b.bytes;
    }
  }

  /** Reserves the next chunk ids (one query at a time); false when the database did not answer. */
  private reserve(): Promise<boolean> {
    this.reserving ??= this.port
      .reserve(RESERVE, this.created)
      .then((ids) => {
        this.ids.push(...ids.sort((a, b) => a - b));
        if (this.unplaced.length > 0) this.place();
        return true;
      })
      .catch(() => false)
      .finally(() => (this.reserving = null));
    return this.reserving;
  }

  /** One writer at a time: lines written meanwhile wait in the (bounded) batches for the next INSERT. */
  private kick(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending ??= this.drain().finally(() => {
      this.pending = null;
    });
  }

  private async drain(): Promise<void> {
    this.stored ??= await this.port.chunks(this.jobId).catch(() => []);
    while (this.batches.length > 0) {
      const batch = this.batches.shift() as Batch;
      // Stored as it is now: a line placed later opens the next batch, never lands in a row already written.
      if (batch === this.open) this.open = null;
      await this.store(batch);
    }
  }

  private async store(batch: Batch): Promise<void> {
    if (batch.lines.length === 0) return;
    const stored = this.stored as StoredChunk[];
    let keptLines = stored.reduce((s, c) => s + c.lines, 0) + batch.lines.length;
    let keptBytes = stored.reduce((s, c) => s + c.bytes, 0) + batch.bytes;
    let drop = 0;
    while (drop < stored.length && (keptLines > this.o.maxLines || keptBytes > this.o.maxBytes)) {
      keptLines -= stored[drop].lines;
      keptBytes -= stored[drop].bytes;
      drop++;
    }
    try {
      const ids = stored.slice(0, drop).map((c) => c.id);
      await this.port.insert(this.jobId, batch.id, ids, batch.lines, batch.ts, batch.bytes);
      stored.splice(0, drop);
      stored.push({ id: batch.id, lines: batch.lines.length, bytes: batch.bytes });
    } catch {
      // A lost chunk is not retried (the job goes on); the bounds still hold.
    }
  }
}
