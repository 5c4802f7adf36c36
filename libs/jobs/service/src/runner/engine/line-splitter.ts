/**
 * Bytes to lines for a job's output stream: a line longer than `maxLength` bytes is cut there (the
 * rest until its newline is dropped), so a flood without newlines holds at most `maxLength` bytes.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly maxLength: number,
    private readonly onLine: (line: string) => void,
  ) {}

  write(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const end = nl === -1 ? chunk.length : nl;
      // The common case, a whole line inside the chunk: decoded in place (a flood is millions of these).
      if (nl !== -1 && !this.skipping && this.size === 0 && end - from < this.maxLength) {
        this.onLine(chunk.toString('utf8', from, end > from && chunk[end - 1] === 13 ? end - 1 : end));
        from = nl + 1;
        continue;
      }
      if (!this.skipping) this.take(chunk.subarray(from, end));
      if (nl === -1) return;
      this.emit();
      this.skipping = false;
      from = nl + 1;
    }
  }

  /** The last line, when the stream ended without a newline. */
  end(): void {
    if (this.size > 0) this.emit();
  }

  private take(part: Buffer): void {
    const room = this.maxLength - this.size;
    if (part.length >= room) {
      this.parts.push(part.subarray(0, room));
      this.size += room;
      this.emit();
      this.skipping = true;
      return;
    }
    this.parts.push(part);
    this.size += part.length;
  }

  private emit(): void {
    if (this.size === 0 && this.parts.length === 0 && this.skipping) return;
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.onLine(line);
  }
}
