// The servers of bench:webhooks (run.mjs): the loopback receiver with its ledger, the apps of a
// run mode started from a tree's dist/, the API client, and extra webhooks written straight to the
// database.
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startBenchNats } from '../gateway/bench-nats.mjs';
import { freePort, runNode, startNode, waitReady } from '../gateway/processes.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN = 'bench-webhooks-admin-token-0123456789';
/** The bearer token of the processes' /metrics (HUB_METRICS_TOKEN). */
export const METRICS = 'bench-webhooks-metrics-token-0123456789';
export const logDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
export const settings = {
  HUB_SECRET_KEY: 'bench-webhooks-secret-key-0123456789',
  HUB_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: '100000000',
  HUB_WEBHOOKS_MAX_PER_USER: '100000',
  HUB_RATE_LIMIT_PER_MINUTE: '1000000000',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  HUB_METRICS_TOKEN: METRICS,
};

/** Wall-clock ms with sub-ms precision, comparable with Postgres' now() on this machine (stage times). */
export const wallNow = () => performance.timeOrigin + performance.now();
export async function receiver() {
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

/** A publish the loaded machine's NATS timed out (5xx) is tried again: at worst a duplicate, which the ledger counts. */
export async function withRetries(call, tries = 5) {
  for (let i = 1; ; i++) {
    try {
      return await call();
    } catch (err) {
      if (i >= tries || !/: 5\d\d /.test(String(err.message))) throw err;
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }
}

/** `webhooksReplicas` (distributed only): that many webhooks processes on the same database and bus (scale.mjs). */
export async function start(mode, dbUrl, tree = root, target = undefined, { webhooksReplicas = 1 } = {}) {
  const app = (name) => join(tree, `dist/apps/${name}/main.js`);
  if (mode === 'minimal') {
    // The comparison baseline (minimal-sender.mjs): the bench's own code, whatever the tree.
    const port = await freePort();
    const sender = startNode('minimal', [join(root, 'bench/webhooks/minimal-sender.mjs')], {
      env: { DATABASE_URL: dbUrl, PORT: String(port), MINIMAL_TARGET: target },
      logDir,
      cwd: root,
    });
    await waitReady(sender, `http://127.0.0.1:${port}/health/ready`, 60_000);
    return { url: `http://127.0.0.1:${port}`, procs: [sender], deliverers: [sender] };
  }
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
  const replicas = Array.from({ length: webhooksReplicas }, (_, i) => (i === 0 ? 'webhooks' : `webhooks-${i + 1}`));
  for (const name of ['credentials', 'organizations', ...replicas, 'gateway']) {
    const s = name.startsWith('webhooks') ? 'webhooks' : name;
    const port = await freePort();
    const p = startNode(name, [app(s)], {
      env: { ...common, ...nats.env(s), PORT: String(port), HUB_ADMIN_TOKEN: ADMIN },
      logDir,
      cwd: root,
    });
    await waitReady(p, `http://127.0.0.1:${port}/health/ready`, 120_000);
    procs.push(Object.assign(p, { url: `http://127.0.0.1:${port}` }));
  }
  return {
    url: procs[procs.length - 1].url,
    procs,
    deliverers: procs.filter((p) => p.name.startsWith('webhooks')),
    nats,
  };
}

export async function seedExtra(dbUrl, ownerId, count) {
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
    // As a database whose webhooks were registered over time would be: vacuumed and analyzed, so the
    // services' own vacuum (with autovacuum off, libs/persistence vacuum.ts) does not run over them in the measured window.
    await c.query('VACUUM (ANALYZE) webhooks.webhooks, webhooks.watched');
  } finally {
    await c.end();
  }
}
