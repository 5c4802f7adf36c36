import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { MAX_RECOVERY_DELIVERIES, type RecoveryView } from '@hub/webhooks-contract';
import { lockForTransaction, newObjectId } from '@hub/persistence';
import { rowsOf } from '../delivery/rows';
import { type WebhooksConfig } from '../webhooks.config';
import { WEBHOOKS_CONFIG, WEBHOOKS_DS } from '../webhooks.di';
import {
  RecoveriesPerHourError,
  RecoveryNotFoundError,
  RecoveryRunningError,
  RecoveryTriggerLimitError,
  RecoveryWindowError,
} from './recoveries.errors';

interface RecoveryRow {
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
@Injectable()
export class RecoveryStore {
  constructor(
    @InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async start(webhookId: string, since: Date, until: Date): Promise<RecoveryView> {
    if (!(since < until)) throw new RecoveryWindowError();
    return this.ds.transaction(async (m) => {
      // Two recoveries of one webhook started at once: one after the other, the second sees the first.
      await lockForTransaction(m, `webhooks.recovery:${webhookId}`);
      const running: RecoveryRow[] = await m.query(
        `SELECT * FROM webhooks.recoveries WHERE webhook_id = $1 AND state = 'running'`,
        [webhookId],
      );
      for (const r of running) {
        if ((await this.refresh(m, r)).state === 'running') throw new RecoveryRunningError(r.id);
      }
      const c = this.config;
      const [started] = (await m.query(
        `SELECT count(*)::int AS n, ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::int AS retry_in
         FROM webhooks.recoveries WHERE webhook_id = $1 AND created_at > now() - interval '1 hour'`,
        [webhookId],
      )) as { n: number; retry_in: number | null }[];
      if (started.n >= c.HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR)
        throw new RecoveriesPerHourError(c.HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR, Math.max(1, started.retry_in ?? 1));
      const [{ used }] = (await m.query(
        `SELECT COALESCE(sum(count), 0)::int AS used FROM webhooks.trigger_counts
         WHERE webhook_id = $1 AND hour > date_trunc('hour', now()) - interval '24 hours'`,
        [webhookId],
      )) as { used: number }[];
      const left = c.HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY - used;
      if (left <= 0) throw new RecoveryTriggerLimitError(c.HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY);
      const id = newObjectId();
      // In event order, a millisecond apart, so the queue (ordered by due_at) sends them in that order.
      const [{ n, skipped }] = (await m.query(
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
        [webhookId, since, until, Math.min(MAX_RECOVERY_DELIVERIES, left), id, c.HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS],
      )) as { n: number; skipped: number }[];
      await m.query(
        `INSERT INTO webhooks.recoveries (id, webhook_id, since, until, queued, skipped, state, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, webhookId, since, until, n, skipped, n === 0 ? 'done' : 'running', n === 0 ? new Date() : null],
      );
      return this.view((await m.query(`SELECT * FROM webhooks.recoveries WHERE id = $1`, [id]))[0] as RecoveryRow);
    });
  }

  async get(webhookId: string, id: string): Promise<RecoveryView> {
    const rows: RecoveryRow[] = ID.test(id)
      ? await this.ds.query(`SELECT * FROM webhooks.recoveries WHERE id = $1 AND webhook_id = $2`, [id, webhookId])
      : [];
    if (!rows[0]) throw new RecoveryNotFoundError(id);
    return this.view(await this.refresh(this.ds.manager, rows[0]));
  }

  /** A running recovery's counts from its rows; none pending: done, and the counts kept. */
  private async refresh(m: EntityManager, r: RecoveryRow): Promise<RecoveryRow> {
    if (r.state !== 'running') return r;
    const [c] = (await m.query(
      `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending, count(*) FILTER (WHERE state = 'delivered')::int AS succeeded,
              count(*) FILTER (WHERE state IN ('failed', 'dropped'))::int AS failed
       FROM webhooks.deliveries WHERE recovery_id = $1`,
      [r.id],
    )) as { pending: number; succeeded: number; failed: number }[];
    const counted = { ...r, succeeded: c.succeeded, failed: c.failed, sent: c.succeeded + c.failed };
    if (c.pending > 0) return counted;
    const done = rowsOf<RecoveryRow>(
      await m.query(
        `UPDATE webhooks.recoveries SET state = 'done', sent = $2, succeeded = $3, failed = $4, finished_at = now() WHERE id = $1 AND state = 'running' RETURNING *`,
        [r.id, counted.sent, counted.succeeded, counted.failed],
      ),
    );
    return done[0] ?? counted;
  }

  private view(r: RecoveryRow): RecoveryView {
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
}
