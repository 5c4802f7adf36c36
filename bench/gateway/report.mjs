// Printing: a table per authenticated read, its ratios to the bare handler, the revoke table, the note.
import { cpus, totalmem } from 'node:os';

const f0 = (n) => (n === undefined ? '-' : n.toFixed(0));
const f1 = (n) => (n === undefined ? '-' : n.toFixed(1));
const pct = (n) => `${(n * 100).toFixed(1)} %`;

const cores = (c) => ['server', 'postgres', 'nats', 'loadgen', 'other'].map((k) => c[k].toFixed(2)).join(' / ');

const ms = (n) => (n < 1 ? '<1' : String(n));

export function printLoad(title, results) {
  console.log(`\n${title} (latencies in ms; CPU in microseconds per request)`);
  console.log(
    `${'setup'.padEnd(62)} ${'req/s'.padStart(6)} ${'p50'.padStart(4)} ${'p99'.padStart(4)} ${'mean'.padStart(5)} ${'requests'.padStart(8)}` +
      ` ${'server'.padStart(6)} ${'pg'.padStart(4)} ${'nats'.padStart(4)} ${'total'.padStart(5)} ${'pg tx/req'.padStart(9)}  cores used: server / pg / nats / autocannon / other`,
  );
  for (const r of results) {
    console.log(
      `${r.label.padEnd(62)} ${f0(r.rps).padStart(6)} ${ms(r.p50).padStart(4)} ${ms(r.p99).padStart(4)} ${f1(r.mean).padStart(5)} ${String(r.total).padStart(8)}` +
        ` ${f0(r.serverCpuUsPerReq).padStart(6)} ${f0(r.postgresCpuUsPerReq).padStart(4)} ${f0(r.natsCpuUsPerReq).padStart(4)} ${f0(r.setupCpuUsPerReq).padStart(5)}` +
        ` ${(r.pgTransactionsPerReq === undefined ? '-' : r.pgTransactionsPerReq.toFixed(2)).padStart(9)}  ${cores(r.cores)}`,
    );
  }
  console.log(
    `  req/s in each round: ${results.map((r) => `${r.label.split(' ')[0]} ${r.rounds.map((x) => x.rps.toFixed(0)).join(', ')}`).join('; ')}`,
  );
  for (const r of results) {
    const parts = Object.entries(r.serverUsPerReqByProcess);
    if (parts.length > 1)
      console.log(
        `  ${r.label.split(' ')[0]} server CPU us/req by process: ${parts.map(([n, us]) => `${n} ${us}`).join(', ')}`,
      );
  }
}

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)];

/**
 * Ratios of the hub setups to the bare ones, taken round by round (measurements close in time)
 * and then the median: throughput (what the target is about) and capacity (CPU us/req of the
 * bare setup / the hub setup: what is left when the load generator is not the limit).
 */
export function printRatios(byKey, { tops, bases, targets }) {
  console.log(
    'Ratios to the bare handler, median of the per-round ratios [range]: throughput (req/s) and capacity (CPU us/req)',
  );
  const rows = [];
  for (const top of tops) {
    for (const base of bases) {
      const t = byKey[top];
      const b = byKey[base];
      if (!t || !b) continue;
      const per = t.rounds.map((x, i) => ({ ratio: x.rps / b.rounds[i].rps, capacity: b.rounds[i].cpu / x.cpu }));
      const ratio = median(per.map((p) => p.ratio));
      const capacity = median(per.map((p) => p.capacity));
      const range = (k) => `[${pct(Math.min(...per.map((p) => p[k])))}..${pct(Math.max(...per.map((p) => p[k])))}]`;
      const target = targets[top];
      const verdict =
        target === undefined ? '' : `  target throughput >= ${pct(target)}: ${ratio >= target ? 'met' : 'NOT met'}`;
      rows.push({ top, base, ratio, capacity, per });
      console.log(
        `  ${`(${top}) / (${base})`.padEnd(10)} throughput ${pct(ratio).padStart(7)} ${range('ratio').padEnd(18)} capacity ${pct(capacity).padStart(7)} ${range('capacity').padEnd(18)}${verdict}`,
      );
    }
  }
  return rows;
}

