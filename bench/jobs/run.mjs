// Jobs benchmark (`npm run bench:jobs`): launches short jobs on the local runner through the
// all-in-one hub's HTTP API and prints create-to-RUNNING and create-to-COMPLETED p50/p99, jobs/s,
// and the log stream's first-line latency. Not a test: it prints figures. Builds the hub, starts
// it on a fresh Postgres database, stops it and drops the database even on failure.
// Environment (defaults in brackets):
//   BENCH_JOBS [200]              jobs launched
//   BENCH_JOBS_CONCURRENCY [20]   POSTs in flight at once
//   BENCH_JOBS_WAIT [unset]       1: each of the CONCURRENCY workers waits for its job to finish before the next POST
//                                 (at most CONCURRENCY jobs at once: launch latency without a pile-up of starts)
//   BENCH_LOG_SAMPLES [20]        jobs whose log stream is opened right after the POST
//   BENCH_PG_ADMIN_URL [postgres://postgres@127.0.0.1:5432/test]
//   BENCH_SKIP_BUILD [unset]      use dist/apps/hub as built
//   BENCH_HUB_MAIN [dist/apps/hub/main.js]  the hub bundle to run (relative to the repository), e.g. a kept build for an A/B run
//   BENCH_PG_COUNT_URL [unset]    a URL answering the number of round trips to Postgres so far (a counting proxy the hub's
//                                 BENCH_PG_ADMIN_URL goes through): round trips per job are printed
//   HUB_JOBS_ENGINE [auto]        passed to the hub: docker / podman (containers of the local alpine:3 image, which
//                                 .ci/engine-up.sh builds) or host (bubblewrap); the engine daemons' CPU is printed beside the hub's
//   BENCH_BARE [unset]            0: skip the bare baseline (bare.ts: bwrap with host mode's arguments, or the engine's
//                                 create + start with the runner's options, same runs, same concurrency), printed as ratios
//   BENCH_MINIMAL [unset]         0: skip the minimal launcher (host mode: minimal.ts, an HTTP API with one table and three
//                                 statements per job around the same bwrap, same runs and concurrency), printed as ratios
//   BENCH_HUB_NODE_ARGS [unset]   node flags for the hub, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
//   BENCH_FLOOD [unset]           1: instead, the log-flood mode (flood.mjs): one job prints BENCH_FLOOD_LINES [10000000]
//                                 lines of 100 bytes while another user calls whoami; database growth and whoami p95
//                                 (BENCH_FLOOD_QUIET=1: the same job printing to /dev/null, the control run)
//   BENCH_LOG_LINES [unset]       1: instead, the live-log mode (log-lines.mjs, `npm run bench:job-logs`): how soon each printed
//                                 line reaches an open log stream, beside the same script read bare through a pipe
// create-to-RUNNING / -COMPLETED come from the job's own timestamps (createdAt, startedAt,
// finishedAt, set by the jobs service); first-line latency is measured by this client, from
// sending the POST to reading the first `data:` line of /logs.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { hubNodeArgs } from '../../tools/start.mjs';
import { cpuOf, cpuSpent, engineCpu, enginePids, machineCpuMs } from './proc-cpu.mjs';
import { flood } from './flood.mjs';
import { logLines } from './log-lines.mjs';
import { pct } from './stats.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const JOBS = num('BENCH_JOBS', 200);
const CONCURRENCY = num('BENCH_JOBS_CONCURRENCY', 20);
const LOG_SAMPLES = num('BENCH_LOG_SAMPLES', 20);
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = `bench-admin-${randomBytes(8).toString('hex')}`;
/** Issue 41's targets, as ratios to the bare tool measured in the same run (one at a time: host mode's p99 in ms). */
const TARGETS = { rate: 0.8, hostP99: 1.5, engineP99Alone: 1.3, hostP99AloneMs: 300 };

/** Transactions committed in a database so far; Postgres flushes a backend's counts within about a second of it going idle. */
const commits = async (admin, db) =>
  Number((await admin.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [db])).rows[0].xact_commit);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((r) => {
    const s = createServer().listen(0, () => {
      const p = s.address().port;
      s.close(() => r(p));
    });
  });

