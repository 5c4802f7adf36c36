// npm run bench:webhooks — N events matching W webhooks, delivered to a loopback receiver, in the
// distributed mode (gateway + services + webhooks over NATS and Postgres) and all-in-one (the hub
// on Postgres, in-process bus). A ledger per run: published × W must equal delivered (distinct
// event × webhook at the receiver), duplicates apart; a run that does not balance is void.
// Settings: BENCH_EVENTS (20000), BENCH_WEBHOOKS (10), BENCH_EXTRA_WEBHOOKS (0; e.g. 100000
// registered but not matching), BENCH_MODES (distributed,all-in-one), BENCH_TIMEOUT_S (900),
// BENCH_RATE (deliveries/s offered, open loop: events go out at BENCH_RATE / W per second; 0 = as
// fast as 32 publishers can, which measures the backlog's drain rather than a sustained rate),
// BENCH_CPU_PROF=<dir> (V8 CPU profile of the delivering process over the measured window),
// BENCH_PACED_RATE (50; 0 skips it): after the main window, in the same hub, one more webhook with
// delivery options {maxPerSecond: BENCH_PACED_RATE} gets BENCH_PACED_EVENTS (10 s worth) events at
// once; the rate it is delivered at, first receipt to last, is printed with its error (decision 0503).
// BENCH_BASELINE=<dir>: a checkout of the code to compare with, its apps built in <dir>/dist; each
// mode runs the baseline, then this tree, and prints deliveriesPerSecond's ratio (a busy shared
// machine moves absolute figures by a factor; two runs side by side move together; BENCH_BASELINE_LAST=1
// runs this tree first).
// Besides rates and latency it prints load-independent figures (CPU ms per delivery of each server,
// of the run's own Postgres backends and of NATS; transactions and row versions per table), where the
// latency goes (stagesP50P99Ms: publish → 202, → delivery row, → receipt, attempt duration,
// receipt → outcome row) and the load average before and after: figures taken on a busy machine
// are not verdicts.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startBenchNats } from '../gateway/bench-nats.mjs';
import {
  cpuAccount,
  enableProfiling,
  runNode,
  startNode,
  stopAll,
  toggleProfiles,
  waitReady,
} from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { freePort } from '../gateway/processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const N = Number(process.env.BENCH_EVENTS ?? 20000);
const W = Number(process.env.BENCH_WEBHOOKS ?? 10);
const EXTRA = Number(process.env.BENCH_EXTRA_WEBHOOKS ?? 0);
const MODES = (process.env.BENCH_MODES ?? 'distributed,all-in-one').split(',');
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 900);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 50);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? PACED_RATE * 10);
if (process.env.BENCH_CPU_PROF) enableProfiling(process.env.BENCH_CPU_PROF);
const ADMIN = 'bench-webhooks-admin-token-0123456789';
const logDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
const settings = {
  HUB_SECRET_KEY: 'bench-webhooks-secret-key-0123456789',
  HUB_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: '100000000',
  HUB_WEBHOOKS_MAX_PER_USER: '100000',
  HUB_RATE_LIMIT_PER_MINUTE: '1000000000',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};

/** Wall-clock ms with sub-ms precision, comparable with Postgres' now() on this machine (stage times). */
const wallNow = () => performance.timeOrigin + performance.now();
const load = () => loadavg().map((l) => +l.toFixed(2));

function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
}

