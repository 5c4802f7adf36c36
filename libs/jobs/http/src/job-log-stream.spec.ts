import { type JobStage } from '@hub/contracts';
import { type JobLogLine, type JobLogsChunk } from '@hub/jobs-contract';
import { LogViewer } from './job-log-feeds';
import { LogStream } from './job-log-stream';
import { type SseStream } from './sse';

const line = (n: number): JobLogLine => ({ seq: n, data: `line ${n}`, timestamp: '2026-11-28T06:00:00.000Z' });
const lines = (from: number, to: number): JobLogLine[] =>
  Array.from({ length: to - from + 1 }, (_, i) => line(from + i));

/** The jobs service's stored log as the stream reads it (`jobs.job.logs`): what is stored so far, in pages. */
class StoredLog {
  lines: JobLogLine[] = [];
  stage: JobStage = 'RUNNING';
  reads = 0;
  read = async (afterSeq: number): Promise<JobLogsChunk> => {
    this.reads++;
    return { stage: this.stage, lines: this.lines.filter((l) => l.seq > afterSeq).slice(0, 5000) };
  };
}

/** What the client receives: the data of each event. */
function client(): { sse: SseStream; got: string[] } {
  const got: string[] = [];
  const sse = {
    isClosed: false,
    whenClosed: new Promise<void>(() => undefined),
    send: (d: { data: string }) => got.push(d.data),
    drained: async () => undefined,
  };
  return { sse: sse as unknown as SseStream, got };
}

describe('a job log stream: the stored log, then the pushed lines, each once', () => {
  it('skips pushed lines the backfill already sent, and ends on `ended` once the store says the job ended', async () => {
    const store = new StoredLog();
    store.lines = lines(1, 3);
    const viewer = new LogViewer(() => undefined);
    const { sse, got } = client();
    const done = new LogStream(sse, viewer, store.read).run(await store.read(0));
    viewer.push({ after: 2, lines: lines(3, 4) });
    viewer.push({ after: 4, lines: [line(5)] });
    store.lines = lines(1, 5);
    store.stage = 'COMPLETED';
    viewer.push({ after: 5, lines: [], ended: true });
    await done;
    expect(got).toEqual(lines(1, 5).map((l) => l.data));
  });

  it('reads lines it missed at the seam (printed before it subscribed, stored later) before the pushed one', async () => {
    const store = new StoredLog();
    const viewer = new LogViewer(() => undefined);
    const { sse, got } = client();
    const done = new LogStream(sse, viewer, store.read).run(await store.read(0));
    // Lines 1 and 2 were pushed before the subscription and are not stored yet.
    viewer.push({ after: 2, lines: [line(3)] });
    setTimeout(() => (store.lines = lines(1, 3)), 60);
    viewer.push({ after: 3, lines: [], ended: true });
    setTimeout(() => (store.stage = 'COMPLETED'), 60);
    await done;
    expect(got).toEqual(lines(1, 3).map((l) => l.data));
  });

  it('a viewer that falls behind keeps at most 5,000 waiting lines, then reads the rest from the store', async () => {
    const store = new StoredLog();
    store.lines = lines(1, 20_000);
    const viewer = new LogViewer(() => undefined);
    for (let n = 0; n < 20; n++) viewer.push({ after: n * 1000, lines: lines(n * 1000 + 1, n * 1000 + 1000) });
    viewer.push({ after: 20_000, lines: [], ended: true });
    const waiting = (viewer as unknown as { queue: { lines: unknown[] }[] }).queue;
    expect(waiting.reduce((s, m) => s + m.lines.length, 0)).toBeLessThanOrEqual(5000);
    store.stage = 'COMPLETED';
    const { sse, got } = client();
    await new LogStream(sse, viewer, store.read).run({ stage: 'RUNNING', lines: [] });
    expect(got).toHaveLength(20_000);
    expect(got[19_999]).toBe('line 20000');
  });
});