async function call(base, method, path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function firstLine(base, token, ns, spec) {
  const t0 = performance.now();
  const job = await call(base, 'POST', `/api/jobs/${ns}`, token, spec);
  const res = await fetch(`${base}/api/jobs/${ns}/${job.id}/logs`, { headers: { authorization: `Bearer ${token}` } });
  const reader = res.body.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
    if (text.includes('\ndata: ') || text.startsWith('data: ')) break;
  }
  const ms = performance.now() - t0;
  await reader.cancel();
  return { ms, id: job.id };
}

/** Where a job ran: 'docker' / 'podman' (its run handle names the engine) or 'host'. */
async function runnerOf(url, id) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(
      `SELECT run_handle->>'kind' AS kind, run_handle->>'engine' AS engine FROM jobs.jobs WHERE id = $1`,
      [id],
    );
    return rows[0]?.kind === 'container' ? rows[0].engine : 'host';
  } finally {
    await c.end();
  }
}

/**
 * The bare tool in the same run (issue 41 item 1; bare.ts): bwrap with host mode's own arguments,
 * or a container created and started through the same engine with the runner's own options, as
 * many runs at the same concurrency. Launch → first output (bwrap) or → start answered (engine).
 */
function bare(mode, runs, concurrency) {
  return benchTs('bare.ts', [mode, String(runs), String(concurrency)]);
}