async function receiver() {
  const seen = new Map(); // "action|webhookId" → first receipt time (wall clock)
  const paced = []; // receipt times of the paced webhook's deliveries
  let duplicates = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const p = JSON.parse(Buffer.concat(chunks).toString());
      if (p.event.action.startsWith('paced-')) {
        paced.push(wallNow());
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }
      const key = `${p.event.action}|${p.webhook.id}`;
      if (seen.has(key)) duplicates++;
      else seen.set(key, wallNow());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    seen,
    paced,
    dups: () => duplicates,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

async function api(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A publish the loaded machine's NATS timed out (5xx) is tried again: at worst a duplicate, which the ledger counts. */
async function withRetries(call, tries = 5) {
  for (let i = 1; ; i++) {
    try {
      return await call();
    } catch (err) {
      if (i >= tries || !/: 5\d\d /.test(String(err.message))) throw err;
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }
}

async function start(mode, dbUrl, tree = root) {
  const app = (name) => join(tree, `dist/apps/${name}/main.js`);
  if (mode === 'all-in-one') {
    const port = await freePort();
    const hub = startNode('hub', [app('hub')], {
      env: {
        ...settings,
        DATABASE_URL: dbUrl,
        HUB_MIGRATE_ON_START: 'true',
        HUB_ADMIN_TOKEN: ADMIN,
        PORT: String(port),
        HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-hub-')),
        NATS_URL: undefined,
      },
      logDir,
      cwd: root,
    });
    await waitReady(hub, `http://127.0.0.1:${port}/health/ready`, 120_000);
    return { url: `http://127.0.0.1:${port}`, procs: [hub], deliverers: [hub] };
  }
  const busPrefix = `benchwh${Date.now()}`;
  // A NATS of the run's own with the hub's users and permissions, each app as its own user.
  const nats = await startBenchNats({ root, logDir, busPrefix });
  const common = { ...settings, DATABASE_URL: dbUrl, HUB_BUS_PREFIX: busPrefix };
  for (const s of ['credentials', 'organizations', 'webhooks'])
    await runNode(`${s}-migrate`, [app(s), 'migrate'], { env: common, logDir, cwd: root });
  const procs = [];
  for (const s of ['credentials', 'organizations', 'webhooks', 'gateway']) {
    const port = await freePort();
    const p = startNode(s, [app(s)], {
      env: { ...common, ...nats.env(s), PORT: String(port), HUB_ADMIN_TOKEN: ADMIN },
      logDir,
      cwd: root,
    });
    await waitReady(p, `http://127.0.0.1:${port}/health/ready`, 120_000);
    procs.push(Object.assign(p, { url: `http://127.0.0.1:${port}` }));
  }
  return { url: procs[3].url, procs, deliverers: [procs[2]], nats };
}

async function statements(dbUrl) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query(
      'SELECT xact_commit + xact_rollback AS x, tup_inserted + tup_updated + tup_deleted AS w FROM pg_stat_database WHERE datname = current_database()',
    );
    return { xacts: Number(r.rows[0].x), writes: Number(r.rows[0].w) };
  } finally {
    await c.end();
  }
}

/** CPU ms of each Postgres backend serving the run's database (other sessions' Postgres work left out), by pid. */
async function backendCpu(dbUrl) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const out = new Map();
    for (const { pid } of r.rows) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // gone meanwhile
      }
    }
    return out;
  } finally {
    await c.end();
  }
}

/** CPU ms the run's own backends used between two backendCpu samples (a backend new since the first counts whole). */
function backendDelta(before, after) {
  let ms = 0;
  for (const [pid, at] of after) ms += at - (before.get(pid) ?? 0);
  return ms;
}

/** Row versions written per table of the webhooks schema (HOT updates add no index entries). */
async function tableWrites(dbUrl) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await new Promise((r) => setTimeout(r, 1000)); // the statistics reach the view within a second
    const r = await c.query(
      `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del FROM pg_stat_user_tables WHERE schemaname = 'webhooks' AND n_tup_ins + n_tup_upd + n_tup_del > 0`,
    );
    return Object.fromEntries(r.rows.map((x) => [x.relname, `ins ${x.ins} upd ${x.upd} (hot ${x.hot}) del ${x.del}`]));
  } finally {
    await c.end();
  }
}

