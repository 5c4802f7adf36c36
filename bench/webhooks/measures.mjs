// The figures of a bench:webhooks run (run.mjs) that do not depend on the machine's load: the run
// database's transactions, row versions and backends' CPU, the deliverer's memory, the stages of a
// delivery from the rows the service keeps.
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** A connection to the run's database for one measure, always closed. */
async function withClient(dbUrl, work) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

export function rssMb(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
}

export async function statements(dbUrl) {
  return withClient(dbUrl, async (c) => {
    const r = await c.query(
      'SELECT xact_commit + xact_rollback AS x, tup_inserted + tup_updated + tup_deleted AS w FROM pg_stat_database WHERE datname = current_database()',
    );
    return { xacts: Number(r.rows[0].x), writes: Number(r.rows[0].w) };
  });
}

/** CPU ms of each Postgres backend serving the run's database (other sessions' Postgres work left out), by pid. */
export async function backendCpu(dbUrl) {
  return withClient(dbUrl, async (c) => {
    const r = await c.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const out = new Map();
    for (const { pid } of r.rows) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
      } catch {
        // gone meanwhile
      }
    }
    return out;
  });
}

/** CPU ms the run's own backends used between two backendCpu samples (a backend new since the first counts whole). */
export function backendDelta(before, after) {
  let ms = 0;
  for (const [pid, at] of after) ms += at - (before.get(pid) ?? 0);
  return ms;
}

/** Row versions written per table of the webhooks schema (HOT updates add no index entries). */
export async function tableWrites(dbUrl) {
  return withClient(dbUrl, async (c) => {
    await new Promise((r) => setTimeout(r, 1000)); // the statistics reach the view within a second
    const r = await c.query(
      `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del FROM pg_stat_user_tables WHERE schemaname = 'webhooks' AND n_tup_ins + n_tup_upd + n_tup_del > 0`,
    );
    return Object.fromEntries(r.rows.map((x) => [x.relname, `ins ${x.ins} upd ${x.upd} (hot ${x.hot}) del ${x.del}`]));
  });
}

export async function failedAttempts(dbUrl) {
  return withClient(dbUrl, async (c) => {
    const r =
      await c.query(`SELECT coalesce(error, 'HTTP ' || status) AS why, count(*)::int AS n FROM webhooks.delivery_logs
    WHERE status IS NULL OR status >= 300 GROUP BY 1 ORDER BY 2 DESC LIMIT 3`);
    return Object.fromEntries(r.rows.map((x) => [x.why.slice(0, 80), x.n]));
  });
}

/**
 * Where the time goes, per delivery, from the rows the service keeps: published (request sent) →
 * accepted (202, the bus has it) → queued (the delivery row's created_at: intake done) → received
 * (first receipt) → logged (the outcome statement's now()). p50/p99 of each step, in ms.
 */
export async function stages(dbUrl, published, accepted, seen) {
  return withClient(dbUrl, async (c) => {
    // The logs aggregated once and joined (a subquery per delivery scans the logs each time: hours at 200,000).
    const r =
      await c.query(`SELECT d.webhook_id, d.payload::json->'event'->>'action' AS action, extract(epoch from d.created_at) * 1000 AS queued,
      extract(epoch from l.first_at) * 1000 AS logged, l.attempt
    FROM webhooks.deliveries d
    LEFT JOIN (SELECT delivery_id, min(created_at) AS first_at, min(duration_ms) AS attempt FROM webhooks.delivery_logs GROUP BY delivery_id) l
      ON l.delivery_id = d.id`);
    const steps = { accept: [], intake: [], deliver: [], record: [], attempt: [] };
    for (const row of r.rows) {
      const sent = published.get(row.action);
      const got = seen.get(`${row.action}|${row.webhook_id}`);
      if (sent === undefined || got === undefined) continue;
      steps.accept.push(accepted.get(row.action) - sent);
      steps.intake.push(Number(row.queued) - sent);
      steps.deliver.push(got - Number(row.queued));
      if (row.logged !== null) steps.record.push(Number(row.logged) - got);
      if (row.attempt !== null) steps.attempt.push(Number(row.attempt));
    }
    const pct = (xs) => {
      xs.sort((a, b) => a - b);
      const q = (p) => Math.round(xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN);
      return `${q(0.5)}/${q(0.99)}`;
    };
    return {
      publishToAccepted: pct(steps.accept),
      publishToQueued: pct(steps.intake),
      queuedToReceived: pct(steps.deliver),
      attemptDuration: pct(steps.attempt),
      receivedToLogged: pct(steps.record),
    };
  });
}