/** A TypeScript part of the bench (bare.ts, minimal.ts) run once: the last line it prints, parsed. */
function benchTs(file, args) {
  const out = execFileSync(process.execPath, ['-r', '@swc-node/register', resolve(root, 'bench/jobs', file), ...args], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop());
}

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) console.log('building the hub…');
  if (!process.env.BENCH_SKIP_BUILD)
    execFileSync('npx', ['nx', 'build', 'hub'], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
  // An engine named: its image and network are made first (the hub would fail every job without the image).
  const named = process.env.HUB_JOBS_ENGINE;
  if ((named === 'docker' || named === 'podman') && process.env.BENCH_FLOOD !== '1') bare(named, 0, 1);
  const dbName = `bench_jobs_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const nodeArgs = (process.env.BENCH_HUB_NODE_ARGS ?? '').split(' ').filter(Boolean);
  let runner = 'host';
  let hubFigures;
  const hub = spawn(
    process.execPath,
    [...hubNodeArgs({}), ...nodeArgs, resolve(root, process.env.BENCH_HUB_MAIN || 'dist/apps/hub/main.js')],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: dbUrl,
        HUB_MIGRATE_ON_START: 'true',
        HUB_ADMIN_TOKEN: ADMIN,
        PORT: String(port),
        HOST: '127.0.0.1',
        HUB_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-jobs-')),
        LOG_LEVEL: 'error',
        HUB_RATE_LIMIT_PER_MINUTE: '1000000',
        // A figure, not a failure: on a loaded machine an RPC may take longer than the 5 s default.
        HUB_RPC_TIMEOUT_MS: '60000',
        // Launches are measured, not the cap on active jobs per namespace (decision 0015): all in one namespace.
        HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE: '100000',
        // Launches are measured, not the admission caps (issue 25).
        HUB_JOBS_MAX_RUNNING: '10000',
        HUB_JOBS_MAX_RUNNING_PER_NAMESPACE: '10000',
        HUB_JOBS_ENGINE: process.env.HUB_JOBS_ENGINE ?? 'auto',
      },
    },
  );
  let stderr = '';
  hub.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-5000);
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 1500 || hub.exitCode !== null) throw new Error(`hub did not start: ${stderr}`);
      await sleep(100);
    }
    const name = `bench-${randomBytes(3).toString('hex')}`;
    await call(base, 'POST', '/admin/users', ADMIN, { name, email: `${name}@example.com` });
    const { token } = await call(base, 'POST', `/admin/users/${name}/tokens`, ADMIN, { role: 'write' });
    const spec = { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sh', '-c', 'echo hello'] };
    if (process.env.BENCH_LOG_LINES === '1') {
      await logLines({ base, call: (method, path, tok, body) => call(base, method, path, tok ?? ADMIN, body) });
      return;
    }
    if (process.env.BENCH_FLOOD === '1') {
      const db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      try {
        const adminCall = (method, path, tok, body) => call(base, method, path, tok ?? ADMIN, body);
        await flood({
          base,
          call: adminCall,
          admin,
          dbName,
          db,
          hubPid: hub.pid,
          cpuOf,
          cpuSpent,
          spec,
          enginePids,
          engineCpu,
        });
      } finally {
        await db.end();
      }
      return;
    }

    console.log(`launching ${JOBS} jobs, ${CONCURRENCY} POSTs in flight…`);
    const ids = [];
    await sleep(1500);
    const xact0 = await commits(admin, dbName);
    const trips = async () =>
      process.env.BENCH_PG_COUNT_URL ? Number(await (await fetch(process.env.BENCH_PG_COUNT_URL)).text()) : NaN;
    const trips0 = await trips();
    const cpu0 = cpuOf(hub.pid);
    const engine = enginePids();
    const engine0 = engineCpu(engine);
    const machine0 = machineCpuMs();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < JOBS) {
          next++;
          const { id } = await call(base, 'POST', `/api/jobs/${name}`, token, spec);
          ids.push(id);
          if (process.env.BENCH_JOBS_WAIT === '1')
            while (
              !['COMPLETED', 'ERROR', 'CANCELED'].includes(
                (await call(base, 'GET', `/api/jobs/${name}/${id}`, token)).status.stage,
              )
            )
              await sleep(20);
        }
      }),
    );
    const launched = performance.now() - t0;
    let jobs = [];
    for (;;) {
      jobs = await call(base, 'GET', `/api/jobs/${name}?limit=1000`, token);
      if (jobs.filter((j) => ['COMPLETED', 'ERROR', 'CANCELED'].includes(j.status.stage)).length >= JOBS) break;
      if (performance.now() - t0 > 300_000) {
        const stages = jobs.reduce((m, j) => ({ ...m, [j.status.stage]: (m[j.status.stage] ?? 0) + 1 }), {});
        throw new Error(`jobs did not finish within 5 minutes: ${JSON.stringify(stages)} of ${jobs.length} listed`);
      }
      await sleep(100);
    }
    const cpu = cpuSpent(hub.pid, cpu0, cpuOf(hub.pid));
    const engineSpent = engineCpu(engine) - engine0;
    const machineSpent = machineCpuMs() - machine0;
    await sleep(1500);
    const tripsPerJob = ((await trips()) - trips0) / JOBS;
    const xactPerJob = ((await commits(admin, dbName)) - xact0) / JOBS;
    const wall =
      Math.max(...jobs.map((j) => Date.parse(j.finishedAt))) - Math.min(...jobs.map((j) => Date.parse(j.createdAt)));
    runner = named === 'docker' || named === 'podman' ? named : await runnerOf(dbUrl, ids[0]);
    const inContainers = runner !== 'host';
    const toRunning = jobs.map((j) => Date.parse(j.startedAt) - Date.parse(j.createdAt));
    const toDone = jobs.map((j) => Date.parse(j.finishedAt) - Date.parse(j.createdAt));
    // Each job's stages at the database's precision: created → RUNNING stored → first log line stored (the process ran) → finished.
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows: stages } = await db.query(
      `
      SELECT extract(epoch FROM j.created_at) * 1000 AS created_ms, (j.run_handle->'process'->>'startTicks')::bigint AS start_ticks,
             extract(epoch FROM (SELECT min(o.created_at) FROM jobs.outbox o WHERE o.aggregate = j.id) - j.created_at) * 1000 AS written,
             extract(epoch FROM j.started_at - j.created_at) * 1000 AS running,
             extract(epoch FROM (SELECT min(l.ts[1]) FROM jobs.job_log_chunks l WHERE l.job_id = j.id) - j.created_at) * 1000 AS first_line,
             extract(epoch FROM j.finished_at - j.created_at) * 1000 AS finished
        FROM jobs.jobs j WHERE j.id = ANY($1)`,
      [ids],
    );
    await db.end();
    // The process's start time: clock ticks since boot (100 a second) from its run handle, boot time from /proc/uptime.
    const bootMs = Date.now() - Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
    for (const r of stages)
      r.spawned = r.start_ticks === null ? NaN : bootMs + Number(r.start_ticks) * 10 - Number(r.created_ms);
    const stage = (k) => stages.map((r) => Number(r[k])).filter((x) => Number.isFinite(x));
    hubFigures = {
      rate: JOBS / (wall / 1000),
      p50: pct(toRunning, 50),
      p99: pct(toRunning, 99),
      machineCpuPerJob: machineSpent / JOBS,
    };
    const notDone = jobs.filter((j) => j.status.stage !== 'COMPLETED');
    const failed = notDone.length;
    for (const m of new Set(notDone.map((j) => `${j.status.stage}: ${j.status.message}`)))
      console.log(`not COMPLETED: ${m}`);

    console.log(`log stream: ${LOG_SAMPLES} jobs, one at a time, POST then GET /logs…`);
    const first = [];
    for (let i = 0; i < LOG_SAMPLES; i++) first.push((await firstLine(base, token, name, spec)).ms);

    const f = (x) => `${Math.round(x)} ms`;
    console.log('');
    console.log(
      `jobs: ${JOBS} (${failed} not COMPLETED), POSTs done in ${f(launched)}, all finished in ${f(wall)} → ${(JOBS / (wall / 1000)).toFixed(1)} jobs/s`,
    );
    console.log(
      `create → RUNNING   p50 ${f(pct(toRunning, 50))}  p99 ${f(pct(toRunning, 99))}  (${inContainers ? `${runner} containers` : 'host processes'})`,
    );
    console.log(
      `hub CPU time (user+system, /proc) per job, launch to all finished: ${(cpu.hub / JOBS).toFixed(1)} ms, + its spawn helper ${(cpu.helpers / JOBS).toFixed(1)} ms, + the engine's daemons (dockerd, containerd; not the per-container shims) ${(engineSpent / JOBS).toFixed(1)} ms; load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs`,
    );
    console.log(
      `transactions committed per job (pg_stat_database, with the hub's background work): ${xactPerJob.toFixed(1)}${process.env.BENCH_PG_COUNT_URL ? `; round trips to Postgres per job (counting proxy, same): ${tripsPerJob.toFixed(1)}` : ''}`,
    );
    console.log(
      `stages from created (database timestamps; the process's start time to 10 ms), p50 / p99: the create's transaction began ${f(pct(stage('written'), 50))} / ${f(pct(stage('written'), 99))}; process started ${f(pct(stage('spawned'), 50))} / ${f(pct(stage('spawned'), 99))}; RUNNING stored ${f(pct(stage('running'), 50))} / ${f(pct(stage('running'), 99))}; first log line stored ${f(pct(stage('first_line'), 50))} / ${f(pct(stage('first_line'), 99))}; finished ${f(pct(stage('finished'), 50))} / ${f(pct(stage('finished'), 99))}`,
    );
    console.log(`create → COMPLETED p50 ${f(pct(toDone, 50))}  p99 ${f(pct(toDone, 99))}`);
    console.log(
      `log stream first line (client: POST sent → first data line) p50 ${f(pct(first, 50))}  p99 ${f(pct(first, 99))}`,
    );
  } finally {
    // A hub that already exited (it could not start) has no exit left to wait for.
    if (hub.exitCode === null && hub.signalCode === null) {
      hub.kill('SIGTERM');
      await new Promise((r) => hub.once('exit', r));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  if (hubFigures && process.env.BENCH_BARE !== '0') printBaseline(runner, hubFigures);
}

/** The bare tool at the same concurrency, once the hub has stopped, and the hub's figures as ratios to it. */
function printBaseline(runner, hub) {
  const concurrency = CONCURRENCY;
  const runs = JOBS;
  const what =
    runner === 'host'
      ? `bwrap with host mode's arguments (launch → first output)`
      : `${runner} create + start with the runner's options (create → start answered)`;
  console.log(`\nbaseline: ${runs} × ${what}, ${concurrency} at a time…`);
  const b = bare(runner, runs, concurrency);
  const f = (x) => `${Math.round(x)} ms`;
  const alone = CONCURRENCY === 1;
  const rate = hub.rate / b.perSecond;
  const p99 = hub.p99 / pct(b.latency, 99);
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `bare: ${b.perSecond.toFixed(1)} runs/s, p50 ${f(pct(b.latency, 50))} p99 ${f(pct(b.latency, 99))}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  // The whole machine's CPU over each window (every process, other sessions' too): what a job
  // costs beyond the bare run is what the hub adds (Node, its helpers, Postgres, the job's cgroup and shell).
  const bareCpu = b.machineCpuMs / runs;
  console.log(
    `machine CPU (/proc/stat, every process) per job: hub run ${hub.machineCpuPerJob.toFixed(1)} ms, bare run ${bareCpu.toFixed(1)} ms per run: the hub adds ${(hub.machineCpuPerJob - bareCpu).toFixed(1)} ms`,
  );
  if (runner === 'host' && process.env.BENCH_MINIMAL !== '0') printMinimal(hub, b, bareCpu);
  console.log(
    `hub / bare: jobs/s ${rate.toFixed(2)}×${alone ? '' : ` (target ≥ ${TARGETS.rate}: ${verdict(rate >= TARGETS.rate)})`}; create → RUNNING p99 ${p99.toFixed(2)}× the bare p99` +
      (runner === 'host' && !alone ? ` (target ≤ ${TARGETS.hostP99}: ${verdict(p99 <= TARGETS.hostP99)})` : '') +
      (runner !== 'host' && alone
        ? ` (target ≤ ${TARGETS.engineP99Alone}: ${verdict(p99 <= TARGETS.engineP99Alone)})`
        : '') +
      (runner === 'host' && alone
        ? `; one at a time p99 ${f(hub.p99)} (target ≤ ${TARGETS.hostP99AloneMs} ms: ${verdict(hub.p99 <= TARGETS.hostP99AloneMs)})`
        : ''),
  );
}

/**
 * The minimal launcher (minimal.ts) at the same runs and concurrency, after the bare run: an HTTP
 * API with one table and three statements per job around the same bwrap. Its figures against
 * bare's say how far the simplest correct design is from the bare tool on this machine; the hub's
 * against its, how far the hub is from that design.
 */
function printMinimal(hub, b, bareCpu) {
  console.log(
    `minimal launcher: ${JOBS} jobs (POST → INSERT, bwrap, RUNNING and COMPLETED stored), ${CONCURRENCY} POSTs in flight…`,
  );
  const m = benchTs('minimal.ts', [
    String(JOBS),
    String(CONCURRENCY),
    process.env.BENCH_JOBS_WAIT === '1' ? 'wait' : '',
  ]);
  const f = (x) => `${Math.round(x)} ms`;
  const cpu = m.machineCpuMs / JOBS;
  console.log(
    `minimal: ${m.perSecond.toFixed(1)} jobs/s, create → RUNNING p50 ${f(pct(m.latency, 50))} p99 ${f(pct(m.latency, 99))}; machine CPU per job ${cpu.toFixed(1)} ms (bare ${bareCpu.toFixed(1)}, hub ${hub.machineCpuPerJob.toFixed(1)})`,
  );
  console.log(
    `minimal / bare: jobs/s ${(m.perSecond / b.perSecond).toFixed(2)}×, p99 ${(pct(m.latency, 99) / pct(b.latency, 99)).toFixed(2)}×; hub / minimal: jobs/s ${(hub.rate / m.perSecond).toFixed(2)}×, p99 ${(hub.p99 / pct(m.latency, 99)).toFixed(2)}×`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
