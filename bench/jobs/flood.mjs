// The log-flood mode of `npm run bench:jobs` (BENCH_FLOOD=1, issue 35 item 7, decision 0631): one
// job prints BENCH_FLOOD_LINES lines of 100 bytes (10,000,000: 1 GB) while another user calls
// GET /api/whoami-v2 in a loop. Prints the database's growth (the bench database, its job-log
// tables, the Postgres data directory outside pg_wal, WAL written), the hub's CPU and the flood's
// length, what the job's log kept, and whoami p50/p95 before and during the flood (the ratio).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { pct } from './stats.mjs';

const FLOOD_LINES = Number(process.env.BENCH_FLOOD_LINES ?? 10_000_000);
/** Seconds of whoami calls before the flood (the baseline). */
const BASELINE_S = Number(process.env.BENCH_FLOOD_BASELINE_S ?? 10);
/** 1: the control run, the same job with its output to /dev/null (what the job's own CPU costs the machine). */
const QUIET = process.env.BENCH_FLOOD_QUIET === '1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Bytes of the Postgres data directory outside pg_wal (needs read access to it: run as root or postgres). */
const dataDirBytes = (dir) => {
  try {
    return Number(execFileSync('du', ['-sb', '--exclude=pg_wal', dir], { encoding: 'utf8' }).split('\t')[0]);
  } catch {
    return NaN;
  }
};

async function sizes(admin, db, dbName, dataDir) {
  const one = async (c, sql, args) => Number(Object.values((await c.query(sql, args)).rows[0])[0]);
  return {
    database: await one(admin, 'SELECT pg_database_size($1)', [dbName]),
    // Every job-log table there is (job_log_chunks; job_logs before decision 0631), so an A/B run against an older build works.
    logTables: await one(
      db,
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'jobs' AND c.relkind = 'r' AND c.relname LIKE 'job_log%'`,
    ),
    dataDir: dataDirBytes(dataDir),
    wal: await one(admin, `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')`),
  };
}

/** Calls whoami as `token` one after another until `stop()`; each call's milliseconds, tagged with the phase it started in. */
function whoamiLoop(base, token, phase) {
  const samples = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const tag = phase();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      samples.push({ tag, ms: performance.now() - t0 });
      await sleep(20);
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

export async function flood({ base, call, admin, dbName, db, hubPid, cpuOf, cpuSpent, spec, enginePids, engineCpu }) {
  const dataDir = (await admin.query('SHOW data_directory')).rows[0].data_directory;
  const other = `bench-other-${randomBytes(3).toString('hex')}`;
  await call('POST', '/admin/users', undefined, { name: other, email: `${other}@example.com` });
  const { token: otherToken } = await call('POST', `/admin/users/${other}/tokens`, undefined, { role: 'read' });
  const flooder = `bench-flood-${randomBytes(3).toString('hex')}`;
  await call('POST', '/admin/users', undefined, { name: flooder, email: `${flooder}@example.com` });
  const { token } = await call('POST', `/admin/users/${flooder}/tokens`, undefined, { role: 'write' });

  let phase = 'before';
  const loop = whoamiLoop(base, otherToken, () => phase);
  console.log(`whoami baseline for ${BASELINE_S} s…`);
  await sleep(BASELINE_S * 1000);
  await db.query('CHECKPOINT').catch(() => undefined);
  const before = await sizes(admin, db, dbName, dataDir);
  const cpu0 = cpuOf(hubPid);
  const engine = enginePids();
  const engine0 = engineCpu(engine);
  const t0 = performance.now();
  phase = 'during';
  console.log(`flood: ${FLOOD_LINES} lines of 100 bytes${QUIET ? ' to /dev/null (the control run)' : ''}…`);
  const job = await call('POST', `/api/jobs/${flooder}`, token, {
    ...spec,
    command: [
      'sh',
      '-c',
      `yes ${'x'.repeat(99)} | head -n ${FLOOD_LINES}${QUIET ? ' >/dev/null' : ''}; echo last-line`,
    ],
  });
  let stage = '';
  while (!['COMPLETED', 'ERROR', 'CANCELED'].includes(stage)) {
    await sleep(200);
    stage = (await call('GET', `/api/jobs/${flooder}/${job.id}`, token)).status.stage;
  }
  const seconds = (performance.now() - t0) / 1000;
  phase = 'after';
  const cpu = cpuSpent(hubPid, cpu0, cpuOf(hubPid));
  const engineSpent = engineCpu(engine) - engine0;
  await loop.stop();
  const after = await sizes(admin, db, dbName, dataDir);
  const none = { rows: [{ chunks: 0, bytes: 0, lines: 0 }] };
  const kept = (
    await db
      .query(
        `SELECT count(*)::int AS chunks, coalesce(sum(bytes), 0)::int AS bytes, coalesce(sum(cardinality(lines)), 0)::int AS lines
         FROM jobs.job_log_chunks WHERE job_id = $1`,
        [job.id],
      )
      .catch(() => none)
  ).rows[0];
  const { rows: tail } = await db
    .query(
      `SELECT l FROM jobs.job_log_chunks c, unnest(c.lines) l WHERE c.job_id = $1 AND l LIKE '[hub] %' ORDER BY c.id DESC LIMIT 1`,
      [job.id],
    )
    .catch(() => ({ rows: [] }));

  const ms = (tag, p) =>
    pct(
      loop.samples.filter((s) => s.tag === tag).map((s) => s.ms),
      p,
    );
  const mb = (b) => `${(b / 1_048_576).toFixed(1)} MB`;
  const grew = (k) => mb(after[k] - before[k]);
  const n = (tag) => loop.samples.filter((s) => s.tag === tag).length;
  console.log('');
  console.log(
    `flood job ${stage} in ${seconds.toFixed(1)} s (POST → final stage); hub CPU (user+system) ${(cpu.hub / 1000).toFixed(1)} s, its spawn helper ${(cpu.helpers / 1000).toFixed(1)} s, the engine's daemons ${(engineSpent / 1000).toFixed(1)} s`,
  );
  console.log(
    `kept: ${kept.lines} lines, ${mb(kept.bytes)} in ${kept.chunks} chunks; last marker: ${tail[0]?.l ?? '(none)'}`,
  );
  console.log(
    `growth: bench database ${grew('database')}, job-log tables ${grew('logTables')}, data directory outside pg_wal ${grew('dataDir')} (the whole server: other databases' activity included), WAL written ${grew('wal')} (server-wide)`,
  );
  console.log(
    `another user's whoami: before p50 ${ms('before', 50).toFixed(1)} / p95 ${ms('before', 95).toFixed(1)} ms (${n('before')} calls); during p50 ${ms('during', 50).toFixed(1)} / p95 ${ms('during', 95).toFixed(1)} ms (${n('during')} calls); p95 ratio ${(ms('during', 95) / ms('before', 95)).toFixed(2)}×`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
