// The live-log mode of `npm run bench:jobs` (`npm run bench:job-logs`, BENCH_LOG_LINES=1; issue 36
// item 3, decision 0637): a job in host mode prints its clock (`date +%s%N`) BENCH_LOG_LINES_COUNT
// [500] times, BENCH_LOG_LINES_GAP_MS [20] apart, while this client reads its open log stream; the
// same script runs bare beside it, read through a pipe by this process (what the machine's scheduling
// alone costs a line at that moment). Prints each one's p50/p99/max in ms, the share of the hub's
// lines that reached the stream within 50 ms of being printed (the target) and within 50 ms
// past the bare pipe's p99, and the load average. Host mode only: the job's clock is this process's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { pct } from './stats.mjs';

const LINES = Number(process.env.BENCH_LOG_LINES_COUNT ?? 500);
const GAP_MS = Number(process.env.BENCH_LOG_LINES_GAP_MS ?? 20);
/** Issue 36: a line reaches an open stream within 50 ms of being printed. */
const TARGET_MS = 50;

const figures = (xs) => ({ p50: pct(xs, 50), p99: pct(xs, 99), max: Math.max(...xs) });
const stamp = /^\d{19}$/;
/** Milliseconds from a printed `date +%s%N` to now. */
const sinceStamp = (line, now) => now - Number(BigInt(line) / 1_000_000n);

/** The script run bare, read through a pipe: each line's latency. */
function bareLatencies(script) {
  const child = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const out = [];
  createInterface({ input: child.stdout }).on('line', (l) => {
    if (stamp.test(l)) out.push(sinceStamp(l, Date.now()));
  });
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

/** Reads a job's log stream (server-sent events) until it ends: each stamped line's latency. */
async function streamLatencies(base, token, ns, id) {
  const res = await fetch(`${base}/api/jobs/${ns}/${id}/logs`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET …/logs answered ${res.status}`);
  const out = [];
  let rest = '';
  for await (const chunk of res.body) {
    const now = Date.now();
    rest += Buffer.from(chunk).toString();
    const lines = rest.split('\n');
    rest = lines.pop();
    for (const l of lines) {
      if (!l.startsWith('data: ')) continue;
      const data = JSON.parse(l.slice(6));
      if (stamp.test(data.data)) out.push(sinceStamp(data.data, now));
    }
  }
  return out;
}

export async function logLines({ base, call }) {
  const user = `bench-logs-${randomBytes(3).toString('hex')}`;
  await call('POST', '/admin/users', undefined, { name: user, email: `${user}@example.com` });
  const { token } = await call('POST', `/admin/users/${user}/tokens`, undefined, { role: 'write' });
  const printing = `for i in $(seq ${LINES}); do date +%s%N; sleep ${GAP_MS / 1000}; done`;
  console.log(
    `one job printing ${LINES} lines ${GAP_MS} ms apart, its log stream open; the same script bare beside it…`,
  );
  const job = await call('POST', `/api/jobs/${user}`, token, {
    dockerImage: 'alpine:3',
    flavor: 'cpu-basic',
    command: ['sh', '-c', `sleep 1; ${printing}`],
  });
  const [hub, bare] = await Promise.all([
    streamLatencies(base, token, user, job.id),
    bareLatencies(`sleep 1; ${printing}`),
  ]);
  if (hub.length !== LINES) throw new Error(`the stream showed ${hub.length} of ${LINES} lines`);
  const b = figures(bare);
  const within = (limit) => ((100 * hub.filter((ms) => ms < limit).length) / hub.length).toFixed(1);
  console.log('');
  console.log(`hub stream (ms): ${JSON.stringify(figures(hub))}; bare pipe (ms): ${JSON.stringify(b)}`);
  console.log(
    `within ${TARGET_MS} ms of being printed: ${within(TARGET_MS)} % of lines (target: every line); ` +
      `within ${TARGET_MS} ms past the bare pipe's p99 (${b.p99} ms): ${within(TARGET_MS + b.p99)} %`,
  );
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
