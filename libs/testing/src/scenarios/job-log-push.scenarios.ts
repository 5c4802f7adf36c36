import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { runJob, streamJobLogs } from '@huggingface/hub';
import { makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget, waitForStage } from './jobs-helpers';

/** Counts the reads of stored log lines (`jobs.job.logs` RPCs) the hub's gateway makes, from now on. */
export interface LogReadCounter {
  readonly reads: number;
  close(): Promise<void>;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Figures {
  p50: number;
  p99: number;
  max: number;
}

function figuresOf(latencies: number[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] };
}

/** Milliseconds from a printed `date +%s%N` to now. */
const sinceStamp = (line: string, now: number): number => now - Number(BigInt(line) / 1_000_000n);

/**
 * The same script run bare beside the job, read through a pipe by this process: what this
 * machine's scheduling alone costs a line at that moment (a shared 2-core VM stalls processes for
 * tens of milliseconds under load), so the hub's own share can be told from it.
 */
function bareLatencies(script: string): Promise<number[]> {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const out: number[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (/^\d{19}$/.test(l)) out.push(sinceStamp(l, Date.now()));
  });
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

/**
 * Live log lines pushed to an open stream (issue 36, decision 0637), against a hub whose jobs run on
 * this machine (host mode: the job's clock is the test's). The job prints its clock in ns, line
 * after line; the client records when each line arrives. Then the job prints a marker and stays
 * quiet: while the stream is open and idle, the gateway reads nothing from the jobs service. And
 * streams opened while a job prints fast meet the stored log and the pushed lines without a seam.
 */
export function jobLogPushScenarios(
  target: () => JobTarget,
  countLogReads: () => Promise<LogReadCounter>,
  lines = 200,
): void {
  it(`pushes each line to an open log stream as it is printed (over ${lines} lines: p50 under 50 ms), with no read of the stored log while the stream idles`, async () => {
    const t = target();
    const u = await makeUser(t);
    const printing = `for i in $(seq ${lines}); do date +%s%N; sleep 0.02; done`;
    const job = await runJob({
      namespace: u.name,
      accessToken: u.token,
      hubUrl: t.baseUrl,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      command: ['sh', '-c', `sleep 1; ${printing}; echo quiet; sleep 3; echo last`],
    });
    const bare = bareLatencies(`sleep 1; ${printing}`);
    const latencies: number[] = [];
    /** Of each line's latency, the part before the jobs service took it (the event's timestamp). */
    const toService: number[] = [];
    const seen: string[] = [];
    let counter: LogReadCounter | null = null;
    let quietAt = 0;
    let readsWhileQuiet = -1;
    try {
      for await (const l of streamJobLogs({
        namespace: u.name,
        jobId: job.id,
        accessToken: u.token,
        hubUrl: t.baseUrl,
      })) {
        const now = Date.now();
        seen.push(l.message);
        if (/^\d{19}$/.test(l.message)) {
          latencies.push(sinceStamp(l.message, now));
          toService.push(sinceStamp(l.message, l.timestamp.getTime()));
        }
        if (l.message === 'quiet') {
          quietAt = now;
          const c = (counter = await countLogReads());
          // The job stays quiet 3 s: what the open stream read in 2.5 of them (the old poll: 25 reads).
          setTimeout(() => (readsWhileQuiet = c.reads), 2500);
        }
        // On a busy machine the quiet line can come late and the timer after the stream's end: then
        // what it read until the next line.
        if (l.message === 'last' && counter && readsWhileQuiet === -1) readsWhileQuiet = counter.reads;
      }
    } finally {
      await counter?.close();
    }
    // Every line once, in order; the stream ended with the job.
    expect(seen.slice(-2)).toEqual(['quiet', 'last']);
    expect(latencies).toHaveLength(lines);
    expect(seen.slice(0, lines).map((s) => BigInt(s))).toEqual(
      seen
        .slice(0, lines)
        .map((s) => BigInt(s))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    // The quiet spell: seconds without a line, and the open stream read nothing meanwhile.
    expect(Date.now() - quietAt).toBeGreaterThan(2500);
    expect(readsWhileQuiet).toBe(0);
    const hub = figuresOf(latencies);
    const machine = figuresOf(await bare);
    const worst = latencies
      .map((ms, i) => [ms, i, toService[i]])
      .sort((a, b) => b[0] - a[0])
      .slice(0, 6);
    const load = loadavg().map((l) => l.toFixed(1));
    const service = figuresOf(toService);
    console.log(
      `log line latency over ${lines} lines (ms): hub ${JSON.stringify(hub)} (printed → jobs service ${JSON.stringify(service)}), bare pipe ${JSON.stringify(machine)}; ` +
        `worst [ms, line, of which before the jobs service took it] ${JSON.stringify(worst)}; load ${load.join(' ')}`,
    );
    // Pushed, not polled: half of them within 50 ms of being printed (a poll every 100 ms could not).
    // The tail is a speed target, measured by `npm run bench:job-logs` on a quiet machine: here it
    // is the machine's (CI runs two suites at once; compare the bare pipe's, printed above).
    expect(hub.p50).toBeLessThan(50);
    const done = await waitForStage(t, u.token, u.name, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status.stage).toBe('COMPLETED');
  });

  it('streams opened while a job prints fast each show every line once, in order: none lost or doubled where the stored log meets the pushed lines', async () => {
    const t = target();
    const u = await makeUser(t);
    const count = 2000;
    const job = await runJob({
      namespace: u.name,
      accessToken: u.token,
      hubUrl: t.baseUrl,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      command: [
        'sh',
        '-c',
        `sleep 1; i=0; while [ $i -lt ${count} ]; do i=$((i+1)); echo $i; [ $((i % 10)) -eq 0 ] && sleep 0.01; done; true`,
      ],
    });
    const read = async (): Promise<string[]> => {
      const got: string[] = [];
      for await (const l of streamJobLogs({
        namespace: u.name,
        jobId: job.id,
        accessToken: u.token,
        hubUrl: t.baseUrl,
      }))
        got.push(l.message);
      return got;
    };
    // One stream from the start; the others opened as it sees the job's progress (mid-print).
    const later: Promise<string[]>[] = [];
    const opensAt = [200, 600, 1000, 1500];
    const first: string[] = [];
    for await (const l of streamJobLogs({
      namespace: u.name,
      jobId: job.id,
      accessToken: u.token,
      hubUrl: t.baseUrl,
    })) {
      first.push(l.message);
      if (opensAt.includes(Number(l.message))) later.push(read());
    }
    const all = Array.from({ length: count }, (_, i) => String(i + 1));
    expect(first).toEqual(all);
    expect(later).toHaveLength(opensAt.length);
    for (const got of await Promise.all(later)) expect(got).toEqual(all);
  });
}
