// Audit log benchmark (`npm run bench:audit`): 1,000,000 audit events of one organization in real
// Postgres, exported through the distributed gateway (gateway + credentials + organizations over
// NATS). Prints the time of a full export (the newest 100,000 events) with and without q, the
// peak RSS growth of the gateway and organizations processes while it streams, and the ingest rate
// (audit events published on hub.audit.* to rows). Not a test: it prints figures.
// Environment (defaults in brackets):
//   BENCH_EVENTS [1000000]  seeded events      BENCH_INGEST [20000]  events published for the ingest rate
//   BENCH_EXPORTS [3]       runs of each export (the best and the worst are printed)
//   BENCH_SKIP_BUILD [0]    1: use the apps already in dist/
//   NATS_URL [nats://127.0.0.1:4222], BENCH_PG_ADMIN_URL [postgres://postgres@127.0.0.1:5432/test]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, headers as natsHeaders } from 'nats';
import { cpuAccount, stopAll } from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropBusStreams, dropDatabase } from '../gateway/seed.mjs';
import { startDistributed } from '../gateway/setups.mjs';
import { countOfType, seedAuditEvents } from './seed.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const cfg = { events: num('BENCH_EVENTS', 1_000_000), ingest: num('BENCH_INGEST', 20_000), exports: num('BENCH_EXPORTS', 3), natsUrl: process.env.NATS_URL || 'nats://127.0.0.1:4222' };
const TARGETS = { exportSeconds: 2, rssMb: 64, ingestPerSecond: 5000 };
const MB = 1024 * 1024;

const rssOf = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

