// Gateway benchmark (`npm run bench:gateway`): throughput of two authenticated reads, whoami (the
// cached hot path) and an organization's members (uncached: one RPC and one query per request),
// on the all-in-one hub, the distributed gateway + services over NATS, and a bare Fastify + pg
// handler; then the latency of 1,000-credential revocations against 100,000 stored tokens. Builds the apps, starts
// everything itself, prints figures, and stops children and drops its databases even on failure.
// Not a test: it prints figures. Environment (defaults in brackets):
//   BENCH_SECONDS [10]            measured seconds of each load run
//   BENCH_WARMUP_SECONDS [2]      unmeasured load right before each load run
//   BENCH_PRIME_SECONDS [10]      unmeasured load once per setup before the first round
//   BENCH_CONNECTIONS [50]        autocannon connections
//   BENCH_ROUNDS [3]              rounds over all loads and setups; the median round is reported
//   BENCH_WORKLOADS [whoami,members] which authenticated reads to measure
//   BENCH_REVOKE_REQUESTS [200]   sequential revocations of 1,000 credentials each (0: none)
//   BENCH_REVOKE_REAL [10]        real (seeded, never sent) tokens among each request's 1,000
//   BENCH_EMBEDDED [1]            also measure the all-in-one hub on its embedded PostgreSQL (the default)
//   BENCH_ONLY                    e.g. "b,d": measure only these of a, a2, b, c, d, x
//   BENCH_QUIET_WAIT_SECONDS [120] wait this long at most for other work on the machine to stop
//   BENCH_ATTEMPTS [3]            measure again while other work disturbed a run
//   BENCH_CPU_PROF [0]            1: V8 CPU profiles of every server over its measured whoami
//                                 window, summarized (slows the servers: figures not comparable)
//   BENCH_HEAP_PROF [0]           1 (with BENCH_CPU_PROF=1): also a sampling heap profile of the same
//                                 window, every allocation counted (.heapprofile beside the .cpuprofile)
//   BENCH_HUB_MAIN [dist/apps/hub/main.js] the hub bundle (a, a') to run, e.g. a kept build for an A/B run
//   BENCH_VARIANT_MAIN, BENCH_VARIANT_NODE_OPTIONS  either set: also measure (x), the all-in-one hub
//                                 on Postgres run from another bundle (e.g. a kept build) or with
//                                 other Node flags, in the same interleaved rounds as (a): an A/B run
//   BENCH_PG_ADMIN_URL [postgres://postgres@127.0.0.1:5432/test]; the distributed run starts its own
//                                 nats-server with the hub's users and permissions (bench-nats.mjs)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureLoad, measureRevoke, NOISE_CORES, prime } from './load.mjs';
import { enableProfiling, killAllNow, stopAll } from './processes.mjs';
import { summarize } from './profile-summary.mjs';
import { printLoad, printNote, printRatios, printRevoke } from './report.mjs';
import {
  checkMembers,
  checkWhoami,
  countRevoked,
  createDatabase,
  databaseUrl,
  dropDatabase,
  postgresVersion,
  randomBase62,
  seedTokens,
  seedWhoamiUsers,
} from './seed.mjs';
import { startBare, startDistributed, startHub } from './setups.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const cfg = {
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 2),
  primeSeconds: num('BENCH_PRIME_SECONDS', 10),
  connections: num('BENCH_CONNECTIONS', 50),
  whoamiUsers: 100,
  revokeRequests: num('BENCH_REVOKE_REQUESTS', 200),
  revokeReal: num('BENCH_REVOKE_REAL', 10),
  revokeWarmup: 10,
  storedTokens: 100_000,
  tokenUsers: 1000,
  embedded: process.env.BENCH_EMBEDDED !== '0',
  quietWaitSeconds: num('BENCH_QUIET_WAIT_SECONDS', 120),
  attempts: num('BENCH_ATTEMPTS', 3),
  rounds: num('BENCH_ROUNDS', 3),
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  only: process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null,
  workloads: (process.env.BENCH_WORKLOADS || 'whoami,members').split(','),
  variant:
    process.env.BENCH_VARIANT_MAIN || process.env.BENCH_VARIANT_NODE_OPTIONS
      ? { main: process.env.BENCH_VARIANT_MAIN || undefined, nodeOptions: process.env.BENCH_VARIANT_NODE_OPTIONS }
      : null,
};
const TARGET_RATIO = 0.5;
const TARGET_REVOKE_P99_MS = 100;

