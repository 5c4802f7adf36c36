// BENCH_NOISY=1 npm run bench:webhooks — the noisy-neighbour check of decision 0505 (issue 43).
// A victim user has three webhooks (plain, paced at 50/s, ordered) on a fast loopback receiver and
// gets BENCH_NOISY_VICTIM_EVENTS (150) events at BENCH_NOISY_VICTIM_RATE (10) per second: first
// alone, then while a noisy user's BENCH_NOISY_WEBHOOKS (100) webhooks — half on a receiver that
// answers after 30 s (each attempt runs to the 10 s timeout), half on one that answers 500 at once,
// every fourth of them ordered — get BENCH_NOISY_RATE (5) events per second (×100 deliveries). The
// victim's p50/p99 per kind (publish → receipt), alone and among the noise, and their ratio; the
// target is a p99 within 2× of alone. Modes: BENCH_MODES (all-in-one); a tree: BENCH_TREE (this one).
import { loadavg } from 'node:os';
import { enableProfiling, stopAll, toggleProfiles } from '../gateway/processes.mjs';
import { join } from 'node:path';
import { createDatabase, databaseUrl, dropDatabase } from '../gateway/seed.mjs';
import { api, repoUpdateEvent } from './api.mjs';
import { ADMIN, METRICS, root, start, wallNow, withRetries } from './servers.mjs';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loopDelayMeter, receiver } from './noisy-receiver.mjs';
import pg from 'pg';

const VICTIM_EVENTS = Number(process.env.BENCH_NOISY_VICTIM_EVENTS ?? 150);
const VICTIM_RATE = Number(process.env.BENCH_NOISY_VICTIM_RATE ?? 10);
const NOISY_WEBHOOKS = Number(process.env.BENCH_NOISY_WEBHOOKS ?? 100);
const NOISY_RATE = Number(process.env.BENCH_NOISY_RATE ?? 5);
const MODES = (process.env.BENCH_MODES ?? 'all-in-one').split(',');
const TREE = process.env.BENCH_TREE ?? root;
const load = () => loadavg().map((l) => +l.toFixed(2));

/** The noisy user's receivers, in a child process of their own (noisy-receiver.mjs). */
async function noiseReceivers() {
  const child = fork(fileURLToPath(new URL('./noisy-receiver.mjs', import.meta.url)));
  const ask = (m, key) =>
    new Promise((resolve) => {
      const on = (reply) => reply[key] && (child.off('message', on), resolve(reply[key]));
      child.on('message', on);
      if (m) child.send(m);
    });
  const urls = await ask(undefined, 'urls');
  return {
    urls,
    counts: () => ask('counts', 'counts'),
    close: () => new Promise((r) => (child.once('exit', r), child.send('close'))),
  };
}

/**
 * The event loop's delay in each delivering process (prom-client's, from monitorEventLoopDelay: p99
 * and max in ms) since the previous scrape, which resets it: scraped when a window starts and ends.
 */
