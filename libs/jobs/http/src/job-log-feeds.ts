import { Injectable } from '@nestjs/common';
import { JobLogLive, type JobLogLiveEvent } from '@hub/jobs-contract';
import { LiveBus } from '@hub/messaging';

/**
 * Most lines one viewer holds waiting for its connection: past it the waiting lines are dropped
 * and the viewer reads them back from the stored log once its client keeps up (decision 0637).
 */
const MAX_WAITING_LINES = 5000;

/** One open log stream's side of a job's live lines: a bounded queue. */
export class LogViewer {
  private queue: JobLogLiveEvent[] = [];
  private waitingLines = 0;
  private wake: (() => void) | null = null;

  constructor(readonly close: () => void) {}

  /** A message from the job's runner (called in the bus's turn: only queues). */
  push(message: JobLogLiveEvent): void {
    this.queue.push(message);
    this.waitingLines += message.lines.length;
    if (this.waitingLines > MAX_WAITING_LINES) {
      // Fell behind: what waits is forgotten, and the marker left says up to where to read it back.
      const last = this.queue[this.queue.length - 1];
      const through = last.lines.length > 0 ? last.lines[last.lines.length - 1].seq : last.after;
      const ended = this.queue.some((m) => m.ended);
      this.queue = [{ after: through, lines: [], ...(ended ? { ended } : {}) }];
      this.waitingLines = 0;
    }
    this.wake?.();
  }

  /** The next message; null after `ms` without one, or once `stop` resolves. */
  async next(ms: number, stop: Promise<void>): Promise<JobLogLiveEvent | null> {
    if (this.queue.length === 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => {
          this.wake = resolve;
          timer = setTimeout(resolve, ms);
        }),
        stop,
      ]);
      clearTimeout(timer);
      this.wake = null;
    }
    const message = this.queue.shift() ?? null;
    if (message) this.waitingLines -= message.lines.length;
    return message;
  }
}

interface Feed {
  viewers: Set<LogViewer>;
  ready: Promise<() => void>;
}

/**
 * The live log lines of the jobs this gateway replica streams: one subscription per job, shared by
 * all of its viewers here, dropped with the last one.
 */
@Injectable()
export class JobLogFeeds {
  private readonly feeds = new Map<string, Feed>();

  constructor(private readonly live: LiveBus) {}

  /** A viewer of the job's live lines; resolves once the subscription is in place (what the job prints from now on reaches it). */
  async watch(jobId: string): Promise<LogViewer> {
    let feed = this.feeds.get(jobId);
    if (!feed) {
      const viewers = new Set<LogViewer>();
      const ready = this.live.watch(JobLogLive.of(jobId), (m) => {
        for (const v of viewers) v.push(m);
      });
      feed = { viewers, ready };
      this.feeds.set(jobId, feed);
    }
    const f = feed;
    const viewer = new LogViewer(() => {
      f.viewers.delete(viewer);
      if (f.viewers.size > 0 || this.feeds.get(jobId) !== f) return;
      this.feeds.delete(jobId);
      void f.ready.then((unsubscribe) => unsubscribe()).catch(() => undefined);
    });
    f.viewers.add(viewer);
    try {
      await f.ready;
    } catch (e) {
      viewer.close();
      throw e;
    }
    return viewer;
  }
}