const runId = randomBytes(4).toString('hex');
const busPrefix = `bench${runId}`;
const workDir = join(root, 'tmp/bench-gateway', runId);
const logDir = join(workDir, 'logs');
const profileDir = join(workDir, 'profiles');
const adminToken = `bench-admin-${randomBytes(16).toString('hex')}`;
const databases = [];
/** The distributed run's own NATS, stopped (and its store removed) at cleanup. */
let distributedNats = null;
let pgVersion = '?';

const labels = {
  a: '(a) all-in-one hub, Postgres, in-process bus',
  a2: "(a') all-in-one hub, embedded PostgreSQL (npm start)",
  b: '(b) distributed: gateway + credentials + orgs, NATS, Postgres',
  c: '(c) bare Fastify + pg, token query per request, no cache',
  d: '(d) bare Fastify + pg, 30 s token and orgs cache (like gw)',
  x: '(x) all-in-one hub, Postgres, the variant (BENCH_VARIANT_*)',
};

/**
 * The authenticated reads. whoami: the token and the user's organizations come from the
 * gateway's caches at steady state (no RPC). members: the same cached auth and org access
 * check, then one ListMembers RPC and its one query on every request; (d) runs that query
 * itself after the same cached auth.
 */
const WORKLOADS = {
  whoami: {
    title: 'GET /api/whoami-v2',
    keys: ['a', 'x', 'a2', 'b', 'c', 'd'],
    pathOf: () => () => '/api/whoami-v2',
    ratios: { tops: ['b', 'a', 'x', 'a2'], bases: ['c', 'd'], targets: { b: TARGET_RATIO } },
  },
  members: {
    title: 'GET /api/organizations/{name}/members, uncached: one RPC + one query per request',
    keys: ['a', 'x', 'a2', 'b', 'd'],
    labels: { d: '(d) bare Fastify + pg, cached token and orgs, members query' },
    pathOf: (s) => (i) => `/api/organizations/${s.orgs[i]}/members`,
    // The default mode (what npm start gives) against the bare handler: 60 % (issue 24).
    ratios: { tops: ['b', 'a', 'x', 'a2'], bases: ['d'], targets: { b: TARGET_RATIO, a2: 0.6 } },
  },
};

const want = (key) => !cfg.only || cfg.only.includes(key);
const labelOf = (workload, key) => WORKLOADS[workload].labels?.[key] ?? labels[key];

function log(message) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function freshDatabase(suffix) {
  const name = `bench_${runId}_${suffix}`;
  await createDatabase(name);
  databases.push(name);
  return databaseUrl(name);
}

/** 100,000 tokens by SQL, then the 100 whoami users through the admin API; checks one whoami. */
async function seed(url, dbUrl, tag) {
  if (dbUrl) {
    const started = Date.now();
    await seedTokens(dbUrl, { tag, users: cfg.tokenUsers, count: cfg.storedTokens });
    log(`seeded ${cfg.storedTokens} tokens of ${cfg.tokenUsers} users by SQL in ${Date.now() - started} ms`);
  }
  const { tokens, names, orgs } = await seedWhoamiUsers(url, adminToken, { tag, users: cfg.whoamiUsers });
  const me = await checkWhoami(url, tokens[0], names[0]);
  if (me.orgs.length !== 1) throw new Error(`whoami of ${names[0]} lists ${me.orgs.length} organizations, expected 1`);
  await checkMembers(url, tokens[0], orgs[0]);
  return { tokens, names, orgs };
}

