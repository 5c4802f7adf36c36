import { type EntityManager } from 'typeorm';
import { preparedQuery } from '@hub/persistence';
import { type WebhookDomain } from '@hub/contracts';
import { type DeliveryState } from '@hub/webhooks-contract';
import { type WebhooksConfig } from '../webhooks.config';
import { type InFlightLoad } from './in-flight';
import { rowsOf } from './rows';

/** The tables the prepared statements of the delivery path read (keepPlansFresh). */
const PLANNED_TABLES = [
  'webhooks.deliveries',
  'webhooks.webhooks',
  'webhooks.watched',
  'webhooks.trigger_counts',
  'webhooks.delivery_options',
];

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  webhook_id: string;
  subject: string;
  payload: string;
  attempts: number;
  /** Set when a bulk recovery put the row back: it is sent once, without the retry schedule (decision 0502). */
  recovery_id: string | null;
  /** Claimed by the paced claim (the webhook has delivery options, decision 0503). */
  paced: boolean;
  /** The intake span's trace context when tracing was on (decision 0504). */
  traceparent: string | null;
  /**
   * Since when it waited in the queue (the queue span's start), in ms since the epoch: a number,
   * not a Date, which pg would parse for every claimed row (3 µs) though only tracing reads it.
   */
  due_ms: number;
}

/** A claimed row with its webhook's owner: counted under the owner's cap as it is claimed (decision 0505). */
export type OwnedDelivery = ClaimedDelivery & { owner_id: string };

/** A row the intake queued, with its webhook's owner; `leased` when written leased to this process (decision 0510). */
export interface QueuedRow {
  id: string;
  event_id: string;
  webhook_id: string;
  owner_id: string;
  leased: boolean;
}

/** Room for rows leased as they are queued: how many, and what is in flight (the caps, decision 0505). */
export interface DirectLease {
  room: number;
  load: InFlightLoad;
}

export interface MatchInput {
  eventId: string;
  subject: string;
  payload: string;
  domain: WebhookDomain;
  repoType: string;
  repoName: string;
  ownerName: string;
  /** Set for a private repo: the owners allowed to see it (24-hex ids); only their webhooks match (decision 0501). */
  allowedOwners?: string[];
  /** The event's place on the bus (stream sequence): the order of an ordered webhook's deliveries (decision 0503). */
  seq?: number;
  /** The intake span, when tracing is on: the delivery's attempts continue its trace (decision 0504). */
  traceparent?: string;
}

/** The settings the queue's statements bind: the service's `WebhooksConfig` is passed as it is. */
export type QueueLimits = Pick<
  WebhooksConfig,
  | 'HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY'
  | 'HUB_WEBHOOK_LEASE_MS'
  | 'HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK'
  | 'maxInFlightPerUser'
>;

/** A delivery's retry state as the queue holds it (`GET …/deliveries`, decision 0804). */
export interface DeliveryRow {
  id: string;
  state: DeliveryState;
  attempts: number;
  due_at: Date;
  created_at: Date;
}

/**
 * The delivery queue in the service's own schema (decision 0500): one row per (event, webhook),
 * claimed with FOR UPDATE SKIP LOCKED under a lease, so replicas share the work and a row whose
 * process died comes back when its lease runs out. The hot statements are named prepared
 * statements on the pool of `m`'s DataSource (outside any transaction of `m`), as
 * `WebhookStore.byIds`.
 */
