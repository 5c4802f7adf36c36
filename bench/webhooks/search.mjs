// npm run bench:webhooks-search — the delivery log search of one webhook (decision 0502) through the
// API of the all-in-one hub on Postgres: BENCH_LOG_ROWS (1,000,000) attempts of one webhook are
// written with generate_series (plus as many of another webhook, so the per-webhook key matters),
// ANALYZEd, then each filter is asked BENCH_SEARCH_REQUESTS (200) times one after the other, with a
// cursor for every other request; prints p50/p99 per filter, then the execution time of the store's
// SQL for each filter under EXPLAIN ANALYZE (search-explain.ts: no wait for a core in it).
// Target (issue 27): p99 ≤ 50 ms over 1,000,000 logged deliveries. Needs `npx nx build hub` first.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, startNode, stopAll, waitReady } from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { request } from './api.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const ADMIN = 'bench-webhooks-search-admin-token-0123';
const logDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-search-'));

/**
 * ROWS attempts for `webhookId`: 50 repos, 20 actions, 2 % failures (500 or no answer), one a second
 * back from now, their words stored as the service stores them (searchVector in delivery-log.store.ts).
 */
async function seed(c, webhookId, idPrefix) {
  await c.query(
    `INSERT INTO webhooks.delivery_logs
      (id, webhook_id, delivery_id, trigger, attempt, request_headers, payload, status, response_headers, response_body, duration_ms, error, event, repo, created_at, search)
    SELECT $4 || lpad(to_hex(i), 23, '0'), $1, $4 || lpad(to_hex(i), 23, '0'), 'scheduled', 1, '{}'::jsonb, p, st, '{}'::jsonb, '', 5, NULL,
      'repo.content.act' || (i % 20), 'bench/repo-' || (i % 50), now() - make_interval(secs => $2 - i),
      to_tsvector('simple', translate(left(p, 65536), '/', ' ')) || array_to_tsvector(ARRAY['webhook ' || $1::bpchar])
    FROM generate_series($3::bigint, $3::bigint + $2 - 1) i,
      LATERAL (SELECT json_build_object('event', json_build_object('action', 'act' || (i % 20), 'scope', 'repo.content'),
        'repo', json_build_object('name', 'bench/repo-' || (i % 50), 'type', 'model'), 'note', 'word' || (i % 10000))::text AS p,
        CASE WHEN i % 50 = 0 THEN 500 WHEN i % 97 = 0 THEN NULL ELSE 200 END AS st) x`,
    [webhookId, ROWS, 1, idPrefix],
  );
}

/** One delivery in 1,000 of `webhookId` still pending (due tomorrow: the worker leaves them), spread over the log. */
async function seedPending(c, webhookId) {
  await c.query(
    `INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, state, due_at, created_at)
     SELECT delivery_id, 'bench-' || delivery_id, webhook_id, 'hub.events.repo.update', '{}', 'pending', now() + interval '1 day', created_at
     FROM webhooks.delivery_logs WHERE webhook_id = $1 AND seq % 1000 = 0`,
    [webhookId],
  );
}

const quantile = (xs, q) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main() {
  const name = `bench_webhooks_search_${Date.now()}`;
  await createDatabase(name);
  const dbUrl = databaseUrl(name);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  try {
    const hub = startNode('hub', [join(root, 'dist/apps/hub/main.js')], {
      env: {
        DATABASE_URL: dbUrl,
        HUB_MIGRATE_ON_START: 'true',
        HUB_ADMIN_TOKEN: ADMIN,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        HUB_SECRET_KEY: 'bench-webhooks-search-secret-key-01',
        HUB_RATE_LIMIT_PER_MINUTE: '1000000000',
        HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-hub-')),
        NATS_URL: undefined,
      },
      logDir,
      cwd: root,
    });
    await waitReady(hub, `${url}/health/ready`, 120_000);
    const user = (
      await request(url, 'POST', '/admin/users', ADMIN, {
        name: `search${Date.now()}`,
        email: `search${Date.now()}@example.com`,
      })
    ).json;
    const { token } = (await request(url, 'POST', `/admin/users/${user.name}/tokens`, ADMIN, { role: 'write' })).json;
    const hook = async () =>
      (
        await request(url, 'POST', '/api/settings/webhooks', token, {
          watched: [{ type: 'model', name: 'bench/none' }],
          domains: ['repo'],
          url: 'http://127.0.0.1:9/',
        })
      ).json.webhook.id;
    const [id, other] = [await hook(), await hook()];
    const c = new pg.Client({ connectionString: dbUrl });
    c.on('error', () => {}); // the database is dropped with FORCE at the end
    await c.connect();
    const t0 = Date.now();
    await seed(c, other, 'f');
    await seed(c, id, '0');
    await seedPending(c, id);
    await c.query('VACUUM ANALYZE webhooks.delivery_logs');
    await c.query('ANALYZE webhooks.deliveries');
    console.log(JSON.stringify({ seeded: ROWS * 2, seconds: (Date.now() - t0) / 1000 }));
    const since = new Date(Date.now() - ROWS * 500).toISOString();
    const until = new Date(Date.now() - ROWS * 250).toISOString();
    const filters = {
      none: '',
      succeeded: 'status=succeeded',
      failed: 'status=failed',
      pending: 'status=pending',
      httpStatus500: 'httpStatus=500',
      noAnswer: 'httpStatus=0',
      event: 'event=repo.content.act7',
      repo: 'repo=bench%2Frepo-13',
      window: `since=${since}&until=${until}`,
      q: 'q=word4242',
      qFrequent: 'q=act7',
      qNowhere: 'q=zebra',
      combined: 'event=repo.content.act7&repo=bench%2Frepo-17&status=succeeded',
    };
    const results = {};
    for (const [label, query] of Object.entries(filters)) {
      const times = [];
      let next = null;
      for (let i = 0; i < REQUESTS; i++) {
        const path =
          next && i % 2 === 1 ? next : `/api/settings/webhooks/${id}/logs?limit=20${query ? `&${query}` : ''}`;
        const started = performance.now();
        const res = await request(url, 'GET', path, token);
        times.push(performance.now() - started);
        const m = /<([^>]+)>; rel="next"/.exec(res.link ?? '');
        next = m ? new URL(m[1]).pathname + new URL(m[1]).search : null;
      }
      results[label] = { p50Ms: +quantile(times, 0.5).toFixed(1), p99Ms: +quantile(times, 0.99).toFixed(1) };
    }
    console.log(
      JSON.stringify(
        { rowsPerWebhook: ROWS, requestsPerFilter: REQUESTS, load: loadavg().map((l) => +l.toFixed(2)), results },
        null,
        1,
      ),
    );
    await c.end();
    // The same filters through the store's SQL under EXPLAIN ANALYZE, in a process of its own (TypeScript).
    const asFilter = (query) =>
      Object.fromEntries([...new URLSearchParams(query)].map(([k, v]) => [k, k === 'httpStatus' ? Number(v) : v]));
    execFileSync(process.execPath, ['-r', '@swc-node/register', join(root, 'bench/webhooks/search-explain.ts')], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        SWC_NODE_PROJECT: join(root, 'tsconfig.base.json'),
        DB: dbUrl,
        WEBHOOK: id,
        FILTERS: JSON.stringify(Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, asFilter(v)]))),
      },
    });
  } finally {
    await stopAll();
    await dropDatabase(name);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
