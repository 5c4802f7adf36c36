import { type EntityManager } from 'typeorm';
import { type DeliveryTrigger, type WebhookLogFilterDto, type WebhookLogView } from '@hub/webhooks-contract';
import { keepPartitions, newObjectId, type PartitionPass } from '@hub/persistence';
import {
  DELIVERY_LOG_WEEKS_AHEAD,
  DELIVERY_LOGS_PARTITIONS,
} from '../migrations/1797000100000-partition-delivery-logs';
import { DeliveryLogNotFoundError } from './deliveries.errors';
import { type SendResult } from './http-sender';

export interface LoggedAttempt {
  webhookId: string;
  deliveryId: string;
  trigger: DeliveryTrigger;
  attempt: number;
  requestHeaders: Record<string, string>;
  payload: string;
  /** `searchKeys(payload)` when the caller has it (the event's, read once per event); read here otherwise. */
  search?: SearchKeys;
  result: SendResult;
}

/** The search columns of a log row (decision 0502). */
export interface SearchKeys {
  event: string | null;
  repo: string | null;
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
  const { event, repo } = a.search ?? searchKeys(a.payload);
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

/** LOG_COLUMNS with their types, as `json_to_recordset` reads a group of log rows (OutcomesStore). */
export const LOG_RECORD = `id text, webhook_id text, delivery_id text, trigger text, attempt int, request_headers jsonb,
  payload text, status int, response_headers jsonb, response_body text, duration_ms int, error text, event text, repo text`;

/**
 * logRow as one JSON object of LOG_RECORD (decision 0512): a group of them is one JSON text, which
 * JSON.stringify writes natively, where 14 array parameters cost pg's array escaping per string.
 * Strings taken from elsewhere (the search keys, cut at 200 characters, and the error) are made
 * well-formed: a lone surrogate, which pg's UTF-8 encoding made U+FFFD, is no valid JSON text for Postgres.
 */
export function logRecord(a: LoggedAttempt): Record<string, unknown> {
  const headers = { ...a.requestHeaders };
  if (headers['x-webhook-secret'] !== undefined) headers['x-webhook-secret'] = '[redacted]';
  const { event, repo } = a.search ?? searchKeys(a.payload);
  const body = a.result.body;
  return {
    id: newObjectId(),
    webhook_id: a.webhookId,
    delivery_id: a.deliveryId,
    trigger: a.trigger,
    attempt: a.attempt,
    request_headers: headers,
    payload: a.payload,
    status: a.result.status,
    response_headers: a.result.headers,
    response_body: body.includes(NUL) ? body.split(NUL).join('') : body,
    duration_ms: a.result.durationMs,
    error: wellFormed(a.result.error),
    event: wellFormed(event),
    repo: wellFormed(repo),
  };
}

const NUL = String.fromCharCode(0);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function wellFormed(s: string | null): string | null {
  return s === null ? null : s.replace(LONE_SURROGATE, '\ufffd');
}

/**
 * The event (`scope.action`) and repo name of a payload v3, the search columns (decision 0502).
 * Read here rather than by a jsonb cast in SQL: a payload Postgres' jsonb refuses (a \u0000 in a
 * string) must still be logged.
 */
export function searchKeys(payload: string): SearchKeys {
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

/**
 * The stored words of a payload (column `search`, GIN delivery_logs_words): its first 64 KB with
 * `/` as a space, and the webhook as one lexeme no word can be (`webhook <id>`: the parser never
 * makes one with a space), so the GIN finds one webhook's matches by itself (decision 0502).
 */
export function searchVector(payload: string, webhookId: string): string {
  return `to_tsvector('simple', translate(left(${payload}, 65536), '/', ' ')) || array_to_tsvector(ARRAY['webhook ' || ${webhookId}])`;
}

/** The words of `q` as a tsquery: all of them (plainto), `/` a space as in the stored words. */
function words(param: string): string {
  return `plainto_tsquery('simple', translate(${param}, '/', ' '))`;
}

/**
 * How `q` finds a page (decision 0502): the walk is the newest WALK_PER_ROW x (limit + 1) attempts
 * (at most MAX_WALK) tested one by one, a stored value each. If the planner expects the webhook's
 * matches to be fewer than the walk's rows (its statistics of the stored words know the frequent
 * ones), they are fetched through the GIN and sorted (a few ms for a word in 100 rows). Otherwise
 * the walk goes first, and a word that fills the page there never reaches the GIN; if it did not
 * (the estimate was too high, or the word is frequent elsewhere only), fewer than
 * N x (limit + 1) / walk of the webhook's N attempts match (spread evenly), which the GIN fetches.
 */
const WALK_PER_ROW = 250;
const MAX_WALK = 20_000;

type Query = (sql: string, args: unknown[]) => Promise<unknown[]>;

/** What a page shows of a row, from table alias `t` (not `search`: as large as the payload). */
const view = (t: string): string =>
  ['id', 'delivery_id', 'trigger', 'attempt', 'request_headers', 'payload', 'status', 'response_headers']
    .concat(['response_body', 'duration_ms', 'error', 'created_at'])
    .map((c) => `${t}.${c}`)
    .join(', ');

/** One row per attempt (architecture section 7); the secret never reaches it. */
export const DeliveryLogStore = {
  async add(m: EntityManager, a: LoggedAttempt): Promise<string> {
    const row = logRow(a);
    await m.query(
      `INSERT INTO webhooks.delivery_logs (${LOG_COLUMNS}, search)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, ${searchVector('$7::text', '$2::bpchar')})`,
      row,
    );
    return row[0] as string;
  },

  /**
   * Newest first, filtered (decision 0502); `cursor` is the last id of the previous page. Every
   * filter but `q` is an equality or range on an index that ends in (created_at DESC, seq DESC),
   * the order of the page, so a page reads at most `limit + 1` index entries past the cursor.
   * `m`: a transaction's, which the page's SET LOCAL is for (the caller's).
   */
  async page(
    m: EntityManager,
    webhookId: string,
    limit: number,
    cursor?: string,
    f: WebhookLogFilterDto = {},
  ): Promise<{ items: WebhookLogView[]; next?: string }> {
    const rows = await pageRows(m, webhookId, limit, cursor, f);
    const items = rows.slice(0, limit).map(toLogView);
    return rows.length > limit ? { items, next: items[items.length - 1].id } : { items };
  },

  async get(m: EntityManager, webhookId: string, logId: string): Promise<{ payload: string; deliveryId: string }> {
    const rows: LogRow[] = /^[0-9a-f]{24}$/.test(logId)
      ? await m.query(`SELECT payload, delivery_id FROM webhooks.delivery_logs WHERE id = $1 AND webhook_id = $2`, [
          logId,
          webhookId,
        ])
      : [];
    if (!rows[0]) throw new DeliveryLogNotFoundError(logId);
    return { payload: rows[0].payload, deliveryId: rows[0].delivery_id };
  },

  /**
   * Retention (decision 0206): the log's weeks wholly past `days` dropped as partitions and the
   * weeks ahead created (one replica at a time), each step in a transaction of `runInTransaction`
   * (the caller's).
   */
  partitions(
    runInTransaction: <T>(work: (m: EntityManager) => Promise<T>) => Promise<T>,
    days: number,
    now: Date,
  ): Promise<PartitionPass> {
    return keepPartitions(runInTransaction, DELIVERY_LOGS_PARTITIONS, {
      retentionDays: days,
      ahead: DELIVERY_LOG_WEEKS_AHEAD,
      now,
    });
  },

  /** Retention (decision 0206): finished deliveries past `days` and old trigger counts deleted. */
  async purgeFinished(m: EntityManager, days: number): Promise<void> {
    await m.query(
      `DELETE FROM webhooks.deliveries WHERE state <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
    await m.query(`DELETE FROM webhooks.trigger_counts WHERE hour < now() - interval '25 hours'`);
  },
};

/** The rows of a page, `limit + 1` at most (one more tells there is a next page). */
async function pageRows(
  m: EntityManager,
  webhookId: string,
  limit: number,
  cursor: string | undefined,
  f: WebhookLogFilterDto,
): Promise<LogRow[]> {
  // A parallel plan's workers take longer to start (7-15 ms on a busy machine) than the page
  // takes to read (under 1 ms): the planner chose one for `pending` and `q` at 1,000,000 rows.
  await m.query('SET LOCAL max_parallel_workers_per_gather = 0');
  const run: Query = (sql, values) => m.query(sql, values);
  const args: unknown[] = [webhookId];
  const arg = (v: unknown): string => `$${args.push(v)}`;
  const where = ['l.webhook_id = $1'];
  if (cursor !== undefined) {
    // The cursor's place as values (text keeps the microseconds), not a subquery: the planner
    // then knows how much of the log is older (q's choice of plan depends on it).
    const at = (await run(
      `SELECT created_at::text AS at, seq::text AS seq FROM webhooks.delivery_logs WHERE id = $1 AND webhook_id = $2`,
      [cursor, webhookId],
    )) as { at: string; seq: string }[];
    if (at.length === 0) return [];
    where.push(`(l.created_at, l.seq) < (${arg(at[0].at)}::timestamptz, ${arg(at[0].seq)}::bigint)`);
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
  if (f.q !== undefined) return textSearch(run, webhookId, where.join(' AND '), args, f.q, limit + 1);
  return (await run(
    `SELECT ${view('l')} FROM webhooks.delivery_logs l WHERE ${where.join(' AND ')} ORDER BY l.created_at DESC, l.seq DESC LIMIT ${limit + 1}`,
    args,
  )) as LogRow[];
}

/**
 * The first `want` attempts, newest first, that match `where` and hold every word of `q`
 * (WALK_PER_ROW says how). The GIN's matches are sorted on an expression the index order does not give
 * (`+ interval '0 s'`), so the planner cannot turn that query into a walk of the whole log.
 */
async function textSearch(
  run: Query,
  webhookId: string,
  where: string,
  args: unknown[],
  q: string,
  want: number,
): Promise<LogRow[]> {
  const n = args.length;
  const tsq = words(`$${n + 1}`);
  // numnode: a `q` without a word (only punctuation) matches nothing, not every row of the webhook.
  const matches = `${where} AND numnode(${tsq}) > 0
    AND l.search @@ (${tsq} && ('''webhook ' || $${n + 2}::text || '''')::tsquery)`;
  const values = [...args, q, webhookId];
  const fromIndex = (older: string, extra: unknown[], limit: number): Promise<LogRow[]> =>
    run(
      `SELECT ${view('l')} FROM webhooks.delivery_logs l WHERE ${matches}${older}
       ORDER BY l.created_at + interval '0 s' DESC, l.seq DESC LIMIT ${limit}`,
      [...values, ...extra],
    ) as Promise<LogRow[]>;
  const [{ 'QUERY PLAN': plan }] = (await run(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM webhooks.delivery_logs l WHERE ${matches}`,
    values,
  )) as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[];
  const walk = Math.min(WALK_PER_ROW * want, MAX_WALK);
  if (plan[0].Plan['Plan Rows'] <= walk) return fromIndex('', [], want);
  const newest = (await run(
    `SELECT ${view('w')} FROM (SELECT ${view('l')}, l.seq, l.search FROM webhooks.delivery_logs l WHERE ${where}
       ORDER BY l.created_at DESC, l.seq DESC LIMIT ${walk}) w
     WHERE w.search @@ ${tsq} ORDER BY w.created_at DESC, w.seq DESC LIMIT ${want}`,
    [...args, q],
  )) as LogRow[];
  if (newest.length === want) return newest;
  const edge = (await run(
    `SELECT l.id FROM webhooks.delivery_logs l WHERE ${where}
     ORDER BY l.created_at DESC, l.seq DESC OFFSET ${walk - 1} LIMIT 1`,
    args,
  )) as { id: string }[];
  if (edge.length === 0) return newest; // the walk saw every attempt the other filters let through
  const older = ` AND (l.created_at, l.seq) < (SELECT e.created_at, e.seq FROM webhooks.delivery_logs e WHERE e.id = $${n + 3})`;
  return [...newest, ...(await fromIndex(older, [edge[0].id], want - newest.length))];
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
