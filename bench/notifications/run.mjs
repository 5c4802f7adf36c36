// Notifications benchmark (`npm run bench:notifications`): 1,000,000 notifications over 1,000
// users in real Postgres, read through the distributed gateway (gateway + credentials +
// organizations + notifications processes over NATS). Prints p50/p99 of the inbox's first page,
// a deep page, a filtered page and a 304 poll; of mark-as-read applyToAll on a 10,000-item inbox;
// and the ingest rate (events on the bus to notification rows, fan-out to 100 watchers); then
// checks that every per-user counts row still equals a recount of the inbox.
// Not a test: it prints figures. Environment (defaults in brackets):
//   BENCH_REQUESTS [500]    sequential requests per read workload
//   BENCH_MARKS [20]        mark-all requests (alternating read true/false)
//   BENCH_EVENTS [500]      ingest events (each notifies 100 watchers)
//   BENCH_SKIP_BUILD [0]    1: use the apps already in dist/
//   BENCH_SLOWEST [0]       N: print the N slowest requests of each read (index and ms)
//   BENCH_TRACE_GC [0]      1: each server logs its garbage collections (--trace-gc) to tmp/bench-notifications/<tag>/
//   BENCH_PG_ADMIN_URL [postgres://postgres@127.0.0.1:5432/test]
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, headers as natsHeaders } from 'nats';
import { killAllNow, stopAll } from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { startDistributed } from '../gateway/setups.mjs';
import { countForThreads, countsDisagreeing, seedInboxes, seedWatchers } from './seed.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const cfg = { requests: num('BENCH_REQUESTS', 500), marks: num('BENCH_MARKS', 20), events: num('BENCH_EVENTS', 500) };
const TARGETS = { page: 20, poll: 5, markAll: 200, ingest: 5000 };
const USERS = 1000;
const PER_USER = 1000;
const THREADS = 100_000;
const BIG_INBOX = 10_000;
const WATCHERS = 100;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const hex24 = (n) => n.toString(16).padStart(24, '0');

async function timed(times, fn) {
  const t0 = performance.now();
  const res = await fn();
  times.push(performance.now() - t0);
  return res;
}