export function printRevoke(results, targetMs) {
  console.log('\nPOST /api/credentials/revoke, 1,000 credentials per request, 100,000 tokens stored');
  console.log(
    `${'setup'.padEnd(62)} ${'requests'.padStart(8)} ${'real/req'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}` +
      ` ${'max ms'.padStart(7)} ${'mean ms'.padStart(8)} ${'rows revoked'.padStart(13)}  ${`p99 <= ${targetMs} ms`.padStart(13)}  cores used: server / pg / nats / client / other`,
  );
  for (const r of results) {
    console.log(
      `${r.label.padEnd(62)} ${String(r.requests).padStart(8)} ${String(r.realPerRequest).padStart(8)} ${f1(r.p50).padStart(7)} ${f1(r.p99).padStart(7)}` +
        ` ${f1(r.max).padStart(7)} ${f1(r.mean).padStart(8)} ${`${r.revoked}/${r.revokedExpected}`.padStart(13)}  ${(r.p99 <= targetMs ? 'met' : 'NOT met').padStart(13)}  ${cores(r.cores)}`,
    );
  }
}

function wrap(text, width = 100) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The "how measured" paragraph, and a warning when other work disturbed a measurement. */
export function printNote(cfg, results, { code, pgVersion, noise }) {
  const cpu = cpus();
  const text = `How measured: code at ${code}; node ${process.version} on ${cpu.length} cores (${cpu[0]?.model.trim()}),
    ${Math.round(totalmem() / 2 ** 30)} GiB; PostgreSQL ${pgVersion} and NATS (JetStream) already running on the same machine.
    Each server under test runs in its own child process(es); all are started first and primed with ${cfg.primeSeconds} s of
    unmeasured load each (JIT, pools, caches at steady state), then measured one at a time in ${cfg.rounds} rounds
    (whoami on a, a', b, c, d, then members on a, a', b, d, then whoami on a, ...); the round with the median req/s is shown. autocannon 9 runs inside the bench process
    itself, so the load generator, the servers, Postgres and NATS all share the same 2 cores. "cores used" splits the
    CPU time of the measured window (read from /proc) into the setup's own Node processes, Postgres, NATS, the bench
    process (autocannon or the revoke client) and anything else on the machine; the columns server, pg, nats and total
    are CPU microseconds per request (total: setup processes + Postgres + NATS, load generator excluded) and the
    capacity ratio compares those totals. Before each measurement the bench waits (at most ${cfg.quietWaitSeconds} s) for other
    work on the machine to stop, and measures again (at most ${cfg.attempts} times) when other work used more than ${noise} core
    during the run, keeping the least disturbed run. whoami: ${cfg.connections} connections, ${cfg.warmupSeconds} s warm-up then ${cfg.seconds} s
    measured; each request carries the next of ${cfg.whoamiUsers} write tokens (${cfg.whoamiUsers} users made through the admin API, one
    organization membership each), so every cache holds ${cfg.whoamiUsers} entries; every request was checked to be 2xx. (a) uses
    a fresh Postgres database (DATABASE_URL) so it differs from (b) only by architecture; (a') is the default embedded
    PostgreSQL (its own cluster under HUB_DATA_DIR, reached on a Unix socket; its CPU counts as Postgres). (c) runs the token query on every request and answers no organizations; (d) keeps the
    verified token and the user's organizations 30 s, as the gateway does (HUB_AUTH_CACHE_TTL_MS), so the ratio to (d)
    is like for like; "pg tx/req" shows the database work each setup really did per request. members: the same
    tokens, each asking for its own organization's 10 members; auth and the membership check come from those caches in
    every setup, then the gateway makes one ListMembers RPC whose handler runs one query, and (d) runs that same query
    itself: the ratio is the cost of an RPC.
    Rate limits were raised so no request was refused. revoke: ${cfg.revokeRequests} requests one after the other (after
    ${cfg.revokeWarmup} warm-up), each of 1,000 credentials: ${cfg.revokeReal} real seeded tokens never sent before plus unknown random
    tokens; ${cfg.storedTokens.toLocaleString('en')} tokens of ${cfg.tokenUsers} users seeded by SQL; latency from the client (request sent to answer
    read, one keep-alive connection); the revoked rows were counted afterwards.`;
  console.log(`\n${wrap(text)}`);
  const noisy = results.filter((r) => r.cores.other > noise);
  if (noisy.length > 0) {
    console.log(
      `\nWARNING: other work used the machine during: ${noisy.map((r) => r.label.split(' ')[0]).join(', ')} (see "other"); those figures are low.`,
    );
  }
}
