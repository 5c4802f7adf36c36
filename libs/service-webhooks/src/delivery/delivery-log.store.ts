import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type DeliveryTrigger, type WebhookLogFilterDto, type WebhookLogView } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { WEBHOOKS_DS } from '../webhooks.tokens';
import { DeliveryLogNotFoundError } from './deliveries.errors';
import { type SendResult } from './http-sender';

export interface LoggedAttempt {
  webhookId: string;
  deliveryId: string;
  trigger: DeliveryTrigger;
  attempt: number;
  requestHeaders: Record<string, string>;
  payload: string;
  result: SendResult;
}

interface LogRow {
  id: string;
  delivery_id: string;
  trigger: DeliveryTrigger;
  attempt: number;
  request_headers: Record<string, string>;
  payload: string;
  status: number | null;
  response_headers: Record<string, string>;
  response_body: string;
  duration_ms: number;
  error: string | null;
  created_at: Date;
}

export const LOG_COLUMNS =
  'id, webhook_id, delivery_id, trigger, attempt, request_headers, payload, status, response_headers, response_body, duration_ms, error, event, repo';

/** The values of LOG_COLUMNS for one attempt: a fresh id, the secret redacted, no NUL (Postgres text refuses it). */
export function logRow(a: LoggedAttempt): unknown[] {
  const headers = { ...a.requestHeaders };
  if (headers['x-webhook-secret'] !== undefined) headers['x-webhook-secret'] = '[redacted]';
  const { event, repo } = searchKeys(a.payload);
  return [
    newObjectId(),
    a.webhookId,
    a.deliveryId,
    a.trigger,
    a.attempt,
    JSON.stringify(headers),
    a.payload,
    a.result.status,
    JSON.stringify(a.result.headers),
    a.result.body.split(String.fromCharCode(0)).join(''),
    a.result.durationMs,
    a.result.error,
    event,
    repo,
  ];
}

/**
 * The event (`scope.action`) and repo name of a payload v3, the search columns (decision 0502).
 * Read here rather than by a jsonb cast in SQL: a payload Postgres' jsonb refuses (a \u0000 in a
 * string) must still be logged.
 */
export function searchKeys(payload: string): { event: string | null; repo: string | null } {
  try {
    const p = JSON.parse(payload) as { event?: { scope?: unknown; action?: unknown }; repo?: { name?: unknown } };
    const scope = typeof p.event?.scope === 'string' ? p.event.scope : null;
    const action = typeof p.event?.action === 'string' ? p.event.action : null;
    const event = scope !== null && action !== null ? `${scope}.${action}`.slice(0, 200) : null;
    return { event, repo: typeof p.repo?.name === 'string' ? p.repo.name.slice(0, 200) : null };
  } catch {
    return { event: null, repo: null };
  }
}

/** Matches of `q` below this many rows of a webhook are fetched through the GIN and sorted. */
const RARE_WORD = 5000;

/** The same expression as the GIN index delivery_logs_text, or the index does not apply. */
function textMatch(param: string): string {
  return `to_tsvector('simple', translate(left(l.payload, 65536), '/', ' ')) @@ plainto_tsquery('simple', translate(${param}, '/', ' '))`;
}

