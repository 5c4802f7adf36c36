import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager } from 'typeorm';
import { MAX_RECOVERY_DELIVERIES, type RecoveryView } from '@hub/contracts';
import { lockForTransaction, newObjectId } from '@hub/persistence';
import { rowsOf } from '../delivery/rows';
import { WEBHOOKS_DS } from '../webhooks.tokens';
import { RecoveryNotFoundError, RecoveryRunningError, RecoveryWindowError } from './recoveries.errors';

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
 */
@Injectable()
export class RecoveryStore {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

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
      const id = newObjectId();
      // In event order, a millisecond apart, so the queue (ordered by due_at) sends them in that order.
      const [{ n }] = (await m.query(
        `WITH picked AS (
           SELECT d.id, row_number() OVER (ORDER BY d.created_at, d.id) AS k FROM webhooks.deliveries d
           WHERE d.webhook_id = $1 AND d.state IN ('failed', 'dropped')
             AND ((d.created_at >= $2 AND d.created_at < $3)
                  OR EXISTS (SELECT 1 FROM webhooks.delivery_logs l WHERE l.delivery_id = d.id AND l.created_at >= $2 AND l.created_at < $3))
           ORDER BY d.created_at, d.id LIMIT $4),
         requeued AS (
           UPDATE webhooks.deliveries d SET state = 'pending', recovery_id = $5, lease_until = NULL, due_at = now() + make_interval(secs => p.k / 1000.0),
             paced = EXISTS (SELECT 1 FROM webhooks.delivery_options o WHERE o.webhook_id = d.webhook_id AND (o.max_per_second IS NOT NULL OR o.ordered))
           FROM picked p WHERE d.id = p.id RETURNING d.id)
         SELECT count(*)::int AS n FROM requeued`,
        [webhookId, since, until, MAX_RECOVERY_DELIVERIES, id],
      )) as { n: number }[];
      await m.query(
        `INSERT INTO webhooks.recoveries (id, webhook_id, since, until, queued, state, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, webhookId, since, until, n, n === 0 ? 'done' : 'running', n === 0 ? new Date() : null],
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
      createdAt: new Date(r.created_at).toISOString(),
    };
    if (r.finished_at) v.finishedAt = new Date(r.finished_at).toISOString();
    return v;
  }
}
