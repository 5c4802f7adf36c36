import { type EntityManager } from 'typeorm';
import { type RecoveryView } from '@hub/webhooks-contract';
import { lockForTransaction } from '@hub/persistence';
import { rowsOf } from '../delivery/rows';
import { RecoveryNotFoundError } from './recoveries.errors';

export interface RecoveryRow {
  id: string;
  webhook_id: string;
  since: Date;
  until: Date;
  state: 'running' | 'done';
  queued: number;
  sent: number;
  succeeded: number;
  failed: number;
  skipped: number;
  created_at: Date;
  finished_at: Date | null;
}

const ID = /^[0-9a-f]{24}$/;

/**
 * Bulk recovery (decision 0502). A recovery marks the deliveries that failed (retries spent) or were
 * dropped (the webhook was disabled or suspended meanwhile), queued or attempted in its window, and puts them back in the queue
 * with its id; the worker sends each once (no retry schedule). Its counts are read from those rows
 * while any is pending, then kept in its row, so a later recovery of the same deliveries does not
 * change them; one recovery runs per webhook at a time.
 *
 * Bounded (issue 43, decision 0505), so a receiver that keeps failing does not turn recoveries into
 * an amplifier: at most HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR started per webhook per hour; what a
 * recovery queues counts against HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY (it queues at most what is left);
 * and a delivery a recovery resent within HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS is left out (the
 * answer's `skipped`), so recoveries of overlapping windows send each failure once per cool-down.
 */
