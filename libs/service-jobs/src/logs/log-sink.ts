import { LogGate, type LogGateOptions } from './log-gate';
import { type JobLogs, type StoredChunk } from './job-logs';

const FLUSH_MS = 50;
/** How often a job logging faster than its rate is looked at again. */
const PUMP_MS = 200;
/** Most lines in one chunk (a line's seq leaves room for 65,536). */
const CHUNK_LINES = 4096;

export interface LogSinkOptions {
  maxLength: number;
  maxLines: number;
  maxBytes: number;
  rateBytes: number;
  /** Bytes a second runners read from a job's output at most (back-pressure past it). */
  readBytes: number;
}

/**
 * One job's log on its way to the database. Lines go through a LogGate (a ring of the newest,
 * let through at HUB_JOBS_LOG_RATE_BYTES), then are stored in chunks, one INSERT per batch; before a
 * chunk goes in, the oldest chunks that would put the job past its line or byte budget are deleted
 * in the same transaction. A flood thus costs a few rows a second, whatever the job prints.
 */
export class LogSink {
  /**
   * The gate's bounds: a ring of 8 s of the rate (at least 64 KiB), within half the byte and line
   * budget (the ring handed on at the end, its marker first, fits in what is kept).
   */
  readonly gateOptions: LogGateOptions;
  private readonly gate: LogGate;
  readonly readBytes: number;
  private buffer: string[] = [];
  private bufferBytes = 0;
  private pumpTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | null = null;
  /** The job's stored chunks, oldest first; null until read (another replica may have run it). */
  private stored: StoredChunk[] | null = null;
  private readonly chunkLines: number;
  private readonly chunkBytes: number;

  constructor(
    private readonly logs: JobLogs,
    private readonly jobId: string,
    private readonly o: LogSinkOptions,
  ) {
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

  /** Resolves once every line written so far is stored: the run ended, so the whole ring goes. */
  flush(): Promise<void> {
    this.clearPump();
    this.enqueue(this.gate.rest());
    this.kick();
    return this.pending ?? Promise.resolve();
  }

  /** Once the job has ended: every line stored (the bounds already hold). */
  async trim(): Promise<void> {
    await this.flush();
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
    this.enqueue(this.gate.take());
    if (this.gate.waiting) this.pumpTimer = setTimeout(() => this.pump(), PUMP_MS);
  }

  private enqueue(lines: string[]): void {
    if (lines.length === 0) return;
    for (const l of lines) {
      this.buffer.push(l);
      this.bufferBytes += Buffer.byteLength(l);
    }
    // The database is slower than the rate: the oldest waiting lines go (the budget would drop them).
    while (this.buffer.length > this.o.maxLines || this.bufferBytes > this.o.maxBytes) {
      this.bufferBytes -= Buffer.byteLength(this.buffer.shift() as string);
    }
    this.flushTimer ??= setTimeout(() => this.kick(), FLUSH_MS);
  }

  /** One writer at a time: lines written meanwhile wait in the (bounded) buffer for the next batch. */
  private kick(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending ??= this.drain().finally(() => {
      this.pending = null;
    });
  }

  private async drain(): Promise<void> {
    this.stored ??= await this.logs.chunks(this.jobId).catch(() => []);
    while (this.buffer.length > 0) {
      const lines: string[] = [];
      let bytes = 0;
      while (this.buffer.length > 0 && lines.length < this.chunkLines) {
        const b = Buffer.byteLength(this.buffer[0]);
        if (lines.length > 0 && bytes + b > this.chunkBytes) break;
        lines.push(this.buffer.shift() as string);
        bytes += b;
      }
      this.bufferBytes -= bytes;
      await this.store(lines, bytes);
    }
  }

  private async store(lines: string[], bytes: number): Promise<void> {
    const stored = this.stored as StoredChunk[];
    let keptLines = stored.reduce((s, c) => s + c.lines, 0) + lines.length;
    let keptBytes = stored.reduce((s, c) => s + c.bytes, 0) + bytes;
    let drop = 0;
    while (drop < stored.length && (keptLines > this.o.maxLines || keptBytes > this.o.maxBytes)) {
      keptLines -= stored[drop].lines;
      keptBytes -= stored[drop].bytes;
      drop++;
    }
    try {
      const ids = stored.slice(0, drop).map((c) => c.id);
      const id = await this.logs.replace(this.jobId, ids, new Date(), lines, bytes);
      stored.splice(0, drop);
      stored.push({ id, lines: lines.length, bytes });
    } catch {
      // A lost chunk is not retried (the job goes on); the bounds still hold.
    }
  }
}