async function failedAttempts(dbUrl) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r =
      await c.query(`SELECT coalesce(error, 'HTTP ' || status) AS why, count(*)::int AS n FROM webhooks.delivery_logs
      WHERE status IS NULL OR status >= 300 GROUP BY 1 ORDER BY 2 DESC LIMIT 3`);
    return Object.fromEntries(r.rows.map((x) => [x.why.slice(0, 80), x.n]));
  } finally {
    await c.end();
  }
}

/**
 * Where the time goes, per delivery, from the rows the service keeps: published (request sent) →
 * accepted (202, the bus has it) → queued (the delivery row's created_at: intake done) → received
 * (first receipt) → logged (the outcome statement's now()). p50/p99 of each step, in ms.
 */
async function stages(dbUrl, published, accepted, seen) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    // The logs aggregated once and joined (a subquery per delivery scans the logs each time: hours at 200,000).
    const r =
      await c.query(`SELECT d.webhook_id, d.payload::json->'event'->>'action' AS action, extract(epoch from d.created_at) * 1000 AS queued,
        extract(epoch from l.first_at) * 1000 AS logged, l.attempt
      FROM webhooks.deliveries d
      LEFT JOIN (SELECT delivery_id, min(created_at) AS first_at, min(duration_ms) AS attempt FROM webhooks.delivery_logs GROUP BY delivery_id) l
        ON l.delivery_id = d.id`);
    const steps = { accept: [], intake: [], deliver: [], record: [], attempt: [] };
    for (const row of r.rows) {
      const sent = published.get(row.action);
      const got = seen.get(`${row.action}|${row.webhook_id}`);
      if (sent === undefined || got === undefined) continue;
      steps.accept.push(accepted.get(row.action) - sent);
      steps.intake.push(Number(row.queued) - sent);
      steps.deliver.push(got - Number(row.queued));
      if (row.logged !== null) steps.record.push(Number(row.logged) - got);
      if (row.attempt !== null) steps.attempt.push(Number(row.attempt));
    }
    const pct = (xs) => {
      xs.sort((a, b) => a - b);
      const q = (p) => Math.round(xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN);
      return `${q(0.5)}/${q(0.99)}`;
    };
    return {
      publishToAccepted: pct(steps.accept),
      publishToQueued: pct(steps.intake),
      queuedToReceived: pct(steps.deliver),
      attemptDuration: pct(steps.attempt),
      receivedToLogged: pct(steps.record),
    };
  } finally {
    await c.end();
  }
}

