// The comparison baseline of bench:webhooks (issue 40 item 4): the simplest correct sender on the
// same hardware, against which the hub's figures are ratios. A queue table, a claim, one POST, one
// outcome write, nothing else: `POST /admin/events` (the hub's body) queues one row per webhook
// (BENCH_WEBHOOKS of them, ids 1…W) in one statement before it answers 202; a loop claims due rows
// (FOR UPDATE SKIP LOCKED under a lease, so a crash loses nothing), POSTs each (keep-alive), and
// marks it delivered, or due again in a second. No matching, signing, log, counters, fairness,
// options or bus. Started by run.mjs as the `minimal` mode; settings from its environment.
import { createServer, request, Agent } from 'node:http';
import pg from 'pg';

const W = Number(process.env.BENCH_WEBHOOKS ?? 10);
const CONCURRENCY = 128;
const TARGET = new URL(process.env.MINIMAL_TARGET);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

await pool.query(`CREATE SCHEMA IF NOT EXISTS webhooks;
  CREATE TABLE IF NOT EXISTS webhooks.deliveries (
    id bigserial PRIMARY KEY, event_id text NOT NULL, webhook_id text NOT NULL, payload text NOT NULL,
    state text NOT NULL DEFAULT 'pending', due_at timestamptz NOT NULL DEFAULT now(), lease_until timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (event_id, webhook_id));
  CREATE INDEX IF NOT EXISTS deliveries_due ON webhooks.deliveries (due_at) WHERE state = 'pending';`);

let inFlight = 0;
let poked = false;
let wake = () => undefined;
const poke = () => {
  poked = true;
  wake();
};

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    if (req.url === '/health/ready') return res.writeHead(200).end('ok');
    try {
      const { payload } = JSON.parse(Buffer.concat(chunks).toString());
      const event = JSON.stringify(payload);
      await pool.query(
        `INSERT INTO webhooks.deliveries (event_id, webhook_id, payload)
         SELECT $1, w::text, $2 FROM generate_series(1, $3) w ON CONFLICT DO NOTHING`,
        [payload.event.action, event, W],
      );
      res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
      poke();
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
}).listen(Number(process.env.PORT), '127.0.0.1');

function post(body) {
  return new Promise((resolve) => {
    const req = request(
      TARGET,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' }, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode >= 200 && res.statusCode < 300));
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

async function deliver(row) {
  const event = JSON.parse(row.payload);
  const ok = await post(JSON.stringify({ ...event, webhook: { id: row.webhook_id } }));
  await pool.query(
    ok
      ? `UPDATE webhooks.deliveries SET state = 'delivered', lease_until = NULL WHERE id = $1`
      : `UPDATE webhooks.deliveries SET due_at = now() + interval '1 second', lease_until = NULL WHERE id = $1`,
    [row.id],
  );
}

for (;;) {
  poked = false;
  const room = CONCURRENCY - inFlight;
  let claimed = [];
  if (room > 0)
    claimed = (
      await pool.query(
        `UPDATE webhooks.deliveries d SET lease_until = now() + interval '30 seconds'
         WHERE d.id IN (SELECT id FROM webhooks.deliveries WHERE state = 'pending' AND due_at <= now()
                          AND (lease_until IS NULL OR lease_until < now())
                        ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING d.id, d.webhook_id, d.payload`,
        [room],
      )
    ).rows;
  for (const row of claimed) {
    inFlight++;
    void deliver(row)
      .catch(() => undefined)
      .finally(() => {
        inFlight--;
        wake();
      });
  }
  if (poked || (room > 0 && claimed.length === room)) continue;
  await new Promise((resolve) => {
    const t = setTimeout(resolve, 250);
    wake = () => {
      clearTimeout(t);
      resolve();
    };
  });
  wake = () => undefined;
}