export const DeliveryQueueStore = {
  /**
   * One statement per batch of events (IntakeBatch gathers them): for each event, the matching
   * webhooks (by the watched index: the repo itself, or its owner as a user or an organization),
   * active, in the event's domain, allowed to see the repo and under the daily trigger limit
   * (hourly counters, bumped in the same statement; events of one batch count in order). The
   * delivery id is derived from (event, webhook), so a repeat of the event inserts nothing and a
   * retry keeps its `webhook-id`. Rows are written in key order, so two replicas' batches never
   * lock the same rows in opposite orders. Answers the rows queued, with their webhooks' owners
   * (the worker's wake-up skips owners held at their in-flight cap, decision 0505); the intake
   * groups them per event (`intake/queued.ts`).
   *
   * With `lease` (the worker had taken every due row it could, decision 0510), plain rows are
   * written leased to this process already, at most `lease.room`, dealt in turns as the fair claim
   * deals them and within the same caps: the worker sends those without claiming them (no claim
   * statement, no claim update of the row). A row leased here comes back when its lease runs out,
   * as a claimed one does.
   *
   * The rows an event already has are read once per event through the (event_id, webhook_id) key,
   * not probed per matched webhook, whatever the plan (issue 40, one event matching 1,000 webhooks:
   * `BENCH_FANOUT`; a plan made on stale statistics probed `deliveries_webhook`, each webhook's
   * whole history).
   */
  enqueue(m: EntityManager, events: MatchInput[], limits: QueueLimits, lease?: DirectLease): Promise<QueuedRow[]> {
    const column = <K extends keyof MatchInput>(k: K): MatchInput[K][] => events.map((e) => e[k]);
    // Prepared (planned once per connection): its generic plan is made again whenever a table it
    // reads has doubled since its statistics (keepPlansFresh, decision 0510); a plan made while the
    // tables were small had kept probing `deliveries` through (webhook_id, created_at).
    return preparedQuery<QueuedRow>(
      m.connection,
      'webhooks-enqueue',
      `WITH e AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $10::int8[], $11::text[])
           WITH ORDINALITY AS e(event_id, subject, payload, domain, repo_type, repo_name, owner_name, allowed, seq, traceparent, n)),
       busy AS (SELECT * FROM unnest($14::text[], $15::int[]) AS b(id, n)),
       owners AS (SELECT * FROM unnest($16::text[], $17::int[]) AS b(id, n)),
       queued AS MATERIALIZED (
         SELECT d.event_id, d.webhook_id FROM webhooks.deliveries d WHERE d.event_id IN (SELECT e.event_id FROM e)),
       m AS (
         SELECT e.n, e.event_id, e.subject, e.payload, e.seq, e.traceparent, w.id AS webhook_id, w.owner_id
         FROM e
         CROSS JOIN LATERAL (SELECT DISTINCT x.webhook_id FROM webhooks.watched x
                             WHERE (lower(x.name) = lower(e.repo_name) AND x.type = e.repo_type)
                                OR (lower(x.name) = lower(e.owner_name) AND x.type IN ('user', 'org'))) x
         JOIN webhooks.webhooks w ON w.id = x.webhook_id
         WHERE w.disabled = 'false' AND e.domain = ANY(w.domains)
           AND (e.allowed IS NULL OR w.owner_id = ANY(string_to_array(e.allowed, ',')))
           AND NOT EXISTS (SELECT 1 FROM queued q WHERE q.event_id = e.event_id AND q.webhook_id = w.id)),
       ranked AS (
         SELECT m.*, row_number() OVER (PARTITION BY m.webhook_id ORDER BY m.n) AS k,
                COALESCE((SELECT sum(c.count) FROM webhooks.trigger_counts c
                          WHERE c.webhook_id = m.webhook_id AND c.hour > date_trunc('hour', now()) - interval '24 hours'), 0) AS used,
                EXISTS (SELECT 1 FROM webhooks.delivery_options o WHERE o.webhook_id = m.webhook_id AND (o.max_per_second IS NOT NULL OR o.ordered)) AS paced
         FROM m),
       allowed AS (SELECT r.* FROM ranked r WHERE r.used + r.k <= $9),
       dealt AS (
         SELECT a.*, row_number() OVER (PARTITION BY a.owner_id ORDER BY a.k, a.n) AS turn
         FROM allowed a WHERE NOT a.paced),
       lease AS (
         SELECT t.event_id, t.webhook_id FROM dealt t
         WHERE $12::int > 0
           AND t.k <= $18::int - COALESCE((SELECT b.n FROM busy b WHERE b.id = t.webhook_id), 0)
           AND t.turn <= $19::int - COALESCE((SELECT o.n FROM owners o WHERE o.id = t.owner_id), 0)
         ORDER BY t.turn, t.n LIMIT GREATEST($12::int, 0)),
       ins AS (
         INSERT INTO webhooks.deliveries (id, event_id, webhook_id, subject, payload, event_seq, traceparent, paced, lease_until, attempts)
         SELECT substr(md5(r.event_id || ':' || r.webhook_id), 1, 24), r.event_id, r.webhook_id, r.subject, r.payload, r.seq, r.traceparent, r.paced,
                CASE WHEN l.webhook_id IS NULL THEN NULL ELSE now() + make_interval(secs => $13::float8 / 1000) END,
                CASE WHEN l.webhook_id IS NULL THEN 0 ELSE 1 END
         FROM allowed r LEFT JOIN lease l ON l.event_id = r.event_id AND l.webhook_id = r.webhook_id
         ORDER BY r.event_id, r.webhook_id
         ON CONFLICT (event_id, webhook_id) DO NOTHING
         RETURNING id, event_id, webhook_id, lease_until IS NOT NULL AS leased),
       counted AS (
         INSERT INTO webhooks.trigger_counts (webhook_id, hour, count)
         SELECT webhook_id, date_trunc('hour', now()), count(*) FROM ins GROUP BY webhook_id ORDER BY webhook_id
         ON CONFLICT (webhook_id, hour) DO UPDATE SET count = webhooks.trigger_counts.count + EXCLUDED.count)
       SELECT i.id, i.event_id, i.webhook_id, w.owner_id, i.leased
       FROM ins i JOIN webhooks.webhooks w ON w.id = i.webhook_id`,
      [
        column('eventId'),
        column('subject'),
        column('payload'),
        column('domain'),
        column('repoType'),
        column('repoName'),
        column('ownerName'),
        events.map((e) => e.allowedOwners?.join(',') ?? null),
        limits.HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY,
        events.map((e) => e.seq ?? null),
        events.map((e) => e.traceparent ?? null),
        lease?.room ?? 0,
        limits.HUB_WEBHOOK_LEASE_MS,
        lease?.load.webhookIds ?? [],
        lease?.load.webhookCounts ?? [],
        lease?.load.ownerIds ?? [],
        lease?.load.ownerCounts ?? [],
        limits.HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK,
        limits.maxInFlightPerUser,
      ],
    );
  },

  /**
   * The fair claim (decision 0505), one statement: a skip scan walks the webhooks with plain
   * deliveries pending (one index probe each), takes each one's oldest due deliveries up to the
   * room its cap and its owner's leave in this process (none read for either at its cap), then deals them out in turns: every user's first, then
   * every user's second…, a user's own turns going round their webhooks. So a webhook whose
   * receiver is slow or failing holds at most its cap of slots, and a backlog of one webhook is
   * never in front of another's. The chosen rows only are locked (SKIP LOCKED: another replica's
   * picks are left to it).
   */
  async claim(m: EntityManager, limit: number, load: InFlightLoad, limits: QueueLimits): Promise<OwnedDelivery[]> {
    // Prepared: planning cost as much as running it (decision 0510); see keepPlansFresh.
    return rowsOf<OwnedDelivery>(
      await preparedQuery<OwnedDelivery>(
        m.connection,
        'webhooks-claim',
        `WITH RECURSIVE w AS (
           (SELECT d.webhook_id FROM webhooks.deliveries d WHERE d.state = 'pending' AND NOT d.paced ORDER BY d.webhook_id LIMIT 1)
           UNION ALL
           SELECT (SELECT d.webhook_id FROM webhooks.deliveries d
                   WHERE d.state = 'pending' AND NOT d.paced AND d.webhook_id > w.webhook_id ORDER BY d.webhook_id LIMIT 1)
           FROM w WHERE w.webhook_id IS NOT NULL),
         busy AS (SELECT * FROM unnest($4::text[], $5::int[]) AS b(id, n)),
         owners AS (SELECT * FROM unnest($6::text[], $7::int[]) AS b(id, n)),
         a AS (
           SELECT * FROM (
             SELECT w.webhook_id, h.owner_id,
                    LEAST($1::int, $3::int - COALESCE((SELECT b.n FROM busy b WHERE b.id = w.webhook_id), 0),
                          $8::int - COALESCE((SELECT o.n FROM owners o WHERE o.id = h.owner_id), 0)) AS room
             FROM w JOIN webhooks.webhooks h ON h.id = w.webhook_id) r
           -- A webhook or owner at its cap reads none of its rows.
           WHERE r.room > 0),
         due AS (
           SELECT x.id, x.due_at, a.webhook_id, a.owner_id FROM a
           CROSS JOIN LATERAL (
             SELECT d.id, d.due_at FROM webhooks.deliveries d
             WHERE d.webhook_id = a.webhook_id AND d.state = 'pending' AND NOT d.paced AND d.due_at <= now()
               AND (d.lease_until IS NULL OR d.lease_until < now())
             ORDER BY d.due_at LIMIT a.room) x),
         turns AS (
           SELECT t.id, t.due_at, t.owner_id, row_number() OVER (PARTITION BY t.owner_id ORDER BY t.k, t.due_at) AS turn
           FROM (SELECT due.*, row_number() OVER (PARTITION BY due.webhook_id ORDER BY due.due_at) AS k FROM due) t),
         chosen AS (
           SELECT t.id FROM turns t
           WHERE t.turn <= $8::int - COALESCE((SELECT o.n FROM owners o WHERE o.id = t.owner_id), 0)
           ORDER BY t.turn, t.due_at LIMIT $1),
         locked AS (
           SELECT d.id FROM webhooks.deliveries d
           WHERE d.id IN (SELECT id FROM chosen) AND d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
           FOR UPDATE SKIP LOCKED)
       UPDATE webhooks.deliveries d SET lease_until = now() + make_interval(secs => $2::float8 / 1000), attempts = d.attempts + 1
       FROM locked c
       WHERE d.id = c.id
       RETURNING d.id, d.event_id, d.webhook_id, d.subject, d.payload, d.attempts, d.recovery_id, d.paced, d.traceparent,
         (extract(epoch FROM d.due_at) * 1000)::float8 AS due_ms,
         (SELECT w.owner_id FROM webhooks.webhooks w WHERE w.id = d.webhook_id) AS owner_id`,
        [
          limit,
          limits.HUB_WEBHOOK_LEASE_MS,
          limits.HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK,
          load.webhookIds,
          load.webhookCounts,
          load.ownerIds,
          load.ownerCounts,
          limits.maxInFlightPerUser,
        ],
      ),
    );
  },

  /**
   * The queue's hot statements are prepared (decision 0510): Postgres keeps a generic plan per
   * connection, made again only when a table's statistics change. Where autovacuum does not
   * analyze (this machine's Postgres), a plan made while a table was nearly empty (a sequential
   * scan) would stay while it grows to millions of rows. So each table those statements read is
   * analyzed here once it has twice the pages its statistics know (and 16 more): a stale plan
   * never costs more than a scan of twice the size it was made for, and a table that grows from
   * empty to 10^8 rows is analyzed about twenty times in all. Where autovacuum runs it analyzes
   * first (at a tenth of new rows) and this finds nothing to do.
   */
  async keepPlansFresh(m: EntityManager): Promise<string[]> {
    const grown: { name: string }[] = await m.query(
      `SELECT c.oid::regclass::text AS name FROM pg_class c
       WHERE c.oid = ANY($1::regclass[])
         AND pg_relation_size(c.oid) / current_setting('block_size')::int >= greatest(2 * c.relpages, c.relpages + 16)`,
      [PLANNED_TABLES],
    );
    for (const t of grown) await m.query(`ANALYZE ${t.name}`);
    return grown.map((t) => t.name);
  },

  /**
   * Failed deliveries, in one statement: each back in the queue after its `delayMs`, or given up
   * (`failed`) when that is null (the schedule spent, the webhook suspended, a recovery's one try).
   */
  async failed(m: EntityManager, rows: readonly { id: string; delayMs: number | null }[]): Promise<void> {
    await m.query(
      `UPDATE webhooks.deliveries d
       SET state = CASE WHEN f.delay IS NULL THEN 'failed' ELSE d.state END,
           due_at = CASE WHEN f.delay IS NULL THEN d.due_at ELSE now() + make_interval(secs => f.delay / 1000) END,
           lease_until = NULL
       FROM unnest($1::bpchar[], $2::float8[]) AS f(id, delay) WHERE d.id = f.id`,
      [rows.map((r) => r.id), rows.map((r) => r.delayMs)],
    );
  },

  /** A webhook disabled or deleted meanwhile: its pending deliveries are dropped. */
  async dropped(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE webhooks.deliveries SET state = 'dropped', lease_until = NULL WHERE id = $1`, [id]);
  },

  /** Owners of the webhooks the event would match, whatever the repo's visibility. */
  async candidateOwners(m: EntityManager, e: MatchInput): Promise<string[]> {
    const rows: { owner_id: string }[] = await m.query(
      `SELECT DISTINCT w.owner_id FROM webhooks.webhooks w
       WHERE w.id IN (SELECT x.webhook_id FROM webhooks.watched x
                      WHERE (lower(x.name) = lower($2) AND x.type = $1) OR (lower(x.name) = lower($3) AND x.type IN ('user', 'org')))
         AND w.disabled = 'false' AND $4 = ANY(w.domains)`,
      [e.repoType, e.repoName, e.ownerName, e.domain],
    );
    return rows.map((r) => r.owner_id);
  },

  /** Pending deliveries due now and scheduled later, and how long the oldest due one has waited (0 when none). */
  async depth(m: EntityManager): Promise<{ due: number; scheduled: number; oldestDueSeconds: number }> {
    // Two partial indexes between them hold every pending row (decision 0503): one count each.
    const rows: { due: string; scheduled: string; oldest: string | null }[] = await m.query(
      `SELECT sum(due) AS due, sum(scheduled) AS scheduled, EXTRACT(EPOCH FROM now() - min(oldest)) AS oldest FROM (
         SELECT count(*) FILTER (WHERE due_at <= now()) AS due, count(*) FILTER (WHERE due_at > now()) AS scheduled,
                min(due_at) FILTER (WHERE due_at <= now()) AS oldest
         FROM webhooks.deliveries WHERE state = 'pending' AND NOT paced
         UNION ALL
         SELECT count(*) FILTER (WHERE due_at <= now()), count(*) FILTER (WHERE due_at > now()),
                min(due_at) FILTER (WHERE due_at <= now())
         FROM webhooks.deliveries WHERE state = 'pending' AND paced) c`,
    );
    return {
      due: Number(rows[0]?.due ?? 0),
      scheduled: Number(rows[0]?.scheduled ?? 0),
      oldestDueSeconds: Number(rows[0]?.oldest ?? 0),
    };
  },

  /** A webhook's deliveries, newest first (only those of `ids` when given). */
  listOf(m: EntityManager, webhookId: string, ids: string[] | null, limit: number): Promise<DeliveryRow[]> {
    return m.query(
      `SELECT id, state, attempts, due_at, created_at FROM webhooks.deliveries
        WHERE webhook_id = $1 AND ($2::bpchar[] IS NULL OR id = ANY($2::bpchar[]))
        ORDER BY created_at DESC, id DESC LIMIT $3`,
      [webhookId, ids, limit],
    );
  },
};