async function admin(base, token, path, body) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** One export, streamed and counted; RSS of the exporting processes sampled every 5 ms. */
async function exportOnce(stack, org, token, q) {
  const watched = stack.procs.filter((p) => p.name === 'gateway' || p.name === 'organizations');
  const before = Object.fromEntries(watched.map((p) => [p.name, rssOf(p.child.pid)]));
  const peak = { ...before };
  const sampler = setInterval(() => watched.forEach((p) => { peak[p.name] = Math.max(peak[p.name], rssOf(p.child.pid)); }), 5);
  const cpu = cpuAccount(stack.procs);
  const t0 = performance.now();
  const res = await fetch(`${stack.url}/api/organizations/${org}/audit-log/export${q ? `?q=${encodeURIComponent(q)}` : ''}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(180_000) });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const chunks = [];
  for await (const chunk of res.body) chunks.push(chunk);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const used = cpu();
  const body = Buffer.concat(chunks);
  const events = JSON.parse(body.toString('utf8')).length;
  const growth = Object.fromEntries(watched.map((p) => [p.name, (peak[p.name] - before[p.name]) / MB]));
  return { seconds, bytes: body.length, events, growth, serverCpuMs: used.ms.server, busyCores: used.busyCores };
}

async function ingest(stack, url, org, busPrefix) {
  const nc = await connect({ servers: cfg.natsUrl });
  const js = nc.jetstream();
  const t0 = performance.now();
  const type = 'org.update_settings';
  for (let sent = 0; sent < cfg.ingest; sent += 1000) {
    await Promise.all(Array.from({ length: Math.min(1000, cfg.ingest - sent) }, (_, k) => {
      const i = sent + k;
      const h = natsHeaders();
      h.set('Nats-Msg-Id', `${(0xf0000000 + i).toString(16).padStart(24, '0')}`);
      const event = {
        type, organizationId: org.id, organization: org.name, message: `settings ${i}`, data: { i }, createdAt: new Date().toISOString(),
        author: { _id: '000000000000000000000000', user: 'system', type: 'system' }, ip: '10.1.0.1', userAgent: 'bench/1.0',
      };
      return js.publish(`${busPrefix}.hub.audit.${type}`, JSON.stringify(event), { headers: h });
    }));
  }
  const published = (performance.now() - t0) / 1000;
  let stored = 0;
  while (stored < cfg.ingest && performance.now() - t0 < 600_000) {
    await new Promise((r) => setTimeout(r, 100));
    stored = await countOfType(url, org.id, type);
  }
  await nc.close();
  return { stored, seconds: (performance.now() - t0) / 1000, published };
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    execFileSync('npx', ['nx', 'run-many', '-t', 'build', '-p', 'gateway', 'credentials', 'organizations'], { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  }
  const tag = randomBytes(4).toString('hex');
  const dbName = `bench_audit_${tag}`;
  const busPrefix = `bench-audit-${tag}`;
  const logDir = join(root, 'tmp', 'bench-audit', tag);
  mkdirSync(logDir, { recursive: true });
  const adminToken = randomBytes(24).toString('hex');
  await createDatabase(dbName);
  const url = databaseUrl(dbName);
  try {
    const stack = await startDistributed({ root, logDir, adminToken, databaseUrl: url, natsUrl: cfg.natsUrl, busPrefix });
    const name = `bench-${tag}`;
    await admin(stack.url, adminToken, '/admin/users', { name, email: `${name}@example.com` });
    const { token } = await admin(stack.url, adminToken, `/admin/users/${name}/tokens`, { role: 'write' });
    const org = await admin(stack.url, adminToken, '/admin/organizations', { name: `bench-org-${tag}`, plan: 'enterprise', admins: [name] });
    const t0 = performance.now();
    await seedAuditEvents(url, { organizationId: org.id, organization: org.name, count: cfg.events, publicUrl: stack.url });
    console.log(`seeded ${cfg.events} audit events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const runs = [['full export', undefined], ['q=type:repo.create', 'type:repo.create'], ['q=author:user7 type:repo.update_settings', 'author:user7 type:repo.update_settings']];
    const results = [];
    for (const [label, q] of runs) {
      const all = [];
      try {
        await exportOnce(stack, org.name, token, q); // warm-up
        for (let i = 0; i < cfg.exports; i++) all.push(await exportOnce(stack, org.name, token, q));
      } catch (e) {
        console.log(`  ${label}: failed: ${e.message}`);
        continue;
      }
      all.sort((a, b) => a.seconds - b.seconds);
      results.push({ label, best: all[0], worst: all[all.length - 1] });
      console.log(`  ${label}: ${all.map((r) => `${r.events} events in ${r.seconds.toFixed(2)} s`).join(', ')}`);
    }
    const ing = await ingest(stack, url, org, busPrefix);

    console.log('\nGET /api/organizations/{org}/audit-log/export through the distributed gateway (machine shared with other sessions):');
    for (const { label, best, worst } of results) {
      const rss = (r) => Object.entries(r.growth).map(([n, mb]) => `${n} +${mb.toFixed(1)} MB`).join(', ');
      console.log(`  ${label.padEnd(42)} ${best.events} events, ${(best.bytes / MB).toFixed(1)} MB: best ${best.seconds.toFixed(2)} s, worst ${worst.seconds.toFixed(2)} s (target <= ${TARGETS.exportSeconds})`);
      console.log(`  ${''.padEnd(42)} peak RSS growth (worst run): ${rss(worst)} (target <= ${TARGETS.rssMb} MB each); server CPU ${(best.serverCpuMs / 1000).toFixed(2)} s, machine busy ${best.busyCores.toFixed(2)} cores`);
    }
    console.log(`\ningest: ${ing.stored}/${cfg.ingest} events from hub.audit.* stored in ${ing.seconds.toFixed(2)} s (published in ${ing.published.toFixed(2)} s) = ${(ing.stored / ing.seconds).toFixed(0)} events/s (target >= ${TARGETS.ingestPerSecond})`);
    await stack.stop();
  } finally {
    await stopAll();
    await dropBusStreams(cfg.natsUrl, busPrefix).catch(() => undefined);
    await dropDatabase(dbName);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
