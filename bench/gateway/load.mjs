// The load: autocannon on an authenticated GET (whoami, or an organization's members) with
// rotating tokens, and a sequential loop of POST /api/credentials/revoke with 1,000 credentials
// each. Both run in the bench's own process.
import autocannon from 'autocannon';
import { assertRunning, cpuAccount, toggleProfiles, waitQuiet } from './processes.mjs';
import { randomBase62, seededToken, transactions } from './seed.mjs';
import { setTimeout as sleep } from 'node:timers/promises';

/** `pathOf(i)`: the path requested with token i (whoami: always the same; members: token i's organization). */
function cannon(url, tokens, pathOf, connections, seconds) {
  let next = 0;
  return autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path: pathOf(0),
        // A different token on every request, round robin over all of them.
        setupRequest: (req) => {
          const i = next++ % tokens.length;
          return { ...req, path: pathOf(i), headers: { ...req.headers, authorization: `Bearer ${tokens[i]}` } };
        },
      },
    ],
  });
}

/**
 * Warm-up, then the measured run. CPU time of the server's processes, of this process
 * (autocannon) and of the whole machine is read around the measured window.
 */
async function measureLoadOnce({
  label,
  url,
  tokens,
  pathOf,
  procs,
  dbUrl,
  connections,
  seconds,
  warmupSeconds,
  quietWaitSeconds,
}) {
  await waitQuiet(quietWaitSeconds);
  if (warmupSeconds > 0) await cannon(url, tokens, pathOf, connections, warmupSeconds);
  await toggleProfiles(procs);
  const xactsBefore = dbUrl ? await transactions(dbUrl) : 0;
  const account = cpuAccount(procs);
  const r = await cannon(url, tokens, pathOf, connections, seconds);
  const cpu = account();
  await sleep(1100); // Postgres publishes its statistics at most once a second
  const xacts = dbUrl ? (await transactions(dbUrl)) - xactsBefore : undefined;
  await toggleProfiles(procs);
  assertRunning(procs);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) {
    throw new Error(
      `${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}: not measuring what it claims`,
    );
  }
  return {
    label,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.average,
    total: r.requests.total,
    serverCpuUsPerReq: (cpu.ms.server * 1000) / r.requests.total,
    postgresCpuUsPerReq: (cpu.ms.postgres * 1000) / r.requests.total,
    natsCpuUsPerReq: (cpu.ms.nats * 1000) / r.requests.total,
    pgTransactionsPerReq: xacts === undefined ? undefined : xacts / r.requests.total,
    // What one request costs the setup, load generator excluded: its processes, Postgres, NATS.
    setupCpuUsPerReq: ((cpu.ms.server + cpu.ms.postgres + cpu.ms.nats) * 1000) / r.requests.total,
    serverUsPerReqByProcess: Object.fromEntries(
      Object.entries(cpu.byServer).map(([name, ms]) => [name, Math.round((ms * 1000) / r.requests.total)]),
    ),
    cores: cpu.cores,
  };
}

/** Unmeasured load so the JIT, pools and caches of a freshly started server reach steady state. */
export async function prime({ url, tokens, pathOf, connections, primeSeconds }) {
  if (primeSeconds > 0) await cannon(url, tokens, pathOf, connections, primeSeconds);
}

/** Other work on the machine above this (in cores) during a measurement makes it count as noisy. */
export const NOISE_CORES = 0.15;

/**
 * Measures again (up to `attempts` times) while other work on the machine used more than
 * NOISE_CORES during the run; keeps the run with the least other work.
 */
export async function measureLoad(options) {
  let best;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    const r = { ...(await measureLoadOnce(options)), attempt };
    if (!best || r.cores.other < best.cores.other) best = r;
    if (r.cores.other <= NOISE_CORES) break;
    console.log(`  other work used ${r.cores.other.toFixed(2)} cores during attempt ${attempt}`);
  }
  return best;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * `requests` revocations one after the other, each of 1,000 credentials: `real` seeded tokens
 * never sent before (so each request really revokes rows) and the rest unknown random tokens.
 * Bodies are built before the clock starts; latency is request sent to answer read. `offset`:
 * the first seeded token this call may use (a repeated measurement needs fresh ones).
 */
export async function measureRevoke({
  label,
  url,
  procs,
  tag,
  requests,
  real,
  warmup,
  quietWaitSeconds,
  offset = 0,
  perRequest = 1000,
}) {
  const body = (k) => {
    const credentials = [];
    for (let j = 0; j < real; j++) credentials.push(seededToken(tag, offset + k * real + j));
    while (credentials.length < perRequest) credentials.push(`hf_${randomBase62(34)}`);
    return JSON.stringify({ credentials });
  };
  const send = async (payload) => {
    const started = performance.now();
    const res = await fetch(`${url}/api/credentials/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 202) throw new Error(`${label}: revoke answered ${res.status}`);
    return ms;
  };
  // Warm-up requests use their own range of real tokens, after the measured ones.
  for (let k = 0; k < warmup; k++) await send(body(requests + k));
  const payloads = Array.from({ length: requests }, (_, k) => body(k));
  await waitQuiet(quietWaitSeconds);
  const account = cpuAccount(procs);
  const latencies = [];
  for (const payload of payloads) {
    try {
      latencies.push(await send(payload));
    } catch (error) {
      assertRunning(procs); // a dead server says so rather than "fetch failed"
      throw error;
    }
  }
  const cpu = account();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    label,
    requests,
    realPerRequest: real,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
    mean: latencies.reduce((a, b) => a + b, 0) / latencies.length,
    revokedExpected: (requests + warmup) * real,
    cores: cpu.cores,
  };
}
