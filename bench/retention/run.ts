// npm run bench:retention — expiring the delivery log: today's partition drop against the `DELETE` it
// replaced (decision 0206), on the machine's PostgreSQL, through the webhooks service's own code.
//
// Part 1 (latency): two databases hold the same BENCH_ROWS attempts (default 1,000,000) spread over
// BENCH_HISTORY_DAYS (40) days: one migrated to the release before partitioning (retention by
// `DELETE`), one partitioned by day. While a writer logs attempts at a steady rate (DeliveryLogStore.add,
// what a delivery does) and a reader pages the log (unfiltered, failed only, and `q`), the attempts older
// than BENCH_RETENTION_DAYS (30) expire: the old `DELETE`, or the partition pass (purgeOlderThan).
// Prints p50/p99 of writes and reads before and during expiry, and how long expiry took.
//
// Part 2 (size): BENCH_SIM_DAYS (28) simulated days at a steady rate (BENCH_DAY_ROWS a day, default
// 25,000) with a 7-day retention, a partition pass (or DELETE, then VACUUM as autovacuum would) after
// each day; prints the database's size on disk after each day.
//
// Runs from the sources (`node -r @swc-node/register`); needs the test PostgreSQL (TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { createPartitions, keepPartitions, runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { WEBHOOKS_MIGRATIONS } from '../../libs/webhooks/service/src/migrations';
import {
  DELIVERY_LOGS_PARTITIONS,
  PartitionDeliveryLogs1797000100000,
} from '../../libs/webhooks/service/src/migrations/1797000100000-partition-delivery-logs';
import { DeliveryLogStore } from '../../libs/webhooks/service/src/delivery/delivery-log.store';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const HISTORY_DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 40);
const RETENTION_DAYS = Number(process.env.BENCH_RETENTION_DAYS ?? 30);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 20_000);
const WRITES_PER_S = Number(process.env.BENCH_WRITES_PER_S ?? 100);
const DAY_ROWS = Number(process.env.BENCH_DAY_ROWS ?? 25_000);
const SIM_DAYS = Number(process.env.BENCH_SIM_DAYS ?? 28);
const SIM_KEEP_DAYS = 7;
const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const HOOK = '00000000000000000000be01';
const DAY = 86_400_000;

type Kind = 'delete' | 'partitions';

