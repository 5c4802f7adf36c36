export interface LogGateOptions {
  /** Bytes a second the job's lines may pass at, sustained (a line costs its bytes plus one). */
  rateBytes: number;
  /** Most lines and bytes held waiting (the ring): past either, the oldest are dropped. */
  ringLines: number;
  ringBytes: number;
  /** false: no marker lines; the gaps are read with `takeGap` (the spawn helper sends them as counts). */
  mark?: boolean;
}

/**
 * One job's output between its runner and the log store: a ring of the newest lines, let through at
 * a capped rate. Lines arrive as fast as the job prints them; `take` hands on what the rate allows
 * since the last call, oldest first. While the job prints faster, the ring drops its oldest lines
 * (counted, never stored), and the first line handed on after a gap is preceded by a marker line
 * saying how much was dropped there. At the end `rest` hands on the whole ring, so the job's last
 * lines are always kept.
 *
 * Self-contained on purpose (no imports, no outer names): the host-mode spawn helper runs this same
 * class from its source text (see spawn-helper.source.ts), so a flood is cut before it crosses IPC.
 */
export class LogGate {
  private lines: string[] = [];
  private costs: number[] = [];
  private head = 0;
  private held = 0;
  private tokens: number;
  private last: number;
  private gapLines = 0;
  private gapBytes = 0;
  private allLines = 0;
  private allBytes = 0;

  constructor(private readonly o: LogGateOptions) {
    this.tokens = o.rateBytes;
    this.last = Date.now();
  }

  /** Lines dropped so far, in all (gaps already marked and the one still open). */
  get dropped(): { lines: number; bytes: number } {
    return { lines: this.allLines, bytes: this.allBytes };
  }

  push(line: string): void {
    const cost = line.length + 1;
    this.lines.push(line);
    this.costs.push(cost);
    this.held += cost;
    while (this.lines.length - this.head > this.o.ringLines || this.held > this.o.ringBytes) this.dropOldest();
  }

  /** Lines a producer upstream (the spawn helper) already dropped: named in the next marker. */
  note(lines: number, bytes: number): void {
    this.gapLines += lines;
    this.gapBytes += bytes;
    this.allLines += lines;
    this.allBytes += bytes;
  }

  /** The lines the rate allows now, oldest first, after a marker for any gap before them. */
  take(now = Date.now()): string[] {
    // At most one second's worth saved up: a burst after a quiet spell is still capped.
    this.tokens = Math.min(this.o.rateBytes, this.tokens + ((now - this.last) * this.o.rateBytes) / 1000);
    this.last = now;
    let n = 0;
    while (this.head + n < this.lines.length && this.costs[this.head + n] <= this.tokens) {
      this.tokens -= this.costs[this.head + n];
      n++;
    }
    return this.hand(n);
  }

  /** Every line still held (the job has ended), after a marker for any gap before them. */
  rest(): string[] {
    return this.hand(this.lines.length - this.head);
  }

  /** Lines dropped since the last call (or marker), and forgets them. */
  takeGap(): { lines: number; bytes: number } {
    const gap = { lines: this.gapLines, bytes: this.gapBytes };
    this.gapLines = 0;
    this.gapBytes = 0;
    return gap;
  }

  /** Whether lines wait in the ring. */
  get waiting(): boolean {
    return this.lines.length > this.head;
  }

  private hand(n: number): string[] {
    const out = this.lines.slice(this.head, this.head + n);
    for (let i = 0; i < n; i++) this.held -= this.costs[this.head + i];
    this.head += n;
    this.compact();
    if (this.o.mark !== false && (out.length > 0 || !this.waiting) && this.gapLines > 0) out.unshift(this.marker());
    return out;
  }

  private dropOldest(): void {
    const cost = this.costs[this.head];
    this.held -= cost;
    this.head++;
    this.gapLines++;
    this.gapBytes += cost;
    this.allLines++;
    this.allBytes += cost;
    this.compact();
  }

  private marker(): string {
    const mb = (b: number) => (b / 1_048_576).toFixed(1) + ' MB';
    const text =
      `[hub] ${this.gapLines} lines (${mb(this.gapBytes)}) dropped here: the job logged faster than ` +
      `${Math.round(this.o.rateBytes / 1024)} KiB/s (${this.allLines} lines, ${mb(this.allBytes)} dropped so far)`;
    this.gapLines = 0;
    this.gapBytes = 0;
    return text;
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.costs = this.costs.slice(this.head);
      this.head = 0;
    }
  }
}
