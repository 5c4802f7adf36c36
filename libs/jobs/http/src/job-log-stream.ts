import { type JobLogLine, type JobLogsChunk, TERMINAL_JOB_STAGES } from '@hub/jobs-contract';
import { type LogViewer } from './job-log-feeds';
import { sleep, type SseStream } from './sse';

/**
 * Without a message (a line or a heartbeat of the job's runner) for this long, the stream reads the
 * job once: its runner may be gone (the job settled by another replica) or never started it here.
 */
export const SILENT_MS = 10_000;
/** Lines a message says exist but the stored log has not yet: read again after this… */
const CATCH_UP_WAIT_MS = 25;
/** …for at most this long, then they are taken as dropped (the store was slower than the job's rate). */
const CATCH_UP_GIVE_UP_MS = 2000;

/**
 * One job's log stream (decision 0637): the stored lines first, then the pushed ones, each line once
 * and in order by its seq. A message whose `after` is past the last line sent means lines were
 * missed (printed before the subscription, or forgotten while the client was slow): they are read
 * from the store before the message's own.
 */
export class LogStream {
  /** The seq of the last line sent. */
  private after = 0;

  constructor(
    private readonly sse: SseStream,
    private readonly viewer: LogViewer,
    private readonly read: (afterSeq: number) => Promise<JobLogsChunk>,
  ) {}

  async run(first: JobLogsChunk): Promise<void> {
    if (await this.backfill(first)) return;
    while (!this.sse.isClosed) {
      const message = await this.viewer.next(SILENT_MS, this.sse.whenClosed);
      if (this.sse.isClosed) return;
      if (!message) {
        if (await this.backfill(await this.read(this.after))) return;
        continue;
      }
      if (message.after > this.after) await this.catchUp(message.after);
      this.send(message.lines);
      // Its last line is stored: what the store has beyond ours, then the stage says whether it ended.
      if (message.ended && (await this.backfill(await this.read(this.after)))) return;
      await this.sse.drained();
    }
  }

  private send(lines: readonly JobLogLine[]): void {
    for (const l of lines) {
      if (l.seq <= this.after) continue;
      this.sse.send({ data: l.data, timestamp: l.timestamp });
      this.after = l.seq;
    }
  }

  /**
   * Sends the stored lines from `chunk` on, page after page; true when the job has ended and every
   * line is out (the stage is read before the lines: ended and nothing new means all of them).
   */
  private async backfill(chunk: JobLogsChunk): Promise<boolean> {
    for (;;) {
      this.send(chunk.lines);
      if (chunk.lines.length === 0) return TERMINAL_JOB_STAGES.has(chunk.stage);
      await this.sse.drained();
      if (this.sse.isClosed) return true;
      chunk = await this.read(this.after);
    }
  }

  /** Reads the store until the line `through` is sent (stored within the sink's flush) or taken as dropped. */
  private async catchUp(through: number): Promise<void> {
    const giveUp = Date.now() + CATCH_UP_GIVE_UP_MS;
    while (this.after < through && !this.sse.isClosed) {
      const chunk = await this.read(this.after);
      this.send(chunk.lines);
      await this.sse.drained();
      if (chunk.lines.length === 0) {
        if (Date.now() >= giveUp) return;
        await sleep(CATCH_UP_WAIT_MS);
      }
    }
  }
}
