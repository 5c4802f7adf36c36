import { type FastifyReply } from 'fastify';

const KEEP_ALIVE_MS = 15_000;

/** A server-sent-events answer on a hijacked reply: `send` a data line, comments while idle, `end`. */
export class SseStream {
  private closed = false;
  private lastWrite = Date.now();
  private readonly keepAlive: NodeJS.Timeout;
  /** Resolves when the stream closes (ended here, or the client went away). */
  readonly whenClosed: Promise<void>;
  private onClosed!: () => void;

  constructor(
    private readonly reply: FastifyReply,
    requestId: string,
  ) {
    this.whenClosed = new Promise((resolve) => (this.onClosed = resolve));
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': requestId,
    });
    reply.raw.write(': stream open\n\n');
    reply.raw.on('close', () => {
      this.closed = true;
      this.onClosed();
    });
    this.keepAlive = setInterval(() => {
      if (Date.now() - this.lastWrite >= KEEP_ALIVE_MS) this.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS / 3);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Resolves once the client has taken what was written (the socket's buffer is below its mark), or
   * the stream closed: a writer that waits here holds no more than a buffer per stream.
   */
  async drained(): Promise<void> {
    const raw = this.reply.raw;
    if (this.closed || !raw.writableNeedDrain) return;
    await Promise.race([new Promise<void>((resolve) => raw.once('drain', () => resolve())), this.whenClosed]);
  }

  send(data: unknown): void {
    this.write(`data: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the stream before its time, saying why in a comment (clients skip comments; a new request gets the status). */
  cutOff(reason: string): void {
    this.write(`: ${reason}\n\n`);
    this.end();
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.closed) reply_end(this.reply);
    this.closed = true;
    this.onClosed();
  }

  private write(chunk: string): void {
    if (this.closed) return;
    this.lastWrite = Date.now();
    this.reply.raw.write(chunk);
  }
}

function reply_end(reply: FastifyReply): void {
  reply.raw.end();
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