async function load(workload, key, s, round) {
  const label = labelOf(workload, key);
  log(`${workload}, round ${round}/${cfg.rounds}: ${label}`);
  const { setup, tokens, dbUrl } = s;
  const r = await measureLoad({
    label,
    url: setup.url,
    tokens,
    pathOf: WORKLOADS[workload].pathOf(s),
    procs: setup.procs,
    dbUrl,
    ...cfg,
  });
  log(`  ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
  return r;
}

/** The round with the median throughput stands for the setup; the others give the spread. */
function median(runs) {
  const sorted = [...runs].sort((x, y) => x.rps - y.rps);
  return {
    ...sorted[Math.floor((sorted.length - 1) / 2)],
    rounds: runs.map((r) => ({ rps: r.rps, cpu: r.setupCpuUsPerReq })),
  };
}

async function revoke(key, setup, dbUrl, tag) {
  log(`revoke: ${labels[key]}`);
  let best;
  let expected = 0;
  for (let attempt = 1; attempt <= cfg.attempts; attempt++) {
    const r = await measureRevoke({
      label: labels[key],
      url: setup.url,
      procs: setup.procs,
      tag,
      requests: cfg.revokeRequests,
      real: cfg.revokeReal,
      warmup: cfg.revokeWarmup,
      quietWaitSeconds: cfg.quietWaitSeconds,
      offset: expected,
    });
    expected += r.revokedExpected;
    r.attempt = attempt;
    if (!best || r.cores.other < best.cores.other) best = r;
    if (r.cores.other <= NOISE_CORES) break;
    log(`  other work used ${r.cores.other.toFixed(2)} cores during attempt ${attempt}`);
  }
  best.revoked = await countRevoked(dbUrl, tag);
  best.revokedExpected = expected;
  if (best.revoked !== expected) throw new Error(`${labels[key]}: ${best.revoked} rows revoked, expected ${expected}`);
  log(`  p50 ${best.p50.toFixed(1)} ms, p99 ${best.p99.toFixed(1)} ms`);
  return best;
}

async function main() {
  mkdirSync(logDir, { recursive: true });
  pgVersion = await postgresVersion();
  if (cfg.cpuProfile) enableProfiling(profileDir);
  log(`run ${runId}, logs in ${logDir}`);
  log('building hub, gateway, credentials, organizations (Nx cache)');
  execFileSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', '-p', 'hub', 'gateway', 'credentials', 'organizations', '--outputStyle=static'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const code = codeVersion(); // what was built: others may commit while the bench runs

  // Every setup is started and seeded first, then measured in rounds (a, a', b, c, d, e, a, ...):
  // a drift of the machine's speed during the run then touches every setup alike. Idle setups
  // use next to no CPU (the "other" column would show it).
  const setups = {};
  if (want('a')) {
    // (a) all-in-one on Postgres: the same database engine as (b) and (c), so only the architecture differs.
    const dbUrl = await freshDatabase('aio');
    const tag = randomBase62(8);
    const setup = await startHub({
      root,
      logDir,
      adminToken,
      dataDir: join(workDir, 'hub-pg-data'),
      databaseUrl: dbUrl,
      name: 'hub-postgres',
    });
    setups.a = { setup, dbUrl, tag, ...(await seed(setup.url, dbUrl, tag)) };
  }
  if (cfg.variant && want('x')) {
    // (x) like (a), from another bundle or with other Node flags: an A/B run in the same rounds.
    const dbUrl = await freshDatabase('variant');
    const tag = randomBase62(8);
    const { main, nodeOptions } = cfg.variant;
    const setup = await startHub({
      root,
      logDir,
      adminToken,
      dataDir: join(workDir, 'hub-variant-data'),
      databaseUrl: dbUrl,
      name: 'hub-variant',
      main,
      nodeOptions,
    });
    setups.x = { setup, dbUrl, tag, ...(await seed(setup.url, dbUrl, tag)) };
  }
  if (cfg.embedded && want('a2')) {
    // (a') all-in-one with its default embedded PostgreSQL: what `npm start` gives.
    const setup = await startHub({
      root,
      logDir,
      adminToken,
      dataDir: join(workDir, 'hub-embedded-data'),
      name: 'hub-embedded',
    });
    setups.a2 = { setup, ...(await seed(setup.url, null, randomBase62(8))) };
  }
  {
    // (b) distributed; (c) and (d) run against its database and tokens.
    const dbUrl = await freshDatabase('dist');
    const tag = randomBase62(8);
    const setup = await startDistributed({ root, logDir, adminToken, databaseUrl: dbUrl, busPrefix });
    distributedNats = setup.nats;
    const users = await seed(setup.url, dbUrl, tag);
    if (want('b')) setups.b = { setup, dbUrl, tag, ...users };
    for (const [key, mode] of [
      ['c', 'nocache'],
      ['d', 'cache'],
    ].filter(([k]) => want(k))) {
      const bare = await startBare({ root, logDir, databaseUrl: dbUrl, mode });
      await checkWhoami(bare.url, users.tokens[0], users.names[0]);
      if (mode === 'cache') await checkMembers(bare.url, users.tokens[0], users.orgs[0]);
      setups[key] = { setup: bare, dbUrl, ...users };
    }
  }

  // (workload, setup) pairs in the order they are measured in each round.
  const pairs = cfg.workloads.flatMap((w) => WORKLOADS[w].keys.filter((k) => setups[k]).map((k) => [w, k]));
  for (const [key, s] of Object.entries(setups)) {
    log(`priming ${cfg.primeSeconds} s: ${labels[key]}`);
    for (const w of cfg.workloads.filter((w) => WORKLOADS[w].keys.includes(key))) {
      await prime({
        url: s.setup.url,
        tokens: s.tokens,
        pathOf: WORKLOADS[w].pathOf(s),
        ...cfg,
        primeSeconds: cfg.primeSeconds / cfg.workloads.length,
      });
    }
  }
  const runs = {};
  for (let round = 1; round <= cfg.rounds; round++) {
    for (const [w, key] of pairs) ((runs[w] ??= {})[key] ??= []).push(await load(w, key, setups[key], round));
  }
  const results = Object.fromEntries(
    Object.entries(runs).map(([w, byKey]) => [
      w,
      Object.fromEntries(Object.entries(byKey).map(([key, list]) => [key, median(list)])),
    ]),
  );
  const revokeResults = [];
  for (const key of ['a', 'b'].filter((k) => setups[k] && cfg.revokeRequests > 0)) {
    revokeResults.push(await revoke(key, setups[key].setup, setups[key].dbUrl, setups[key].tag));
  }
  await stopAll();

  console.log(`\n==== Gateway benchmark, run ${runId} ====`);
  const ratios = {};
  const shown = [];
  for (const w of cfg.workloads) {
    const ordered = WORKLOADS[w].keys.filter((k) => results[w]?.[k]).map((k) => results[w][k]);
    printLoad(WORKLOADS[w].title, ordered);
    ratios[w] = printRatios(results[w] ?? {}, WORKLOADS[w].ratios);
    shown.push(...ordered);
  }
  if (revokeResults.length > 0) printRevoke(revokeResults, TARGET_REVOKE_P99_MS);
  printNote(cfg, [...shown, ...revokeResults], { code, pgVersion, noise: NOISE_CORES });
  writeFileSync(
    join(workDir, 'results.json'),
    JSON.stringify({ cfg, results, ratios, revoke: revokeResults }, null, 2),
  );
  console.log(`\nraw results: ${join(workDir, 'results.json')}`);
  if (cfg.cpuProfile && existsSync(profileDir)) {
    console.log(
      '\nCPU profiles of the measured whoami windows (BENCH_CPU_PROF=1: profiling slows the servers, figures above are not comparable)',
    );
    for (const f of readdirSync(profileDir)
      .filter((n) => n.endsWith('.cpuprofile'))
      .sort())
      console.log(summarize(join(profileDir, f)));
  }
}

function codeVersion() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs') !== '';
    return `git ${git('rev-parse', '--short', 'HEAD')}${dirty ? ' plus uncommitted changes in apps/ or libs/' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

async function cleanup() {
  await stopAll().catch(() => killAllNow());
  for (const name of databases) {
    await dropDatabase(name).catch((e) => console.error(`could not drop database ${name}: ${e.message}`));
  }
  if (distributedNats) {
    await distributedNats.stop().catch((e) => console.error(`could not stop the bench's nats-server: ${e.message}`));
  }
  rmSync(join(workDir, 'hub-embedded-data'), { recursive: true, force: true });
  rmSync(join(workDir, 'hub-pg-data'), { recursive: true, force: true });
}

let cleaning = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    cleaning ??= cleanup();
    cleaning.finally(() => process.exit(130));
  });
}
process.once('exit', killAllNow);

try {
  await main();
} catch (error) {
  console.error(`\nbench failed: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  cleaning ??= cleanup();
  await cleaning;
}
