import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/notif_profile' });
await c.connect();
const hex24 = (n) => n.toString(16).padStart(24, '0');
const users = Array.from({ length: 20 }, (_, i) => hex24(0xb0000000 + i * 37));
const OLD = (where, join, off) => `WITH f AS MATERIALIZED (
  SELECT n.thread_id, n.read, n.updated_at, n.discussion_event_id, (${where}) AS in_view FROM notifications.notifications n ${join} WHERE n.user_id = $1),
  c AS (SELECT count(*) FILTER (WHERE in_view) AS view, count(*) FILTER (WHERE NOT read) AS unread, count(*) AS total FROM f)
  SELECT c.view, c.unread, c.total, t.type, t.item, t.participants, p.read, to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, p.discussion_event_id
  FROM c LEFT JOIN LATERAL (SELECT * FROM f WHERE in_view AND ${off}::bigint < c.view ORDER BY updated_at DESC, thread_id DESC LIMIT 20 OFFSET ${off}::bigint) p ON true
  LEFT JOIN notifications.threads t ON t.id = p.thread_id ORDER BY p.updated_at DESC, p.thread_id DESC`;
const NEW = (from, view, off) => `WITH c AS MATERIALIZED (
  SELECT s.version, s.changed_at, coalesce(s.total, 0) AS total, coalesce(s.unread, 0) AS unread, ${view} AS view
  FROM (SELECT $1::bpchar AS user_id) u LEFT JOIN notifications.inbox_state s ON s.user_id = u.user_id)
  SELECT c.version, c.changed_at, c.total, c.unread, c.view, t.type, t.item, t.participants, p.read, p.discussion_event_id,
  to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
  FROM c LEFT JOIN LATERAL (SELECT n.thread_id, n.read, n.updated_at, n.discussion_event_id FROM ${from} AND ${off}::bigint < c.view
  ORDER BY n.updated_at DESC, n.thread_id DESC LIMIT 20 OFFSET ${off}::bigint) p ON true
  LEFT JOIN notifications.threads t ON t.id = p.thread_id ORDER BY p.updated_at DESC, p.thread_id DESC`;
const filt = "NOT n.read AND (t.type = 'repo' AND t.repo_type = 'model') AND ($1::bpchar = ANY(t.participant_ids))";
const fromF = `notifications.notifications n JOIN notifications.threads t ON t.id = n.thread_id WHERE n.user_id = $1 AND ${filt}`;
const cases = [
  ['first page', OLD('true', '', 0), NEW('notifications.notifications n WHERE n.user_id = $1 AND true', 'coalesce(s.total, 0)', 0)],
  ['deep page p=40', OLD('true', '', 800), NEW('notifications.notifications n WHERE n.user_id = $1 AND true', 'coalesce(s.total, 0)', 800)],
  ['filtered', OLD(filt, 'JOIN notifications.threads t ON t.id = n.thread_id', 0), NEW(fromF, `(SELECT count(*) FROM ${fromF})`, 0)],
];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const N = Number(process.env.N ?? 300);
const explain = async (sql, u) => {
  const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${sql}`, [u]);
  const plan = r.rows[0]['QUERY PLAN'][0];
  return { exec: plan['Execution Time'], plan: plan['Planning Time'], buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'] };
};
for (const [label, oldSql, newSql] of cases) {
  const o = [], n = [];
  for (let i = 0; i < N; i++) {
    const u = users[i % users.length];
    o.push(await explain(oldSql, u)); n.push(await explain(newSql, u));
  }
  const f = (xs, k) => `${pct(xs.map((x) => x[k]), 50).toFixed(2)}`;
  console.log(`${label.padEnd(16)} old: exec ${f(o, 'exec')} ms + plan ${f(o, 'plan')} ms, ${f(o, 'buffers')} buffers | new: exec ${f(n, 'exec')} ms (+ plan ${f(n, 'plan')} ms, once per connection when prepared), ${f(n, 'buffers')} buffers`);
}
// 304 poll: the primary-key read (prepared), as before and now.
{
  const xs = [];
  for (let i = 0; i < N; i++) { const t0 = performance.now(); await c.query({ name: 'state', text: 'SELECT version, changed_at FROM notifications.inbox_state WHERE user_id = $1', values: [users[i % 20]] }); xs.push(performance.now() - t0); }
  console.log(`304 state read     p50 ${pct(xs, 50).toFixed(2)} p99 ${pct(xs, 99).toFixed(2)} ms`);
}
// mark-all on the 10,000-item inbox: with the counting trigger vs the old explicit version bump (trigger disabled).
const big = hex24(0xbb000000);
const mark = async (trigger, read) => {
  const t0 = performance.now();
  await c.query('BEGIN');
  const r = await c.query('UPDATE notifications.notifications n SET read = $2 WHERE n.user_id = $1 AND n.read <> $2 AND true', [big, read]);
  if (!trigger) await c.query(`INSERT INTO notifications.inbox_state (user_id, version, changed_at) VALUES ($1, 1, now()) ON CONFLICT (user_id) DO UPDATE SET version = notifications.inbox_state.version + 1, changed_at = now()`, [big]);
  await c.query('COMMIT');
  return [performance.now() - t0, r.rowCount];
};
const M = Number(process.env.M ?? 10);
const withT = [], without = [];
let read = (await c.query('SELECT bool_and(read) AS r FROM notifications.notifications WHERE user_id = $1', [big])).rows[0].r;
for (let i = 0; i < M; i++) {
  read = !read;
  withT.push((await mark(true, read))[0]);
  await c.query('ALTER TABLE notifications.notifications DISABLE TRIGGER inbox_counts_update');
  read = !read;
  without.push((await mark(false, read))[0]);
  await c.query('ALTER TABLE notifications.notifications ENABLE TRIGGER inbox_counts_update');
}
console.log(`mark-all 10k rows  with trigger p50 ${pct(withT, 50).toFixed(1)} p99 ${pct(withT, 99).toFixed(1)} | explicit bump p50 ${pct(without, 50).toFixed(1)} p99 ${pct(without, 99).toFixed(1)} ms`);
const s = (await c.query('SELECT total, unread FROM notifications.inbox_state WHERE user_id = $1', [big])).rows[0];
const real = (await c.query('SELECT count(*) AS total, count(*) FILTER (WHERE NOT read) AS unread FROM notifications.notifications WHERE user_id = $1', [big])).rows[0];
console.log('big inbox counts row', s, 'recount', real);
await c.end();
