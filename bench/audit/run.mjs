// Audit log benchmark (`npm run bench:audit`): 1,000,000 audit events of one organization in real
// Postgres, exported through the distributed gateway (gateway + credentials + organizations over
// NATS). Prints the time of a full export (the newest 100,000 events) and of exports with q, the
// peak RSS growth of the gateway and organizations processes while they stream, the CPU each
// process spent on it, and the ingest rate (audit events published on hub.audit.<type> to rows).
// Not a test: it prints figures.
// Environment (defaults in brackets):
//   BENCH_EVENTS [1000000]  seeded events      BENCH_INGEST [20000]  events published for the ingest rate
//   BENCH_EXPORTS [3]       runs of each export after a warm-up (the best and the worst are printed)
//   BENCH_REUSE [0]         1: keep the database (BENCH_DB [bench_audit_reuse]) and its seeded events
//                           for the next run, which seeds only when the organization has too few
//   BENCH_ONLY [all]        export (exports only), ingest (ingest only) or stream (audit log streaming only)
//   BENCH_STREAM_RATE [5000] audit events per second published while one stream sends them (stream.mjs)
//   BENCH_STREAM_SECONDS [20] how long they are published
//   BENCH_CPU_PROF [0]      1: V8 CPU profiles of the gateway and organizations over the measured full exports,
//                           or of organizations over the ingest with BENCH_ONLY=ingest, or over the
//                           stream's run with BENCH_ONLY=stream (profiling slows them:
//                           the times of that run are not comparable)
//   BENCH_SKIP_BUILD [0]    1: use the apps already in dist/
//   BENCH_NATS_NO_AUTH [0]  1: the bench's NATS without the generated users and permissions (what they cost)
//   BENCH_PG_ADMIN_URL [postgres://postgres@127.0.0.1:5432/test]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, headers as natsHeaders } from 'nats';
import { cpuAccount, enableProfiling, startNode, stop, stopAll, toggleProfiles } from '../gateway/processes.mjs';
import { summarize } from '../gateway/profile-summary.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { startDistributed } from '../gateway/setups.mjs';
import { withClient } from '../notifications/seed.mjs';
import { countOf, deleteOrganizationEvents, seedAuditEvents } from './seed.mjs';
import { measureStream } from './stream.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const cfg = {
  events: num('BENCH_EVENTS', 1_000_000),
  ingest: num('BENCH_INGEST', 20_000),
  exports: num('BENCH_EXPORTS', 3),
  reuse: process.env.BENCH_REUSE === '1',
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  only: process.env.BENCH_ONLY ?? 'all',
  streamRate: num('BENCH_STREAM_RATE', 5000),
  streamSeconds: num('BENCH_STREAM_SECONDS', 20),
};
const TARGETS = { exportSeconds: 2, rssMb: 64, ingestPerSecond: 5000 };
const MB = 1024 * 1024;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// What each export asks for, with the seed's shape (seed.mjs: event i has type TYPES[i % 4], author user<i % 50>, ip 10.0.<i % 200>.1).
const EXPORTS = [
  ['full export', undefined],
  ['q=type:repo.create (1 in 4)', 'type:repo.create'],
  ['q=author:user7 (1 in 50)', 'author:user7'],
  ['q=ip:10.0.7.1 (1 in 200)', 'ip:10.0.7.1'],
  ['q=author:user7 type:org.add_user (1 in 100)', 'author:user7 type:org.add_user'],
  ['q=author:user7 type:repo.update_settings (none)', 'author:user7 type:repo.update_settings'],
];

const rssOf = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

const cpuMsOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
};

/**
 * CPU of the Postgres backends serving the bench database (the services' pools) from now to the
 * returned function's call: the other sessions' Postgres work on this shared machine is not in it.
 */
async function postgresCpu(url, dbName) {
  const pids = await withClient(url, async (c) =>
    (
      await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName])
    ).rows.map((r) => r.pid),
  );
  const before = new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
  return () => pids.reduce((sum, pid) => sum + Math.max(0, cpuMsOf(pid) - before.get(pid)), 0);
}

