// Issue 40 item 3 in bench:webhooks (run.mjs hands over to this file when one of these is set):
//
// BENCH_FANOUT=<N> (e.g. 1000): N webhooks of N users (BENCH_FANOUT_USERS owners, default N) watch
//   one repo; BENCH_FANOUT_EVENTS (5) events are published one at a time, each once the last one's
//   N deliveries were all received. Per event: publish → 202, → the intake statement's start (the
//   rows' created_at, now() of its transaction), → all N rows visible (committed: a connection of
//   the bench counts them every BENCH_FANOUT_POLL_MS, 2), → first and last receipt. p50 and max
//   over the events. One webhook is created through the API, the other N − 1 are copies of its row
//   (owner, id and name changed) written with SQL, as seedExtra writes the non-matching ones.
// BENCH_WEBHOOKS_REPLICAS=<k> (e.g. 2): the distributed mode's usual load (BENCH_EVENTS ×
//   BENCH_WEBHOOKS at BENCH_RATE; 0: as fast as it goes, the drain rate) against 1 and then k webhooks
//   processes; deliveries/s, CPU ms per delivery (the webhooks processes; every server + the run's
//   own Postgres backends + NATS) of each, and k's figures as ratios to 1's.
// BENCH_EXTRA_COMPARE=1: each mode of BENCH_MODES with 0 and with BENCH_EXTRA_WEBHOOKS (100000)
//   non-matching webhooks, one after the other; the same figures, as ratios of with to without.
// BENCH_PAIR_REVERSED=1: each pair runs its second member first (k replicas before 1, with the extra
//   webhooks before without), so two runs in both orders cancel the machine's drift.
// BENCH_TREE=<dir>: run another build (a checkout with its apps built in <dir>/dist, as BENCH_BASELINE).
// Every run prints the load average before and after and the cores other sessions used: a pair of
// runs taken one after the other on the shared machine is what a ratio is worth.
import { loadavg } from 'node:os';
import pg from 'pg';
import { cpuAccount, stopAll } from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { api, repoUpdateEvent } from './api.mjs';
import { backendCpu, backendDelta, stages } from './measures.mjs';
import { ADMIN, logDir, receiver, root, seedExtra, start, wallNow, withRetries } from './servers.mjs';