/** One row per attempt (architecture section 7); the secret never reaches it. */
@Injectable()
export class DeliveryLogStore {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  async add(a: LoggedAttempt): Promise<string> {
    const row = logRow(a);
    await this.ds.query(
      `INSERT INTO webhooks.delivery_logs (${LOG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      row,
    );
    return row[0] as string;
  }

  /**
   * Newest first, filtered (decision 0502); `cursor` is the last id of the previous page. Every
   * filter is an equality or range on an index that ends in (created_at DESC, seq DESC), the
   * order of the page, so a page reads at most `limit + 1` index entries past the cursor.
   */
  async page(
    webhookId: string,
    limit: number,
    cursor?: string,
    f: WebhookLogFilterDto = {},
  ): Promise<{ items: WebhookLogView[]; next?: string }> {
    const args: unknown[] = [webhookId];
    const arg = (v: unknown): string => `$${args.push(v)}`;
    const where = ['l.webhook_id = $1'];
    if (cursor !== undefined) {
      where.push(
        `(l.created_at, l.seq) < (SELECT c.created_at, c.seq FROM webhooks.delivery_logs c WHERE c.id = ${arg(cursor)} AND c.webhook_id = $1)`,
      );
    }
    if (f.status === 'succeeded') where.push('l.ok');
    if (f.status === 'failed') where.push('NOT l.ok');
    if (f.status === 'pending') {
      where.push(
        `l.delivery_id IN (SELECT d.id FROM webhooks.deliveries d WHERE d.webhook_id = $1 AND d.state = 'pending')`,
      );
    }
    if (f.httpStatus !== undefined)
      where.push(f.httpStatus === 0 ? 'l.status IS NULL' : `l.status = ${arg(f.httpStatus)}`);
    if (f.event !== undefined) where.push(`l.event = ${arg(f.event)}`);
    if (f.repo !== undefined) where.push(`l.repo = ${arg(f.repo)}`);
    if (f.since !== undefined) where.push(`l.created_at >= ${arg(f.since)}::timestamptz`);
    if (f.until !== undefined) where.push(`l.created_at < ${arg(f.until)}::timestamptz`);
    let order = 'l.created_at DESC, l.seq DESC';
    if (f.q !== undefined) {
      where.push(textMatch(arg(f.q)));
      // The planner cannot tell a rare word from a common one: it walked the webhook's rows newest
      // first testing each (1.8 s for a word in 10 of 100,000 rows). The GIN says how many of this
      // webhook's rows match, up to RARE_WORD: fewer, and they are fetched by the GIN and sorted
      // (the order's expression is not the index's, so the planner cannot walk it); more, and the
      // walk newest first finds a page within a few thousand rows.
      const [{ n }] = (await this.ds.query(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhooks.delivery_logs l WHERE l.webhook_id = $1 AND ${textMatch('$2')} LIMIT ${RARE_WORD}) x`,
        [webhookId, f.q],
      )) as { n: number }[];
      if (n < RARE_WORD) order = `l.created_at + interval '0 s' DESC, l.seq DESC`;
    }
    const rows: LogRow[] = await this.ds.query(
      `SELECT l.* FROM webhooks.delivery_logs l WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${arg(limit + 1)}`,
      args,
    );
    const items = rows.slice(0, limit).map(toLogView);
    return rows.length > limit ? { items, next: items[items.length - 1].id } : { items };
  }

  async get(webhookId: string, logId: string): Promise<{ payload: string; deliveryId: string }> {
    const rows: LogRow[] = /^[0-9a-f]{24}$/.test(logId)
      ? await this.ds.query(
          `SELECT payload, delivery_id FROM webhooks.delivery_logs WHERE id = $1 AND webhook_id = $2`,
          [logId, webhookId],
        )
      : [];
    if (!rows[0]) throw new DeliveryLogNotFoundError(logId);
    return { payload: rows[0].payload, deliveryId: rows[0].delivery_id };
  }

  async purgeOlderThan(days: number): Promise<void> {
    await this.ds.query(`DELETE FROM webhooks.delivery_logs WHERE created_at < now() - make_interval(days => $1)`, [
      days,
    ]);
    await this.ds.query(
      `DELETE FROM webhooks.deliveries WHERE state <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
    await this.ds.query(`DELETE FROM webhooks.trigger_counts WHERE hour < now() - interval '25 hours'`);
  }
}

function toLogView(r: LogRow): WebhookLogView {
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(r.payload) as Record<string, unknown>;
  } catch {
    payload = {};
  }
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    trigger: r.trigger,
    attempt: r.attempt,
    requestHeaders: r.request_headers,
    payload,
    status: r.status,
    responseHeaders: r.response_headers,
    responseBody: r.response_body,
    durationMs: r.duration_ms,
    error: r.error,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