async function admin(base, token, path, body, { allowConflict = false } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (allowConflict && res.status === 409) return null;
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The exporting user and organization: created, or (reused database) found again with a new token. */
async function exportingOrg(stack, adminToken, url, suffix) {
  const name = `bench-${suffix}`;
  await admin(stack.url, adminToken, '/admin/users', { name, email: `${name}@example.com` }, { allowConflict: true });
  const { token } = await admin(stack.url, adminToken, `/admin/users/${name}/tokens`, { role: 'write' });
  const orgName = `bench-org-${suffix}`;
  const created = await admin(
    stack.url,
    adminToken,
    '/admin/organizations',
    { name: orgName, plan: 'enterprise', admins: [name] },
    { allowConflict: true },
  );
  const org =
    created ??
    (await withClient(
      url,
      async (c) =>
        (await c.query('SELECT id, name FROM organizations.organizations WHERE name = $1', [orgName])).rows[0],
    ));
  return { token, org };
}

/** One export, streamed and counted; RSS of the exporting processes sampled every 5 ms, CPU of every process. */
async function exportOnce(stack, org, token, q, pgCpu) {
  const watched = stack.procs.filter((p) => p.name === 'gateway' || p.name === 'organizations');
  const before = Object.fromEntries(watched.map((p) => [p.name, rssOf(p.child.pid)]));
  const peak = { ...before };
  const sampler = setInterval(
    () =>
      watched.forEach((p) => {
        peak[p.name] = Math.max(peak[p.name], rssOf(p.child.pid));
      }),
    5,
  );
  const cpu = cpuAccount(stack.procs);
  const pg = await pgCpu();
  const t0 = performance.now();
  const res = await fetch(
    `${stack.url}/api/organizations/${org}/audit-log/export${q ? `?q=${encodeURIComponent(q)}` : ''}`,
    { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(180_000) },
  );
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const chunks = [];
  for await (const chunk of res.body) chunks.push(chunk);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const used = cpu();
  const body = Buffer.concat(chunks);
  const events = JSON.parse(body.toString('utf8')).length;
  const growth = Object.fromEntries(watched.map((p) => [p.name, (peak[p.name] - before[p.name]) / MB]));
  return {
    seconds,
    bytes: body.length,
    events,
    growth,
    cpu: { ...used.byServer, postgres: pg(), nats: used.ms.nats, bench: used.ms.loadgen },
    busyCores: used.busyCores,
    load: load(),
  };
}

/** Publishes cfg.ingest audit events on hub.audit.<type> (JetStream, distinct ids, 1,000 awaited at a time). */
async function publishAuditEvents(stack, org, busPrefix, idPrefix) {
  const nc = await connect(stack.nats.connectOptions);
  const js = nc.jetstream();
  const type = 'org.update_settings';
  for (let sent = 0; sent < cfg.ingest; sent += 1000) {
    await Promise.all(
      Array.from({ length: Math.min(1000, cfg.ingest - sent) }, (_, k) => {
        const i = sent + k;
        const h = natsHeaders();
        h.set('Nats-Msg-Id', `${idPrefix}${i.toString(16).padStart(16, '0')}`); // an object id, as the outbox's ids are
        const event = {
          type,
          organizationId: org.id,
          organization: org.name,
          message: `settings ${i}`,
          data: { i },
          createdAt: new Date().toISOString(),
          author: { _id: '000000000000000000000000', user: 'system', type: 'system' },
          ip: '10.1.0.1',
          userAgent: 'bench/1.0',
        };
        return js.publish(`${busPrefix}.hub.audit.${type}`, JSON.stringify(event), { headers: h });
      }),
    );
  }
  await nc.close();
}

/** Live: publishes cfg.ingest audit events while the service consumes, and waits until it has stored them all. */
async function ingest(stack, url, dbName, org, busPrefix, tag) {
  const organizations = stack.procs.find((p) => p.name === 'organizations');
  const cpu = cpuAccount(stack.procs);
  const pg = await postgresCpu(url, dbName);
  const t0 = performance.now();
  await publishAuditEvents(stack, org, busPrefix, tag);
  const published = (performance.now() - t0) / 1000;
  let stored = 0;
  while (stored < cfg.ingest && performance.now() - t0 < 600_000) {
    await new Promise((r) => setTimeout(r, 50));
    stored = await countOf(url, org.id);
  }
  const seconds = (performance.now() - t0) / 1000;
  const used = cpu();
  return {
    stored,
    seconds,
    published,
    organizationsCpuMs: used.byServer[organizations.name],
    postgresCpuMs: pg(),
    natsCpuMs: used.ms.nats,
    load: load(),
  };
}

/**
 * Backlog: the organizations process is stopped, cfg.ingest events are published, and it is
 * started again: the rate is the service draining what waits on the bus, from its first stored
 * event to its last, without the publisher on the machine meanwhile. CPU of the new process
 * over that window.
 */
async function drain(stack, url, dbName, org, busPrefix, tag, logDir) {
  const old = stack.procs.find((p) => p.name === 'organizations');
  const cmdline = readFileSync(`/proc/${old.child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    readFileSync(`/proc/${old.child.pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  await stop(old);
  const base = await countOf(url, org.id);
  // Ids unlike the live run's (JetStream drops a repeated id within its duplicate window).
  await publishAuditEvents(stack, org, busPrefix, `${tag.slice(0, 7)}${tag[7] === 'f' ? 'e' : 'f'}`);
  const proc = startNode('organizations', cmdline.slice(1), { env, logDir, cwd: root });
  stack.procs[stack.procs.indexOf(old)] = proc;
  let stored = 0;
  let first;
  let cpuAtFirst = 0;
  const deadline = performance.now() + 600_000;
  while (stored < cfg.ingest && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    stored = (await countOf(url, org.id)) - base;
    if (first === undefined && stored > 0)
      [first, cpuAtFirst] = [{ at: performance.now(), stored }, cpuMsOf(proc.child.pid)];
  }
  if (!first)
    throw new Error(`the restarted organizations stored none of the ${cfg.ingest} events; log ${proc.logFile}`);
  const seconds = (performance.now() - first.at) / 1000;
  const cpuMs = cpuMsOf(proc.child.pid) - cpuAtFirst;
  return { stored, counted: stored - first.stored, seconds, cpuMs, load: load() };
}

function printExports(results) {
  console.log(
    `\nGET /api/organizations/{org}/audit-log/export through the distributed gateway (${cfg.events} events in the organization):`,
  );
  const ms = (v) => `${((v ?? 0) / 1000).toFixed(2)}`;
  for (const { label, best, worst } of results) {
    const rss = Object.entries(worst.growth)
      .map(([n, mb]) => `${n} +${mb.toFixed(1)} MB`)
      .join(', ');
    console.log(
      `  ${label.padEnd(48)} ${best.events} events, ${(best.bytes / MB).toFixed(1)} MB: best ${best.seconds.toFixed(2)} s, worst ${worst.seconds.toFixed(2)} s (target <= ${TARGETS.exportSeconds}); load ${best.load}`,
    );
    console.log(`  ${''.padEnd(48)} peak RSS growth (worst run): ${rss} (target <= ${TARGETS.rssMb} MB each)`);
    console.log(
      `  ${''.padEnd(48)} CPU s (best run): gateway ${ms(best.cpu.gateway)}, organizations ${ms(best.cpu.organizations)}, postgres (the bench database's backends) ${ms(best.cpu.postgres)}, nats ${ms(best.cpu.nats)}, bench client ${ms(best.cpu.bench)}; machine busy ${best.busyCores.toFixed(2)} cores`,
    );
  }
}

function printStream(s) {
  const rate = (s.received / s.seconds).toFixed(0);
  console.log(
    `\naudit log stream (https, one stream, default flush and batch): ${s.total} events published at ${cfg.streamRate}/s in ${s.publishedSeconds.toFixed(1)} s; ${s.received} received (${s.duplicates} duplicates) in ${s.requests} batches, the last ${s.seconds.toFixed(1)} s after the first publish = ${rate} events/s (target >= ${TARGETS.ingestPerSecond}); load ${s.load}`,
  );
  console.log(
    `  the ingest had stored them all ${s.storedSeconds?.toFixed(1) ?? '(never)'} s after the first publish = ${s.storedSeconds ? (s.total / s.storedSeconds).toFixed(0) : '-'} events/s: the stream's last batch came ${s.storedSeconds ? (s.seconds - s.storedSeconds).toFixed(1) : '-'} s after that`,
  );
  console.log(
    `  lag createdAt -> received: p50 ${s.lag.p50} ms, p99 ${s.lag.p99} ms, max ${s.lag.max} ms (target: within 60 s); events of the last quarter: p50 ${s.lateLag.p50} ms, p99 ${s.lateLag.p99} ms`,
  );
  console.log(
    `  delivery log: ${s.log.batches} batches, send p50 ${Math.round(s.log.send_p50)} ms, max ${s.log.send_max} ms; mean time from one batch to the next ${Math.round(s.log.gap_mean)} ms`,
  );
  const ms = (v) => `${((v ?? 0) / 1000).toFixed(2)}`;
  console.log(
    `  CPU s over the run: organizations ${ms(s.cpu.byServer.organizations)}, nats ${ms(s.cpu.ms.nats)}, bench (publisher + receiver) ${ms(s.cpu.ms.loadgen)}; machine busy ${s.cpu.busyCores.toFixed(2)} cores`,
  );
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    execFileSync('npx', ['nx', 'run-many', '-t', 'build', '-p', 'gateway', 'credentials', 'organizations'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NX_DAEMON: 'false' },
    });
  }
  const tag = randomBytes(4).toString('hex');
  const dbName = cfg.reuse ? (process.env.BENCH_DB ?? 'bench_audit_reuse') : `bench_audit_${tag}`;
  const busPrefix = `bench-audit-${tag}`;
  const logDir = join(root, 'tmp', 'bench-audit', tag);
  mkdirSync(logDir, { recursive: true });
  const adminToken = randomBytes(24).toString('hex');
  await createDatabase(dbName).catch((e) => {
    if (!cfg.reuse || !/already exists/.test(e.message)) throw e;
  });
  const url = databaseUrl(dbName);
  let ingestOrgId;
  const profileDir = join(logDir, 'profiles');
  if (cfg.cpuProfile) enableProfiling(profileDir);
  // The stream's receiver listens on loopback, which the SSRF guard refuses unless allowed.
  process.env.HUB_AUDIT_STREAM_ALLOWED_NETWORKS ??= '127.0.0.1/32';
  process.env.HUB_SECRET_KEY ??= randomBytes(32).toString('hex'); // seals the stream's secret
  try {
    const stack = await startDistributed({ root, logDir, adminToken, databaseUrl: url, busPrefix });
    const { token, org } = await exportingOrg(stack, adminToken, url, cfg.reuse ? 'reuse' : tag);
    const have = await countOf(url, org.id);
    if (cfg.only === 'stream') {
      // Nothing to seed: the stream sends only what is recorded after it was made.
    } else if (have < cfg.events) {
      const t0 = performance.now();
      if (have > 0) await deleteOrganizationEvents(url, org.id);
      await seedAuditEvents(url, {
        organizationId: org.id,
        organization: org.name,
        count: cfg.events,
        publicUrl: stack.url,
      });
      console.log(`seeded ${cfg.events} audit events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else {
      console.log(`reusing ${have} audit events of ${org.name} in ${dbName}`);
    }
    console.log(`load average at start: ${load()}`);

    const results = [];
    if (cfg.only === 'all' || cfg.only === 'export') {
      for (const [label, q] of EXPORTS) {
        const all = [];
        try {
          const pgCpu = () => postgresCpu(url, dbName);
          await exportOnce(stack, org.name, token, q, pgCpu); // warm-up
          const profiled = cfg.cpuProfile && !q;
          if (profiled) await toggleProfiles(stack.procs);
          for (let i = 0; i < cfg.exports; i++) all.push(await exportOnce(stack, org.name, token, q, pgCpu));
          if (profiled) {
            await toggleProfiles(stack.procs);
            console.log('\nCPU profiles of the measured full exports:');
            for (const name of ['gateway', 'organizations'])
              console.log(summarize(join(profileDir, `${name}.cpuprofile`), 15));
          }
        } catch (e) {
          console.log(`  ${label}: failed: ${e.message}`);
          continue;
        }
        all.sort((a, b) => a.seconds - b.seconds);
        results.push({ label, best: all[0], worst: all[all.length - 1] });
        console.log(
          `  ${label}: ${all.map((r) => `${r.events} events in ${r.seconds.toFixed(2)} s`).join(', ')} (load ${load()})`,
        );
      }
    }
    let ing;
    let backlog;
    if (cfg.only === 'all' || cfg.only === 'ingest') {
      // Its own organization, so the exported one keeps exactly its seeded events run after run.
      const ingestOrg = await admin(stack.url, adminToken, '/admin/organizations', {
        name: `bench-ingest-${tag}`,
        plan: 'enterprise',
        admins: [`bench-${cfg.reuse ? 'reuse' : tag}`],
      });
      ingestOrgId = ingestOrg.id;
      await new Promise((r) => setTimeout(r, 1000)); // its org.create audit event lands first
      const base = await countOf(url, ingestOrg.id);
      const profiled = cfg.cpuProfile && cfg.only === 'ingest';
      if (profiled) await toggleProfiles(stack.procs);
      ing = await ingest(stack, url, dbName, ingestOrg, busPrefix, tag);
      if (profiled) {
        await toggleProfiles(stack.procs);
        console.log(`\nCPU profile of the ingest:\n${summarize(join(profileDir, 'organizations.cpuprofile'), 25)}`);
      }
      if (!cfg.cpuProfile) backlog = await drain(stack, url, dbName, ingestOrg, busPrefix, tag, logDir);
      ing.stored -= base;
    }

    let streamed;
    if (cfg.only === 'all' || cfg.only === 'stream') {
      const streamOrg = await admin(stack.url, adminToken, '/admin/organizations', {
        name: `bench-stream-${tag}`,
        plan: 'enterprise',
        admins: [`bench-${cfg.reuse ? 'reuse' : tag}`],
      });
      const profiled = cfg.cpuProfile && cfg.only === 'stream';
      if (profiled) await toggleProfiles(stack.procs);
      streamed = await measureStream({
        stack,
        post: (path, body, t) => admin(stack.url, t, path, body),
        stored: () => countOf(url, streamOrg.id),
        org: streamOrg,
        token,
        busPrefix,
        tag,
        rate: cfg.streamRate,
        seconds: cfg.streamSeconds,
        cpuAccount,
      });
      if (profiled) {
        await toggleProfiles(stack.procs);
        console.log(
          `\nCPU profile of the stream's run:\n${summarize(join(profileDir, 'organizations.cpuprofile'), 30)}`,
        );
      }
      streamed.load = load();
      // Where a batch's time went: the send (latency_ms) against the time between batches.
      streamed.log = await withClient(
        url,
        async (c) =>
          (
            await c.query(
              `SELECT count(*)::int AS batches,
                      percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS send_p50,
                      max(latency_ms) AS send_max,
                      EXTRACT(EPOCH FROM max(at) - min(at)) * 1000 / GREATEST(count(*) - 1, 1) AS gap_mean
                 FROM organizations.audit_stream_deliveries WHERE stream_id = $1 AND kind = 'batch'`,
              [streamed.streamId],
            )
          ).rows[0],
      );
      await deleteOrganizationEvents(url, streamOrg.id);
    }

    if (results.length > 0) printExports(results);
    if (ing) {
      console.log(
        `\ningest: ${ing.stored}/${cfg.ingest} events from hub.audit.* stored in ${ing.seconds.toFixed(2)} s (published in ${ing.published.toFixed(2)} s) = ${(ing.stored / ing.seconds).toFixed(0)} events/s (target >= ${TARGETS.ingestPerSecond}); load ${ing.load}`,
      );
      console.log(
        `  CPU per event (live): organizations ${((ing.organizationsCpuMs * 1000) / cfg.ingest).toFixed(0)} us, postgres ${((ing.postgresCpuMs * 1000) / cfg.ingest).toFixed(0)} us, nats ${((ing.natsCpuMs * 1000) / cfg.ingest).toFixed(0)} us`,
      );
    }
    if (backlog) {
      console.log(
        `ingest of a backlog (organizations stopped while ${cfg.ingest} events were published, then started): ${backlog.counted} events stored in ${backlog.seconds.toFixed(2)} s from its first = ${(backlog.counted / backlog.seconds).toFixed(0)} events/s (target >= ${TARGETS.ingestPerSecond}); load ${backlog.load}`,
      );
      console.log(
        `  CPU per event: organizations ${((backlog.cpuMs * 1000) / backlog.counted).toFixed(0)} us (${backlog.stored}/${cfg.ingest} stored)`,
      );
    }
    if (streamed) printStream(streamed);
    await stack.stop();
  } finally {
    await stopAll();
    if (!cfg.reuse) await dropDatabase(dbName);
    else if (ingestOrgId) await deleteOrganizationEvents(url, ingestOrgId);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