const MODES = (process.env.BENCH_MODES ?? 'distributed,all-in-one').split(',');
const TREE = process.env.BENCH_TREE ?? root;
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 900);
const load = () => loadavg().map((l) => +l.toFixed(2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
};

/** A run's database, receiver and servers, always torn down. */
async function withHub(mode, options, work) {
  const name = `bench_webhooks_scale_${mode.replace(/-/g, '_')}_${Date.now()}`;
  await createDatabase(name);
  const dbUrl = databaseUrl(name);
  const rx = await receiver();
  let env;
  try {
    env = await start(mode, dbUrl, TREE, rx.url, options);
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const user = await api(env.url, 'POST', '/admin/users', ADMIN, {
      name: `bench${stamp}`,
      email: `bench${stamp}@example.com`,
    });
    const { token } = await api(env.url, 'POST', `/admin/users/${user.name}/tokens`, ADMIN, { role: 'write' });
    return await work({ env, dbUrl, rx, user, token, repo: `${user.name}/model` });
  } finally {
    await stopAll();
    await env?.nats?.stop();
    await rx.close();
    await dropDatabase(name).catch(() => undefined);
  }
}

function createHook(env, token, repo, url) {
  return api(env.url, 'POST', '/api/settings/webhooks', token, {
    watched: [{ type: 'model', name: repo }],
    domains: ['repo'],
    url,
    secret: 'bench-secret',
  });
}

// ---------------------------------------------------------------------------------------------
// Fan-out: one event matching N webhooks.

/** N − 1 copies of the template webhook (and its watched row), each of one of `users` owners. */
async function copyWebhook(dbUrl, templateId, count, users) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, secret_enc, domains)
       SELECT 'f' || lpad(to_hex(i), 23, '0'), 'e' || lpad(to_hex(i % $3), 23, '0'), 'fan' || (i % $3), w.url, w.secret_enc, w.domains
       FROM webhooks.webhooks w, generate_series(1, $2) i WHERE w.id = $1`,
      [templateId, count, users],
    );
    await c.query(
      `INSERT INTO webhooks.watched (webhook_id, type, name, position)
       SELECT 'f' || lpad(to_hex(i), 23, '0'), x.type, x.name, x.position
       FROM webhooks.watched x, generate_series(1, $2) i WHERE x.webhook_id = $1`,
      [templateId, count],
    );
    await c.query('VACUUM (ANALYZE) webhooks.webhooks, webhooks.watched'); // as seedExtra
  } finally {
    await c.end();
  }
}

async function fanout(mode, N) {
  const EVENTS = Number(process.env.BENCH_FANOUT_EVENTS ?? 5);
  const USERS = Number(process.env.BENCH_FANOUT_USERS ?? N);
  const POLL_MS = Number(process.env.BENCH_FANOUT_POLL_MS ?? 2);
  const EXTRA = Number(process.env.BENCH_EXTRA_WEBHOOKS ?? 0);
  return withHub(mode, {}, async ({ env, dbUrl, rx, user, token, repo }) => {
    const template = await createHook(env, token, repo, rx.url);
    if (N > 1) await copyWebhook(dbUrl, template.webhook.id, N - 1, Math.max(1, USERS - 1));
    if (EXTRA > 0) await seedExtra(dbUrl, user.id, EXTRA);
    const poller = new pg.Client({ connectionString: dbUrl });
    await poller.connect();
    const count = async () => Number((await poller.query('SELECT count(*) AS n FROM webhooks.deliveries')).rows[0].n);
    const pollerPid = (await poller.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // CPU of the run's own Postgres backends (the poller's left out), from before the publish to all rows visible.
    const backends = async () => {
      const m = await backendCpu(dbUrl);
      m.delete(pollerPid);
      return m;
    };
    const loadBefore = load();
    const cpu = cpuAccount(env.procs);
    const published = new Map();
    const accepted = new Map();
    const rows = [];
    try {
      for (let e = 0; e < EVENTS; e++) {
        const action = `fan${e}`;
        const before = await count();
        const cpuBefore = await backends();
        const sent = wallNow();
        published.set(action, sent);
        const answer = withRetries(() =>
          api(env.url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(repo, user.id, action)),
        ).then(() => accepted.set(action, wallNow()));
        let visibleAt = null;
        const deadline = Date.now() + TIMEOUT_S * 1000;
        while (Date.now() < deadline) {
          const n = await count();
          if (n - before >= N) {
            visibleAt = wallNow();
            break;
          }
          await sleep(POLL_MS);
        }
        const postgresCpuMs = backendDelta(cpuBefore, await backends());
        await answer;
        const mine = () => [...rx.seen.entries()].filter(([k]) => k.startsWith(`${action}|`)).map(([, at]) => at);
        while (mine().length < N && Date.now() < deadline) await sleep(20);
        const got = mine();
        const r = await poller.query(
          `SELECT extract(epoch from min(created_at)) * 1000 AS first, extract(epoch from max(created_at)) * 1000 AS last, count(*)::int AS n
           FROM webhooks.deliveries WHERE payload::json->'event'->>'action' = $1`,
          [action],
        );
        rows.push({
          event: action,
          queued: r.rows[0].n,
          received: got.length,
          publishToAccepted: accepted.get(action) - sent,
          publishToStatementStart: Number(r.rows[0].first) - sent,
          statementStartsSpreadMs: Number(r.rows[0].last) - Number(r.rows[0].first),
          publishToAllQueued: visibleAt === null ? null : visibleAt - sent,
          // Postgres CPU of the run's database until then (10 ms ticks): the intake statement, and the bus's work in all-in-one.
          postgresCpuMsToQueued: postgresCpuMs,
          publishToFirstReceived: Math.min(...got) - sent,
          publishToAllReceived: Math.max(...got) - sent,
        });
      }
    } finally {
      await poller.end();
    }
    const used = cpu();
    const round = (x) => (x === null ? null : +x.toFixed(1));
    for (const row of rows) console.log(JSON.stringify({ mode, fanout: N, ...mapValues(row, round) }));
    const summary = (k) =>
      `${pct(
        rows.map((x) => x[k] ?? Infinity),
        0.5,
      )} / ${pct(
        rows.map((x) => x[k] ?? Infinity),
        1,
      )}`;
    const delivered = rows.reduce((a, x) => a + x.received, 0);
    console.log(
      JSON.stringify({
        mode,
        tree: TREE,
        fanout: N,
        owners: Math.min(USERS, N),
        extraWebhooks: EXTRA,
        events: EVENTS,
        allQueuedAndReceived: rows.every((x) => x.queued === N && x.received === N),
        duplicates: rx.dups(),
        p50MaxMs: {
          publishToAccepted: summary('publishToAccepted'),
          publishToStatementStart: summary('publishToStatementStart'),
          publishToAllQueued: summary('publishToAllQueued'),
          postgresCpuMsToQueued: summary('postgresCpuMsToQueued'),
          publishToFirstReceived: summary('publishToFirstReceived'),
          publishToAllReceived: summary('publishToAllReceived'),
        },
        queuedUnder100Ms: rows.filter((x) => x.publishToAllQueued !== null && x.publishToAllQueued < 100).length,
        pollEveryMs: POLL_MS,
        serversCpuMsPerDelivery: +(used.ms.server / Math.max(1, delivered)).toFixed(3),
        otherSessionsCores: +used.cores.other.toFixed(2),
        loadAverageBefore: loadBefore,
        loadAverageAfter: load(),
      }),
    );
  });
}

function mapValues(o, f) {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? f(v) : v]));
}

// ---------------------------------------------------------------------------------------------
// The usual sustained load (run.mjs's, without the baseline, paced phase and profiles), for pairs.

async function sustained(mode, { replicas = 1, extra = 0, label }) {
  const N = Number(process.env.BENCH_EVENTS ?? 20000);
  const W = Number(process.env.BENCH_WEBHOOKS ?? 10);
  const RATE = Number(process.env.BENCH_RATE ?? 1000);
  return withHub(mode, { webhooksReplicas: replicas }, async ({ env, dbUrl, rx, user, token, repo }) => {
    for (let i = 0; i < W; i++) await createHook(env, token, repo, rx.url);
    if (extra > 0) await seedExtra(dbUrl, user.id, extra);
    const cpu = cpuAccount(env.procs);
    const deliverers = cpuAccount(env.deliverers);
    const backendsBefore = await backendCpu(dbUrl);
    const published = new Map();
    const accepted = new Map();
    const loadBefore = load();
    const t0 = wallNow();
    const gap = RATE > 0 ? (1000 * W) / RATE : 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < N) {
          const i = next++;
          const wait = t0 + i * gap - wallNow();
          if (wait > 0) await sleep(wait);
          published.set(`e${i}`, wallNow());
          await withRetries(() =>
            api(env.url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(repo, user.id, `e${i}`)),
          );
          accepted.set(`e${i}`, wallNow());
        }
      }),
    );
    const expected = N * W;
    const deadline = Date.now() + TIMEOUT_S * 1000;
    while (rx.seen.size < expected && Date.now() < deadline) await sleep(200);
    let last = t0;
    for (const at of rx.seen.values()) if (at > last) last = at;
    const used = cpu();
    const usedByWebhooks = deliverers();
    const ownPostgresMs = backendDelta(backendsBefore, await backendCpu(dbUrl));
    await sleep(1000); // late duplicates
    const delivered = rx.seen.size;
    const latencies = [...rx.seen.entries()].map(([k, at]) => at - published.get(k.split('|')[0]));
    const natsMs = env.nats ? used.ms.nats : 0;
    const result = {
      mode,
      run: label,
      webhooksReplicas: replicas,
      extraWebhooks: extra,
      events: N,
      webhooks: W,
      offeredPerSecond: RATE || 'max',
      published: expected,
      delivered,
      lost: expected - delivered,
      duplicates: rx.dups(),
      deliveriesPerSecond: Math.round(delivered / ((last - t0) / 1000)),
      p50ms: pct(latencies, 0.5),
      p99ms: pct(latencies, 0.99),
      webhooksCpuMsPerDelivery: +(usedByWebhooks.ms.server / delivered).toFixed(3),
      cpuMsPerDeliveryByServer: Object.fromEntries(
        Object.entries(used.byServer).map(([k, ms]) => [k, +(ms / delivered).toFixed(3)]),
      ),
      ownPostgresCpuMsPerDelivery: +(ownPostgresMs / delivered).toFixed(3),
      natsCpuMsPerDelivery: +(natsMs / delivered).toFixed(3),
      // Every process counted: the servers, the run's own Postgres backends, the run's NATS (not the bench).
      cpuMsPerDelivery: +((used.ms.server + ownPostgresMs + natsMs) / delivered).toFixed(3),
      otherSessionsCores: +used.cores.other.toFixed(2),
      stagesP50P99Ms: await stages(dbUrl, published, accepted, rx.seen),
      loadAverageBefore: loadBefore,
      loadAverageAfter: load(),
    };
    console.log(JSON.stringify(result));
    return result;
  });
}

function ratios(mode, what, a, b) {
  const r = (k) => +(b[k] / a[k]).toFixed(3);
  console.log(
    JSON.stringify({
      mode,
      ratio: what,
      deliveriesPerSecond: r('deliveriesPerSecond'),
      cpuMsPerDelivery: r('cpuMsPerDelivery'),
      webhooksCpuMsPerDelivery: r('webhooksCpuMsPerDelivery'),
      ownPostgresCpuMsPerDelivery: r('ownPostgresCpuMsPerDelivery'),
      p99: +(b.p99ms / Math.max(1, a.p99ms)).toFixed(2),
      bothBalanced: a.lost === 0 && b.lost === 0,
    }),
  );
}

if (process.env.BENCH_FANOUT) {
  for (const mode of MODES) await fanout(mode, Number(process.env.BENCH_FANOUT));
}
/** Both members of a pair, in the order asked for; answered in the pair's own order. */
async function pair(first, second) {
  if (process.env.BENCH_PAIR_REVERSED !== '1') return [await first(), await second()];
  const b = await second();
  return [await first(), b];
}

if (process.env.BENCH_WEBHOOKS_REPLICAS) {
  const k = Number(process.env.BENCH_WEBHOOKS_REPLICAS);
  const [one, more] = await pair(
    () => sustained('distributed', { replicas: 1, label: '1 replica' }),
    () => sustained('distributed', { replicas: k, label: `${k} replicas` }),
  );
  ratios('distributed', `${k} replicas / 1`, one, more);
}
if (process.env.BENCH_EXTRA_COMPARE === '1') {
  const extra = Number(process.env.BENCH_EXTRA_WEBHOOKS || 100000);
  for (const mode of MODES) {
    const [without, withExtra] = await pair(
      () => sustained(mode, { extra: 0, label: 'no extra webhooks' }),
      () => sustained(mode, { extra, label: `${extra} extra webhooks` }),
    );
    ratios(mode, `${extra} extra webhooks / none`, without, withExtra);
  }
}
console.log(`logs: ${logDir}`);