async function loopDelay(urls) {
  return Promise.all(
    urls.map(async (u) => {
      const res = await fetch(`${u}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
      const text = res.ok ? await res.text() : '';
      const ms = (name) =>
        +(Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm'))?.[1]) * 1000).toFixed(1);
      return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
    }),
  );
}

async function makeUser(url, name) {
  const user = await api(url, 'POST', '/admin/users', ADMIN, { name, email: `${name}@example.com` });
  const { token } = await api(url, 'POST', `/admin/users/${user.name}/tokens`, ADMIN, { role: 'write' });
  return { ...user, token };
}

async function hook(url, user, repo, target, options) {
  const h = await api(url, 'POST', '/api/settings/webhooks', user.token, {
    watched: [{ type: 'model', name: repo }],
    domains: ['repo'],
    url: target,
  });
  if (options) await api(url, 'PUT', `/api/settings/webhooks/${h.webhook.id}/delivery-options`, user.token, options);
  return h.webhook.id;
}

/** Publishes the victim's events at VICTIM_RATE and answers each kind's latencies (ms, sorted). */
async function victimWindow(url, victim, rx, tag) {
  const published = new Map();
  const t0 = wallNow();
  for (let i = 0; i < VICTIM_EVENTS; i++) {
    const wait = t0 + (i * 1000) / VICTIM_RATE - wallNow();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const action = `${tag}-${i}`;
    published.set(action, wallNow());
    await withRetries(() => api(url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(victim.repo, victim.id, action)));
  }
  const kinds = ['plain', 'paced', 'ordered'];
  const deadline = Date.now() + 120_000;
  const done = () => kinds.every((k) => [...published.keys()].every((a) => rx.seen.has(`${k}|${a}`)));
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const latencies = Object.fromEntries(
    kinds.map((k) => {
      const l = [...published].map(([a, at]) => (rx.seen.get(`${k}|${a}`) ?? Infinity) - at).sort((x, y) => x - y);
      return [
        k,
        { p50: pct(l, 0.5), p99: pct(l, 0.99), max: pct(l, 1), missing: l.filter((x) => x === Infinity).length },
      ];
    }),
  );
  return { latencies, published, from: t0, to: wallNow() };
}

/** The victim's five slowest plain events of a window: when (ms into it) and how late (ms). */
function slowest(window, rx) {
  return [...window.published]
    .map(([a, at]) => ({
      atMs: Math.round(at - window.from),
      lateMs: Math.round((rx.seen.get(`plain|${a}`) ?? Infinity) - at),
    }))
    .sort((x, y) => y.lateMs - x.lateMs)
    .slice(0, 5);
}

const pct = (sorted, p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);

/**
 * Where the victim's time went, per kind: publish → its delivery row (intake) and row → receipt
 * (claim and attempt), p50/p99 ms, from the rows' created_at.
 */
async function victimStages(dbUrl, ids, window, rx) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query(
      `SELECT webhook_id, payload::json->'event'->>'action' AS action, extract(epoch from created_at) * 1000 AS queued
       FROM webhooks.deliveries WHERE webhook_id = ANY($1)`,
      [Object.values(ids)],
    );
    const kindOf = new Map(Object.entries(ids).map(([k, id]) => [id, k]));
    const out = {};
    for (const k of Object.keys(ids)) {
      const intake = [];
      const deliver = [];
      for (const row of r.rows.filter((x) => kindOf.get(x.webhook_id) === k)) {
        const sent = window.published.get(row.action);
        const got = rx.seen.get(`${k}|${row.action}`);
        if (sent === undefined) continue;
        intake.push(Number(row.queued) - sent);
        if (got !== undefined) deliver.push(got - Number(row.queued));
      }
      intake.sort((a, b) => a - b);
      deliver.sort((a, b) => a - b);
      out[k] = {
        publishToQueued: `${pct(intake, 0.5)}/${pct(intake, 0.99)}`,
        queuedToReceived: `${pct(deliver, 0.5)}/${pct(deliver, 0.99)}`,
      };
    }
    return out;
  } finally {
    await c.end();
  }
}

async function run(mode) {
  const name = `bench_webhooks_noisy_${mode.replace(/-/g, '_')}_${Date.now()}`;
  // BENCH_CPU_PROF=<dir>: a CPU profile of each server over the window among the noise.
  if (process.env.BENCH_CPU_PROF) enableProfiling(join(process.env.BENCH_CPU_PROF, mode));
  await createDatabase(name);
  const fast = await receiver({ status: 200, delayMs: 0 });
  const noiseRx = await noiseReceivers();
  const benchLoop = loopDelayMeter();
  let stopNoise = false;
  try {
    const env = await start(mode, databaseUrl(name), TREE);
    const stamp = Date.now();
    const victim = await makeUser(env.url, `victim${stamp}`);
    victim.repo = `${victim.name}/model`;
    const ids = {
      plain: await hook(env.url, victim, victim.repo, fast.url('plain')),
      paced: await hook(env.url, victim, victim.repo, fast.url('paced'), { maxPerSecond: 50 }),
      ordered: await hook(env.url, victim, victim.repo, fast.url('ordered'), { ordered: true }),
    };
    const loadBefore = load();
    const delivering = env.deliverers.map((p) => p.url ?? env.url);
    await loopDelay(delivering);
    benchLoop();
    const aloneWindow = await victimWindow(env.url, victim, fast, 'alone');
    const alone = aloneWindow.latencies;
    const loopAlone = await loopDelay(delivering);
    const benchLoopAlone = benchLoop();

    const noisy = await makeUser(env.url, `noisy${stamp}`);
    const noisyRepo = `${noisy.name}/model`;
    for (let i = 0; i < NOISY_WEBHOOKS; i++)
      await hook(
        env.url,
        noisy,
        noisyRepo,
        i % 2 ? noiseRx.urls.failing : noiseRx.urls.slow,
        i % 4 === 0 ? { ordered: true } : undefined,
      );
    let noiseEvents = 0;
    const noise = (async () => {
      const t0 = wallNow();
      while (!stopNoise) {
        const wait = t0 + (noiseEvents * 1000) / NOISY_RATE - wallNow();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        await withRetries(() =>
          api(env.url, 'POST', '/admin/events', ADMIN, repoUpdateEvent(noisyRepo, noisy.id, `noise-${noiseEvents++}`)),
        ).catch(() => undefined);
      }
    })();
    // The noise first fills what it can hold (slow attempts run 10 s): measured once it has.
    await new Promise((r) => setTimeout(r, 12_000));
    await loopDelay(delivering);
    benchLoop();
    const profiledFrom = wallNow();
    await toggleProfiles(env.procs);
    const amongWindow = await victimWindow(env.url, victim, fast, 'noisy');
    await toggleProfiles(env.procs);
    const among = amongWindow.latencies;
    const loopAmong = await loopDelay(delivering);
    const benchLoopAmong = benchLoop();
    stopNoise = true;
    await noise;
    const stagesAlone = await victimStages(databaseUrl(name), ids, aloneWindow, fast);
    const stagesAmong = await victimStages(databaseUrl(name), ids, amongWindow, fast);
    const ratios = Object.fromEntries(
      Object.keys(alone).map((k) => [k, +(among[k].p99 / Math.max(1, alone[k].p99)).toFixed(2)]),
    );
    console.log(
      JSON.stringify({
        mode,
        tree: TREE === root ? 'current' : TREE,
        victimEvents: VICTIM_EVENTS,
        victimPerSecond: VICTIM_RATE,
        noisyWebhooks: NOISY_WEBHOOKS,
        noisyEventsPerSecond: NOISY_RATE,
        noisyEventsPublished: noiseEvents,
        noisyRequests: await noiseRx.counts(),
        aloneMs: alone,
        amongNoiseMs: among,
        victimStagesP50P99Ms: { alone: stagesAlone, amongNoise: stagesAmong },
        deliverersEventLoopDelayMs: { alone: loopAlone, amongNoise: loopAmong },
        benchEventLoopDelayMs: { alone: benchLoopAlone, amongNoise: benchLoopAmong },
        p99Ratio: ratios,
        within2x: Object.values(ratios).every((r) => r <= 2),
        windows: { alone: [aloneWindow.from, aloneWindow.to], among: [amongWindow.from, amongWindow.to] },
        slowestAmongNoise: slowest(amongWindow, fast),
        ...(process.env.BENCH_CPU_PROF ? { profiledFrom } : {}),
        loadAverageBefore: loadBefore,
        loadAverageAfter: load(),
      }),
    );
  } finally {
    stopNoise = true;
    await stopAll();
    await Promise.all([fast.close(), noiseRx.close()]);
    await dropDatabase(name).catch(() => undefined);
  }
}

for (const mode of MODES) await run(mode);