function dbUrl(name: string): string {
  const u = new URL(SERVER);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A database migrated as `kind` runs, with the webhook of the bench. */
async function open(name: string, kind: Kind): Promise<DataSource> {
  await admin(`DROP DATABASE IF EXISTS ${name}`);
  await admin(`CREATE DATABASE ${name}`);
  const migrations =
    kind === 'partitions'
      ? WEBHOOKS_MIGRATIONS
      : WEBHOOKS_MIGRATIONS.slice(0, WEBHOOKS_MIGRATIONS.indexOf(PartitionDeliveryLogs1797000100000));
  const ds = await new DataSource(
    serviceDataSourceOptions({ schema: 'webhooks', entities: [], migrations, databaseUrl: dbUrl(name), poolSize: 6 }),
  ).initialize();
  await runMigrations(ds, 'webhooks');
  await ds.query(
    `INSERT INTO webhooks.webhooks (id, owner_id, owner_name, url, domains, disabled)
     VALUES ($1, $1, 'bench', 'http://127.0.0.1/bench', ARRAY['repo'], false)`,
    [HOOK],
  );
  return ds;
}

/** `count` attempts from `from` on, evenly `spanMs` apart in all, as the service stores them (words included). */
async function seed(ds: DataSource, from: Date, spanMs: number, count: number, idBase: number): Promise<void> {
  const step = spanMs / count / 1000;
  for (let done = 0; done < count; done += 200_000) {
    const n = Math.min(200_000, count - done);
    await ds.query(
      `INSERT INTO webhooks.delivery_logs
         (id, webhook_id, delivery_id, trigger, attempt, request_headers, payload, status, response_headers, response_body,
          duration_ms, error, event, repo, created_at, search)
       SELECT lpad(to_hex(i), 24, '0'), $1::bpchar, lpad(to_hex(i), 24, '0'), 'scheduled', 1, '{}', p, st, '{}', '', 5, NULL,
              'repo.update', 'bench/repo-' || (i % 50), $2::timestamptz + make_interval(secs => (i - $3) * $4::float8),
              to_tsvector('simple', translate(p, '/', ' ')) || array_to_tsvector(ARRAY['webhook ' || $1::text])
         FROM generate_series($5::bigint, $5::bigint + $6 - 1) i,
         LATERAL (SELECT '{"event":{"scope":"repo","action":"update"},"repo":{"name":"bench/repo-' || (i % 50) || '"},"note":"word' || (i % 10000) || '"}' AS p,
                         CASE WHEN i % 50 = 0 THEN 500 ELSE 200 END AS st) x`,
      [HOOK, from.toISOString(), idBase, step, idBase + done, n],
    );
  }
}

const quantile = (xs: number[], q: number): number =>
  xs.length === 0 ? NaN : xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (x: number): string => (Number.isNaN(x) ? '-' : `${x.toFixed(1)} ms`);

/** Writes at a steady rate and reads back to back until stopped; latencies per phase. */
function load(ds: DataSource): {
  phase: (name: string) => void;
  stop: () => Promise<Record<string, { writes: number[]; reads: number[] }>>;
} {
  const out: Record<string, { writes: number[]; reads: number[] }> = {};
  let current = { writes: [] as number[], reads: [] as number[] };
  let running = true;
  let i = 0;
  const writer = (async () => {
    const every = 1000 / WRITES_PER_S;
    let next = performance.now();
    while (running) {
      next += every;
      const t = performance.now();
      await DeliveryLogStore.add(ds.manager, {
        webhookId: HOOK,
        deliveryId: `${i++}`.padStart(24, '0'),
        trigger: 'scheduled',
        attempt: 1,
        requestHeaders: {},
        payload: `{"event":{"scope":"repo","action":"update"},"note":"live${i % 100}"}`,
        result: { status: 200, headers: {}, body: 'ok', durationMs: 3, error: null },
      });
      current.writes.push(performance.now() - t);
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  const reader = (async () => {
    const filters = [{}, { status: 'failed' as const }, { q: 'word42' }, { q: 'bench/repo-7' }];
    let k = 0;
    while (running) {
      const t = performance.now();
      const first = await ds.transaction((m) =>
        DeliveryLogStore.page(m, HOOK, 20, undefined, filters[k % filters.length]),
      );
      if (first.next)
        await ds.transaction((m) => DeliveryLogStore.page(m, HOOK, 20, first.next, filters[k % filters.length]));
      current.reads.push(performance.now() - t);
      k++;
    }
  })();
  return {
    phase(name) {
      current = out[name] = { writes: [], reads: [] };
    },
    async stop() {
      running = false;
      await Promise.all([writer, reader]);
      return out;
    },
  };
}

async function expire(ds: DataSource, kind: Kind): Promise<number> {
  const t = performance.now();
  // What the worker's housekeeping runs: the partition pass, then the finished deliveries' purge.
  if (kind === 'partitions') {
    await DeliveryLogStore.partitions((work) => ds.transaction((m) => work(m)), RETENTION_DAYS, new Date());
    await DeliveryLogStore.purgeFinished(ds.manager, RETENTION_DAYS);
  }
  // The statement the release before ran every 10 s (then in delivery-log.store.ts).
  else
    await ds.query(`DELETE FROM webhooks.delivery_logs WHERE created_at < now() - make_interval(days => $1)`, [
      RETENTION_DAYS,
    ]);
  return performance.now() - t;
}

async function latency(kind: Kind): Promise<void> {
  const name = `bench_retention_${kind}`;
  const ds = await open(name, kind);
  try {
    const start = new Date(Date.now() - HISTORY_DAYS * DAY);
    if (kind === 'partitions') await createPartitions(ds, DELIVERY_LOGS_PARTITIONS, start, new Date());
    const t0 = performance.now();
    await seed(ds, start, HISTORY_DAYS * DAY - 60_000, ROWS, 1);
    await ds.query('VACUUM ANALYZE webhooks.delivery_logs');
    const [{ old }] = (await ds.query(
      `SELECT count(*)::int AS old FROM webhooks.delivery_logs WHERE created_at < now() - make_interval(days => $1)`,
      [RETENTION_DAYS],
    )) as { old: number }[];
    console.log(
      `\n${kind}: ${ROWS} attempts seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${old} past retention`,
    );
    if (kind === 'partitions') {
      // The pass at boot has run: the next one is the expiry measured below.
      await keepPartitions((work) => ds.transaction((m) => work(m)), DELIVERY_LOGS_PARTITIONS, {
        retentionDays: 3650,
        ahead: 7,
      });
    }
    const l = load(ds);
    l.phase('before');
    await new Promise((r) => setTimeout(r, PHASE_MS));
    l.phase('during expiry');
    const took = await expire(ds, kind);
    // At least a phase's length of "during": what follows the expiry (vacuum, cold caches) counts too.
    if (took < PHASE_MS) await new Promise((r) => setTimeout(r, PHASE_MS - took));
    const out = await l.stop();
    const [{ left }] = (await ds.query(
      `SELECT count(*)::int AS left FROM webhooks.delivery_logs WHERE created_at < now() - make_interval(days => $1)`,
      [RETENTION_DAYS],
    )) as { left: number }[];
    console.log(`expiry took ${(took / 1000).toFixed(2)} s; ${left} past retention left`);
    for (const [phase, r] of Object.entries(out))
      console.log(
        `  ${phase.padEnd(14)} delivery write p50 ${ms(quantile(r.writes, 0.5))} p99 ${ms(quantile(r.writes, 0.99))} (${r.writes.length}); ` +
          `search p50 ${ms(quantile(r.reads, 0.5))} p99 ${ms(quantile(r.reads, 0.99))} (${r.reads.length})`,
      );
  } finally {
    await ds.destroy();
    if (!process.env.BENCH_KEEP) await admin(`DROP DATABASE IF EXISTS ${name}`);
  }
}

/** SIM_DAYS of DAY_ROWS a day from tomorrow on, a week kept; the database's size after each day. */
async function size(kind: Kind): Promise<void> {
  const name = `bench_retention_size_${kind}`;
  const ds = await open(name, kind);
  try {
    const day0 = new Date(Math.ceil(Date.now() / DAY) * DAY + DAY);
    const sizes: string[] = [];
    for (let d = 0; d < SIM_DAYS; d++) {
      const from = new Date(day0.getTime() + d * DAY);
      const now = new Date(from.getTime() + DAY - 1000);
      if (kind === 'partitions') {
        await keepPartitions((work) => ds.transaction((m) => work(m)), DELIVERY_LOGS_PARTITIONS, {
          retentionDays: SIM_KEEP_DAYS,
          ahead: 1,
          now: from,
        });
      }
      await seed(ds, from, DAY - 60_000, DAY_ROWS, 1 + d * DAY_ROWS);
      if (kind === 'partitions')
        await keepPartitions((work) => ds.transaction((m) => work(m)), DELIVERY_LOGS_PARTITIONS, {
          retentionDays: SIM_KEEP_DAYS,
          ahead: 1,
          now,
        });
      else {
        await ds.query(`DELETE FROM webhooks.delivery_logs WHERE created_at < $1`, [
          new Date(now.getTime() - SIM_KEEP_DAYS * DAY).toISOString(),
        ]);
        await ds.query('VACUUM webhooks.delivery_logs');
      }
      const [{ bytes }] = (await ds.query(`SELECT pg_database_size(current_database())::bigint AS bytes`)) as {
        bytes: string;
      }[];
      sizes.push(`${(Number(bytes) / 1048576).toFixed(0)}`);
    }
    console.log(`  ${kind.padEnd(10)} database MB after each simulated day: ${sizes.join(' ')}`);
  } finally {
    await ds.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name}`);
  }
}

async function main(): Promise<void> {
  const version = execFileSync('psql', [SERVER, '-Atc', 'SHOW server_version']).toString().trim();
  console.log(
    `bench:retention on PostgreSQL ${version}, ${ROWS} attempts over ${HISTORY_DAYS} days, ${RETENTION_DAYS} days kept, ` +
      `${WRITES_PER_S} writes/s, load average ${loadavg()[0].toFixed(1)}`,
  );
  const parts = (process.env.BENCH_PARTS ?? 'latency,size').split(',');
  if (parts.includes('latency')) for (const kind of ['delete', 'partitions'] as Kind[]) await latency(kind);
  if (parts.includes('size')) {
    console.log(`\nsize: ${DAY_ROWS} attempts a simulated day for ${SIM_DAYS} days, ${SIM_KEEP_DAYS} days kept`);
    for (const kind of ['delete', 'partitions'] as Kind[]) await size(kind);
  }
  console.log(`\nload average at the end ${loadavg()[0].toFixed(1)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