export const RecoveryStore = {
  /** Held until the caller's transaction ends: two recoveries of one webhook start one after the other. */
  async lock(m: EntityManager, webhookId: string): Promise<void> {
    await lockForTransaction(m, `webhooks.recovery:${webhookId}`);
  },

  running(m: EntityManager, webhookId: string): Promise<RecoveryRow[]> {
    return m.query(`SELECT * FROM webhooks.recoveries WHERE webhook_id = $1 AND state = 'running'`, [webhookId]);
  },

  /** Recoveries of the webhook started in the last hour, and in how many seconds the oldest of them is an hour old. */
  async startedInLastHour(m: EntityManager, webhookId: string): Promise<{ n: number; retry_in: number | null }> {
    const [started] = (await m.query(
      `SELECT count(*)::int AS n, ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::int AS retry_in
         FROM webhooks.recoveries WHERE webhook_id = $1 AND created_at > now() - interval '1 hour'`,
      [webhookId],
    )) as { n: number; retry_in: number | null }[];
    return started;
  },

  /** Deliveries queued for the webhook in the last 24 hours (its trigger counts). */
  async triggersUsed(m: EntityManager, webhookId: string): Promise<number> {
    const [{ used }] = (await m.query(
      `SELECT COALESCE(sum(count), 0)::int AS used FROM webhooks.trigger_counts
         WHERE webhook_id = $1 AND hour > date_trunc('hour', now()) - interval '24 hours'`,
      [webhookId],
    )) as { used: number }[];
    return used;
  },

  /**
   * The window's failed and dropped deliveries, at most `limit`, back in the queue with recovery
   * `id`, in event order a millisecond apart (the queue, ordered by due_at, sends them in that
   * order), counted as triggers; those a recovery resent within `cooldownSeconds` left out (`skipped`).
   */
  async requeue(
    m: EntityManager,
    r: { webhookId: string; since: Date; until: Date; limit: number; id: string; cooldownSeconds: number },
  ): Promise<{ n: number; skipped: number }> {
    const [counts] = (await m.query(
      `WITH window_failed AS (
           SELECT d.id, d.created_at,
                  EXISTS (SELECT 1 FROM webhooks.recoveries r WHERE r.id = d.recovery_id
                          AND r.created_at > now() - make_interval(secs => $6::float8)) AS cooling
           FROM webhooks.deliveries d
           WHERE d.webhook_id = $1 AND d.state IN ('failed', 'dropped')
             AND ((d.created_at >= $2 AND d.created_at < $3)
                  OR EXISTS (SELECT 1 FROM webhooks.delivery_logs l WHERE l.delivery_id = d.id AND l.created_at >= $2 AND l.created_at < $3))),
         picked AS (
           SELECT w.id, row_number() OVER (ORDER BY w.created_at, w.id) AS k FROM window_failed w
           WHERE NOT w.cooling ORDER BY w.created_at, w.id LIMIT $4),
         requeued AS (
           UPDATE webhooks.deliveries d SET state = 'pending', recovery_id = $5, lease_until = NULL, due_at = now() + make_interval(secs => p.k / 1000.0),
             paced = EXISTS (SELECT 1 FROM webhooks.delivery_options o WHERE o.webhook_id = d.webhook_id AND (o.max_per_second IS NOT NULL OR o.ordered))
           FROM picked p WHERE d.id = p.id RETURNING d.id),
         counted AS (
           INSERT INTO webhooks.trigger_counts (webhook_id, hour, count)
           SELECT $1, date_trunc('hour', now()), count(*) FROM requeued HAVING count(*) > 0
           ON CONFLICT (webhook_id, hour) DO UPDATE SET count = webhooks.trigger_counts.count + EXCLUDED.count)
         SELECT (SELECT count(*)::int FROM requeued) AS n, (SELECT count(*)::int FROM window_failed WHERE cooling) AS skipped`,
      [r.webhookId, r.since, r.until, r.limit, r.id, r.cooldownSeconds],
    )) as { n: number; skipped: number }[];
    return counts;
  },

  async insert(
    m: EntityManager,
    r: { id: string; webhookId: string; since: Date; until: Date; queued: number; skipped: number },
  ): Promise<RecoveryRow> {
    const n = r.queued;
    await m.query(
      `INSERT INTO webhooks.recoveries (id, webhook_id, since, until, queued, skipped, state, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [r.id, r.webhookId, r.since, r.until, n, r.skipped, n === 0 ? 'done' : 'running', n === 0 ? new Date() : null],
    );
    return (await m.query(`SELECT * FROM webhooks.recoveries WHERE id = $1`, [r.id]))[0] as RecoveryRow;
  },

  async get(m: EntityManager, webhookId: string, id: string): Promise<RecoveryRow> {
    const rows: RecoveryRow[] = ID.test(id)
      ? await m.query(`SELECT * FROM webhooks.recoveries WHERE id = $1 AND webhook_id = $2`, [id, webhookId])
      : [];
    if (!rows[0]) throw new RecoveryNotFoundError(id);
    return rows[0];
  },

  /** The states of a recovery's deliveries, counted. */
  async counts(m: EntityManager, id: string): Promise<{ pending: number; succeeded: number; failed: number }> {
    const [c] = (await m.query(
      `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending, count(*) FILTER (WHERE state = 'delivered')::int AS succeeded,
              count(*) FILTER (WHERE state IN ('failed', 'dropped'))::int AS failed
       FROM webhooks.deliveries WHERE recovery_id = $1`,
      [id],
    )) as { pending: number; succeeded: number; failed: number }[];
    return c;
  },

  /** A running recovery done, its counts kept; undefined when it was not running any more. */
  async finish(
    m: EntityManager,
    id: string,
    c: { sent: number; succeeded: number; failed: number },
  ): Promise<RecoveryRow | undefined> {
    const done = rowsOf<RecoveryRow>(
      await m.query(
        `UPDATE webhooks.recoveries SET state = 'done', sent = $2, succeeded = $3, failed = $4, finished_at = now() WHERE id = $1 AND state = 'running' RETURNING *`,
        [id, c.sent, c.succeeded, c.failed],
      ),
    );
    return done[0];
  },
};

/** The answer of a recovery row. */
export function toRecoveryView(r: RecoveryRow): RecoveryView {
  const v: RecoveryView = {
    id: r.id,
    state: r.state,
    since: new Date(r.since).toISOString(),
    until: new Date(r.until).toISOString(),
    queued: r.queued,
    sent: r.sent,
    succeeded: r.succeeded,
    failed: r.failed,
    skipped: r.skipped,
    createdAt: new Date(r.created_at).toISOString(),
  };
  if (r.finished_at) v.finishedAt = new Date(r.finished_at).toISOString();
  return v;
}