async function admin(base, token, path, body) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The read workloads, measured one after the other by reader.mjs in a fresh process (see there why). */
async function measureReads(base, workloads) {
  // Asynchronous, so this process keeps draining the servers' log pipes meanwhile.
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    [
      join(dirname(fileURLToPath(import.meta.url)), 'reader.mjs'),
      JSON.stringify({ base, requests: cfg.requests, workloads }),
    ],
    { maxBuffer: 64 << 20 },
  );
  return JSON.parse(out).map(({ label, times, startedAt, statuses }) => {
    if (process.env.BENCH_SLOWEST) {
      const slow = times
        .map((ms, i) => [i, ms])
        .sort((a, b) => b[1] - a[1])
        .slice(0, Number(process.env.BENCH_SLOWEST));
      console.log(
        `  ${label}: slowest ${slow.map(([i, ms]) => `#${i} ${ms.toFixed(1)} (at ${startedAt[i]})`).join(', ')}`,
      );
    }
    return { label, p50: pct(times, 50), p99: pct(times, 99), statuses };
  });
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    execFileSync(
      'npx',
      ['nx', 'run-many', '-t', 'build', '-p', 'gateway', 'credentials', 'organizations', 'notifications'],
      { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } },
    );
  }
  const tag = randomBytes(4).toString('hex');
  const dbName = `bench_notifications_${tag}`;
  const busPrefix = `bench-notif-${tag}`;
  const logDir = join(root, 'tmp', 'bench-notifications', tag);
  mkdirSync(logDir, { recursive: true });
  const adminToken = randomBytes(24).toString('hex');
  await createDatabase(dbName);
  const url = databaseUrl(dbName);
  try {
    const stack = await startDistributed({
      root,
      logDir,
      adminToken,
      databaseUrl: url,
      busPrefix,
      extraServices: ['notifications'],
    });
    // 20 real users (tokens) among the 1,000 inbox owners, plus one with a 10,000-item inbox.
    const real = [];
    for (let i = 0; i < 21; i++) {
      const name = `bench-${tag}-${i}`;
      const user = await admin(stack.url, adminToken, '/admin/users', { name, email: `${name}@example.com` });
      const token = await admin(stack.url, adminToken, `/admin/users/${name}/tokens`, { role: 'write' });
      real.push({ id: user.id, token: token.token });
    }
    const big = real.pop();
    const synthetic = Array.from({ length: USERS - real.length }, (_, i) => hex24(0xb0000000 + i));
    const owners = [...real.map((u) => u.id), ...synthetic];
    let t0 = performance.now();
    await seedInboxes(url, { threadBase: 0x100000, threads: THREADS, users: owners, perUser: PER_USER });
    await seedInboxes(url, { threadBase: 0x900000, threads: BIG_INBOX, users: [big.id], perUser: BIG_INBOX });
    console.log(
      `seeded ${USERS * PER_USER + BIG_INBOX} notifications in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const etags = new Map();
    for (const u of real) {
      const res = await fetch(`${stack.url}/api/notifications`, { headers: { authorization: `Bearer ${u.token}` } });
      etags.set(u.id, res.headers.get('etag'));
      await res.arrayBuffer();
    }
    const users = (headersFor = () => ({})) => real.map((u) => ({ token: u.token, headers: headersFor(u) }));
    const reads = await measureReads(stack.url, [
      { label: 'first page', query: '', users: users() },
      { label: 'deep page (p=40)', query: '?p=40', users: users() },
      {
        label: 'filtered (unread, model, participating)',
        query: '?readStatus=unread&repoType=model&mention=participating',
        users: users(),
      },
      { label: '304 poll (If-None-Match)', query: '', users: users((u) => ({ 'if-none-match': etags.get(u.id) })) },
    ]);

    const markTimes = [];
    for (let i = 0; i < cfg.marks; i++) {
      const res = await timed(markTimes, () =>
        fetch(`${stack.url}/api/notifications/mark-as-read?applyToAll=true`, {
          method: 'POST',
          headers: { authorization: `Bearer ${big.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ read: i % 2 === 0 }),
        }),
      );
      const body = await res.json();
      // The seed leaves a quarter unread: the first call changes those, every later one all 10,000.
      if (i > 0 && body.changed !== BIG_INBOX) throw new Error(`mark-all changed ${body.changed}`);
    }

    const repo = `bench-org/bench-repo-${tag}`;
    await seedWatchers(url, { repo, watchers: Array.from({ length: WATCHERS }, (_, i) => hex24(0xc0000000 + i)) });
    const nc = await connect(stack.nats.connectOptions);
    const js = nc.jetstream();
    const threadIds = Array.from({ length: cfg.events }, (_, i) => hex24(0xd0000000 + i));
    t0 = performance.now();
    await Promise.all(
      threadIds.map((id, i) => {
        const h = natsHeaders();
        h.set('Nats-Msg-Id', `ingest-${tag}-${i}`);
        const payload = {
          event: { action: 'create', scope: 'discussion' },
          repo: { type: 'model', name: repo },
          discussion: { id, num: i, title: `Bench ${i}`, status: 'open', isPullRequest: false },
          actor: { _id: hex24(0xe0000000), avatar: 'https://avatars.example/x.png', user: 'bench-actor' },
          eventId: `ingest-${tag}-${i}`,
        };
        return js.publish(`${busPrefix}.hub.events.discussion.create`, JSON.stringify(payload), { headers: h });
      }),
    );
    const expected = cfg.events * WATCHERS;
    let got = 0;
    while (got < expected && performance.now() - t0 < 300_000) {
      await new Promise((r) => setTimeout(r, 200));
      got = await countForThreads(url, threadIds);
    }
    const ingestSeconds = (performance.now() - t0) / 1000;
    await nc.close();
    const disagreeing = await countsDisagreeing(url);

    console.log('\nGET /api/notifications through the distributed gateway (sequential requests, ms):');
    for (const r of reads) {
      const target = r.label.startsWith('304') ? TARGETS.poll : TARGETS.page;
      console.log(
        `  ${r.label.padEnd(44)} p50 ${r.p50.toFixed(2).padStart(7)}  p99 ${r.p99.toFixed(2).padStart(7)}  (target p99 <= ${target})  statuses ${JSON.stringify(r.statuses)}`,
      );
    }
    console.log(
      `\nmark-as-read applyToAll on a ${BIG_INBOX}-item inbox: p50 ${pct(markTimes, 50).toFixed(1)} ms  p99 ${pct(markTimes, 99).toFixed(1)} ms  (target <= ${TARGETS.markAll})`,
    );
    console.log(
      `ingest: ${cfg.events} events x ${WATCHERS} watchers = ${got}/${expected} notifications in ${ingestSeconds.toFixed(2)} s = ${(got / ingestSeconds).toFixed(0)} notifications/s, ${(cfg.events / ingestSeconds).toFixed(0)} events/s  (target >= ${TARGETS.ingest} notifications/s)`,
    );
    console.log(
      `counts rows (inbox_state) that differ from a recount of the inbox after all of the above: ${disagreeing} of ${USERS + 1 + WATCHERS} users`,
    );
    await stack.stop();
  } finally {
    await stopAll();
    await dropDatabase(dbName);
  }
}

main().catch(async (err) => {
  console.error(err);
  killAllNow();
  process.exit(1);
});