async function seedExtra(dbUrl, ownerId, count) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains)
      SELECT lpad(to_hex(i), 24, '0'), $1, 'bench', 'http://127.0.0.1:9/none', ARRAY['repo'] FROM generate_series(1, $2) i`,
      [ownerId, count],
    );
    await c.query(
      `INSERT INTO webhooks.watched (webhook_id, type, name, position)
      SELECT lpad(to_hex(i), 24, '0'), 'model', 'other/repo-' || i, 1 FROM generate_series(1, $1) i`,
      [count],
    );
  } finally {
    await c.end();
  }
}

async function run(mode, tree = root, label = 'current') {
  const name = `bench_webhooks_${mode.replace(/-/g, '_')}_${Date.now()}`;
  await createDatabase(name);
  const dbUrl = databaseUrl(name);
  const rx = await receiver();
  let env;
  let result;
  try {
    env = await start(mode, dbUrl, tree);
    const user = await api(env.url, 'POST', '/admin/users', ADMIN, {
      name: `bench${Date.now()}`,
      email: `bench${Date.now()}@example.com`,
    });
    const { token } = await api(env.url, 'POST', `/admin/users/${user.name}/tokens`, ADMIN, { role: 'write' });
    const repo = `${user.name}/model`;
    for (let i = 0; i < W; i++)
      await api(env.url, 'POST', '/api/settings/webhooks', token, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: rx.url,
        secret: 'bench-secret',
      });
    if (EXTRA > 0) await seedExtra(dbUrl, user.id, EXTRA);
    const before = await statements(dbUrl);
    const cpu = cpuAccount(env.deliverers);
    const servers = cpuAccount(env.procs);
    const backendsBefore = await backendCpu(dbUrl);
    await toggleProfiles(env.deliverers);
    const published = new Map();
    const accepted = new Map();
    const loadBefore = load();
    const t0 = wallNow();
    const eventGapMs = RATE > 0 ? (1000 * W) / RATE : 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < N) {
          const i = next++;
          const wait = t0 + i * eventGapMs - wallNow();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          published.set(`e${i}`, wallNow());
          await withRetries(() =>
            api(env.url, 'POST', '/admin/events', ADMIN, {
              subject: 'hub.events.repo.update',
              payload: {
                event: { action: `e${i}`, scope: 'repo.content' },
                repo: {
                  type: 'model',
                  name: repo,
                  id: '0123456789abcdef01234567',
                  private: false,
                  url: { web: 'x', api: 'y' },
                  owner: { id: user.id },
                },
              },
            }),
          );
          accepted.set(`e${i}`, wallNow());
        }
      }),
    );
    const publishedIn = (wallNow() - t0) / 1000;
    const expected = N * W;
    let rss = 0;
    const deadline = Date.now() + TIMEOUT_S * 1000;
    while (rx.seen.size < expected && Date.now() < deadline) {
      for (const p of env.deliverers) rss = Math.max(rss, rssMb(p.child.pid) ?? 0);
      await new Promise((r) => setTimeout(r, 200));
    }
    // No spread: 200,000 arguments overflow the stack (the default N × W).
    let last = t0;
    for (const at of rx.seen.values()) if (at > last) last = at;
    const elapsed = (last - t0) / 1000;
    const used = cpu();
    const usedByServers = servers();
    const ownPostgresMs = backendDelta(backendsBefore, await backendCpu(dbUrl));
    await toggleProfiles(env.deliverers);
    await new Promise((r) => setTimeout(r, 1000)); // late duplicates
    const after = await statements(dbUrl);
    const loadAfter = load();
    const latencies = [...rx.seen.entries()]
      .map(([k, at]) => at - published.get(k.split('|')[0]))
      .sort((a, b) => a - b);
    const q = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]);
    const delivered = rx.seen.size;
    console.log(
      JSON.stringify({
        mode,
        tree: label,
        events: N,
        webhooks: W,
        extraWebhooks: EXTRA,
        offeredPerSecond: RATE || 'max',
        publishedPerSecond: Math.round(expected / publishedIn),
        published: expected,
        delivered,
        lost: expected - delivered,
        duplicates: rx.dups(),
        balanced: delivered === expected,
        deliveriesPerSecond: Math.round(delivered / elapsed),
        p50ms: q(0.5),
        p99ms: q(0.99),
        maxMs: q(1),
        transactionsPerDelivery: +((after.xacts - before.xacts) / delivered).toFixed(3),
        rowWritesPerDelivery: +((after.writes - before.writes) / delivered).toFixed(2),
        delivererCpuMsPerDelivery: +(used.ms.server / delivered).toFixed(3),
        allServersCpuMsPerDelivery: +(usedByServers.ms.server / delivered).toFixed(3),
        cpuMsPerDeliveryByServer: Object.fromEntries(
          Object.entries(usedByServers.byServer).map(([k, ms]) => [k, +(ms / delivered).toFixed(3)]),
        ),
        postgresCpuMsPerDelivery: +(used.ms.postgres / delivered).toFixed(3),
        ownPostgresCpuMsPerDelivery: +(ownPostgresMs / delivered).toFixed(3),
        natsCpuMsPerDelivery: +(used.ms.nats / delivered).toFixed(3),
        benchCpuMsPerDelivery: +(used.ms.loadgen / delivered).toFixed(3),
        otherSessionsCores: +used.cores.other.toFixed(2),
        delivererPeakRssMb: rss,
        failedAttempts: await failedAttempts(dbUrl),
        stagesP50P99Ms: await stages(dbUrl, published, accepted, rx.seen),
        rowVersions: await tableWrites(dbUrl),
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAfter,
      }),
    );
    result = { deliveriesPerSecond: Math.round(delivered / elapsed), balanced: delivered === expected };
    if (PACED_RATE > 0 && label === 'current')
      console.log(JSON.stringify({ mode, ...(await pacedPhase(env.url, token, user, rx)) }));
  } finally {
    await stopAll();
    await env?.nats?.stop();
    await rx.close();
    await dropDatabase(name).catch(() => undefined);
  }
  return result;
}

/**
 * One webhook paced at PACED_RATE, given PACED_EVENTS events at once (32 publishers): its measured
 * rate is (deliveries - 1) / (last receipt - first receipt), the pacing's own rate once under way.
 */
async function pacedPhase(url, token, user, rx) {
  const repo = `${user.name}/paced`;
  const hook = await api(url, 'POST', '/api/settings/webhooks', token, {
    watched: [{ type: 'model', name: repo }],
    domains: ['repo'],
    url: rx.url,
  });
  await api(url, 'PUT', `/api/settings/webhooks/${hook.webhook.id}/delivery-options`, token, {
    maxPerSecond: PACED_RATE,
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < PACED_EVENTS) {
        const i = next++;
        await withRetries(() =>
          api(url, 'POST', '/admin/events', ADMIN, {
            subject: 'hub.events.repo.update',
            payload: {
              event: { action: `paced-${i}`, scope: 'repo.content' },
              repo: {
                type: 'model',
                name: repo,
                id: '0123456789abcdef01234567',
                private: false,
                url: { web: 'x', api: 'y' },
                owner: { id: user.id },
              },
            },
          }),
        );
      }
    }),
  );
  const deadline = Date.now() + (PACED_EVENTS / PACED_RATE) * 3000 + 30_000;
  while (rx.paced.length < PACED_EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const times = [...rx.paced].sort((a, b) => a - b);
  const measured = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
  let busiestSecond = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[j] < times[i] - 1000) j++;
    busiestSecond = Math.max(busiestSecond, i - j + 1);
  }
  return {
    pacedMaxPerSecond: PACED_RATE,
    pacedEvents: PACED_EVENTS,
    pacedDelivered: times.length,
    pacedMeasuredPerSecond: +measured.toFixed(2),
    pacedErrorPct: +((100 * (measured - PACED_RATE)) / PACED_RATE).toFixed(2),
    pacedBusiestSecond: busiestSecond,
  };
}

for (const mode of MODES) {
  // BENCH_BASELINE_LAST=1 runs this tree first: a second pair in the other order cancels the machine's drift.
  const baselineRun = () =>
    process.env.BENCH_BASELINE ? run(mode, process.env.BENCH_BASELINE, 'baseline') : undefined;
  const last = process.env.BENCH_BASELINE_LAST === '1';
  const early = last ? undefined : await baselineRun();
  const current = await run(mode);
  const baseline = last ? await baselineRun() : early;
  if (baseline && current)
    console.log(
      JSON.stringify({
        mode,
        baselineDeliveriesPerSecond: baseline.deliveriesPerSecond,
        currentDeliveriesPerSecond: current.deliveriesPerSecond,
        ratioToBaseline: +(current.deliveriesPerSecond / baseline.deliveriesPerSecond).toFixed(3),
        bothBalanced: baseline.balanced && current.balanced,
      }),
    );
}
console.log(
  `logs: ${logDir}. Transactions and row writes per delivery are from pg_stat_database (the run's database only, publishing and intake included; each statement is its own transaction on the delivery path). Postgres CPU counts every postgres process on the machine, other sessions' too.`,
);
