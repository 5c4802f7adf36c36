import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { type DeliveryTrigger, NotFoundError, type WebhookLogView } from '@hub/contracts';
import { newObjectId } from '@hub/persistence';
import { WEBHOOKS_DS } from '../webhooks.tokens';
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

export const LOG_COLUMNS = 'id, webhook_id, delivery_id, trigger, attempt, request_headers, payload, status, response_headers, response_body, duration_ms, error';

/** The values of LOG_COLUMNS for one attempt: a fresh id, the secret redacted, no NUL (Postgres text refuses it). */
export function logRow(a: LoggedAttempt): unknown[] {
  const headers = { ...a.requestHeaders };
  if (headers['x-webhook-secret'] !== undefined) headers['x-webhook-secret'] = '[redacted]';
  return [newObjectId(), a.webhookId, a.deliveryId, a.trigger, a.attempt, JSON.stringify(headers), a.payload, a.result.status,
    JSON.stringify(a.result.headers), a.result.body.split(String.fromCharCode(0)).join(''), a.result.durationMs, a.result.error];
}

/** One row per attempt (architecture section 7); the secret never reaches it. */
@Injectable()
export class DeliveryLogStore {
  constructor(@InjectDataSource(WEBHOOKS_DS) private readonly ds: DataSource) {}

  async add(a: LoggedAttempt): Promise<string> {
    const row = logRow(a);
    await this.ds.query(
      `INSERT INTO webhooks.delivery_logs (${LOG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      row,
    );
    return row[0] as string;
  }

  /** Newest first; `cursor` is the last id of the previous page. */
  async page(webhookId: string, limit: number, cursor?: string): Promise<{ items: WebhookLogView[]; next?: string }> {
    const rows: LogRow[] = await this.ds.query(
      `SELECT * FROM webhooks.delivery_logs WHERE webhook_id = $1
         AND ($2::text IS NULL OR seq < (SELECT seq FROM webhooks.delivery_logs WHERE id = $2 AND webhook_id = $1))
       ORDER BY seq DESC LIMIT $3`,
      [webhookId, cursor ?? null, limit + 1],
    );
    const items = rows.slice(0, limit).map(toLogView);
    return rows.length > limit ? { items, next: items[items.length - 1].id } : { items };
  }

  async get(webhookId: string, logId: string): Promise<{ payload: string; deliveryId: string }> {
    const rows: LogRow[] = /^[0-9a-f]{24}$/.test(logId)
      ? await this.ds.query(`SELECT payload, delivery_id FROM webhooks.delivery_logs WHERE id = $1 AND webhook_id = $2`, [logId, webhookId])
      : [];
    if (!rows[0]) throw new NotFoundError(`Log ${logId} not found for this webhook`);
    return { payload: rows[0].payload, deliveryId: rows[0].delivery_id };
  }

  async purgeOlderThan(days: number): Promise<void> {
    await this.ds.query(`DELETE FROM webhooks.delivery_logs WHERE created_at < now() - make_interval(days => $1)`, [days]);
    await this.ds.query(`DELETE FROM webhooks.deliveries WHERE state <> 'pending' AND created_at < now() - make_interval(days => $1)`, [days]);
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
    id: r.id, deliveryId: r.delivery_id, trigger: r.trigger, attempt: r.attempt, requestHeaders: r.request_headers, payload,
    status: r.status, responseHeaders: r.response_headers, responseBody: r.response_body, durationMs: r.duration_ms, error: r.error,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
