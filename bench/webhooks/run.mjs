// npm run bench:webhooks — N events matching W webhooks, delivered to a loopback receiver, in the
// distributed mode (gateway + services + webhooks over NATS and Postgres) and all-in-one (the hub
// on Postgres, in-process bus). A ledger per run: published × W must equal delivered (distinct
// event × webhook at the receiver), duplicates apart; a run that does not balance is void.
// Settings: BENCH_EVENTS (20000), BENCH_WEBHOOKS (10), BENCH_EXTRA_WEBHOOKS (0; e.g. 100000
// registered but not matching), BENCH_MODES (distributed,all-in-one), BENCH_TIMEOUT_S (900),
// BENCH_RATE (deliveries/s offered, open loop: events go out at BENCH_RATE / W per second; 0 = as
// fast as 32 publishers can, which measures the backlog's drain rather than a sustained rate),
// BENCH_CPU_PROF=<dir> (V8 CPU profile of the delivering process over the measured window, in
// <dir>/<mode>-<current|baseline>/),
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
// BENCH_NOISY=1: the noisy-neighbour check instead (noisy.mjs, decision 0505).
if (process.env.BENCH_NOISY === '1') {
  await import('./noisy.mjs');
  process.exit(0);
}
// BENCH_FANOUT, BENCH_WEBHOOKS_REPLICAS, BENCH_EXTRA_COMPARE: fan-out and scale instead (scale.mjs, issue 40 item 3).
if (process.env.BENCH_FANOUT || process.env.BENCH_WEBHOOKS_REPLICAS || process.env.BENCH_EXTRA_COMPARE === '1') {
  await import('./scale.mjs');
  process.exit(0);
}
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { cpuAccount, enableProfiling, stopAll, toggleProfiles } from '../gateway/processes.mjs';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { backendCpu, backendDelta, failedAttempts, rssMb, stages, statements, tableWrites } from './measures.mjs';
import { api, repoUpdateEvent } from './api.mjs';
import { ADMIN, logDir, receiver, root, seedExtra, start, wallNow, withRetries } from './servers.mjs';

const N = Number(process.env.BENCH_EVENTS ?? 20000);
const W = Number(process.env.BENCH_WEBHOOKS ?? 10);
const EXTRA = Number(process.env.BENCH_EXTRA_WEBHOOKS ?? 0);
const MODES = (process.env.BENCH_MODES ?? 'distributed,all-in-one').split(',');
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 900);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 50);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? PACED_RATE * 10);
const load = () => loadavg().map((l) => +l.toFixed(2));

async function run(mode, tree = root, label = 'current') {
  // One profile folder per run: the baseline's and this tree's processes have the same names.
  if (process.env.BENCH_CPU_PROF) enableProfiling(join(process.env.BENCH_CPU_PROF, `${mode}-${label}`));
  const name = `bench_webhooks_${mode.replace(/-/g, '_')}_${Date.now()}`;
  await createDatabase(name);
  const dbUrl = databaseUrl(name);
  const rx = await receiver();
  let env;
  let result;
  try {
    env = await start(mode, dbUrl, tree, rx.url);
    const minimal = mode === 'minimal';
    const user = minimal
      ? { id: '0123456789abcdef01234567', name: 'minimal' }
      : await api(env.url, 'POST', '/admin/users', ADMIN, {
          name: `bench${Date.now()}`,
          email: `bench${Date.now()}@example.com`,
        });
    const { token } = minimal
      ? {}
      : await api(env.url, 'POST', `/admin/users/${user.name}/tokens`, ADMIN, { role: 'write' });
    const repo = `${user.name}/model`;
    for (let i = 0; i < W && !minimal; i++)
      await api(env.url, 'POST', '/api/settings/webhooks', token, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: rx.url,
        secret: 'bench-secret',
      });
    if (EXTRA > 0 && !minimal) await seedExtra(dbUrl, user.id, EXTRA);
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
            api(env.url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(repo, user.id, `e${i}`)),
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
        failedAttempts: minimal ? null : await failedAttempts(dbUrl),
        stagesP50P99Ms: minimal ? null : await stages(dbUrl, published, accepted, rx.seen),
        rowVersions: await tableWrites(dbUrl),
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadAfter,
      }),
    );
    result = {
      deliveriesPerSecond: Math.round(delivered / elapsed),
      balanced: delivered === expected,
      // Every process counted: the servers, the run's own Postgres backends, the run's NATS (not the bench).
      cpuMsPerDelivery: (usedByServers.ms.server + ownPostgresMs + (env.nats ? used.ms.nats : 0)) / delivered,
      p99ms: q(0.99),
    };
    if (PACED_RATE > 0 && label === 'current' && !minimal)
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
        await withRetries(() => api(url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(repo, user.id, `paced-${i}`)));
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

// The minimal sender (minimal-sender.mjs) first, same sizes and rate: each mode's figures as ratios to it.
const minimal = process.env.BENCH_MINIMAL === '0' ? undefined : await run('minimal', root, 'minimal');
for (const mode of MODES) {
  // BENCH_BASELINE_LAST=1 runs this tree first: a second pair in the other order cancels the machine's drift.
  const baselineRun = () =>
    process.env.BENCH_BASELINE ? run(mode, process.env.BENCH_BASELINE, 'baseline') : undefined;
  const last = process.env.BENCH_BASELINE_LAST === '1';
  const early = last ? undefined : await baselineRun();
  const current = await run(mode);
  const baseline = last ? await baselineRun() : early;
  if (minimal && current)
    console.log(
      JSON.stringify({
        mode,
        toMinimalSender: {
          deliveriesPerSecond: +(current.deliveriesPerSecond / minimal.deliveriesPerSecond).toFixed(3),
          cpuMsPerDelivery: +(current.cpuMsPerDelivery / minimal.cpuMsPerDelivery).toFixed(2),
          p99: +(current.p99ms / Math.max(1, minimal.p99ms)).toFixed(2),
        },
        minimalCpuMsPerDelivery: +minimal.cpuMsPerDelivery.toFixed(3),
        currentCpuMsPerDelivery: +current.cpuMsPerDelivery.toFixed(3),
      }),
    );
  if (baseline && current)
    console.log(
      JSON.stringify({
        mode,
        baselineDeliveriesPerSecond: baseline.deliveriesPerSecond,
        currentDeliveriesPerSecond: current.deliveriesPerSecond,
        ratioToBaseline: +(current.deliveriesPerSecond / baseline.deliveriesPerSecond).toFixed(3),
        baselineCpuMsPerDelivery: +baseline.cpuMsPerDelivery.toFixed(3),
        currentCpuMsPerDelivery: +current.cpuMsPerDelivery.toFixed(3),
        cpuRatioToBaseline: +(current.cpuMsPerDelivery / baseline.cpuMsPerDelivery).toFixed(3),
        p99RatioToBaseline: +(current.p99ms / Math.max(1, baseline.p99ms)).toFixed(3),
        bothBalanced: baseline.balanced && current.balanced,
      }),
    );
}
console.log(
  `logs: ${logDir}. Transactions and row writes per delivery are from pg_stat_database (the run's database only, publishing and intake included; each statement is its own transaction on the delivery path). Postgres CPU counts every postgres process on the machine, other sessions' too.`,
);
