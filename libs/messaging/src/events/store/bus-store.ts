import { DataSource } from 'typeorm';
import { runMigrations, serviceDataSourceOptions, vacuumedByNobody, vacuumLikeAutovacuum } from '@hub/persistence';
import { subjectRegex } from '../subject-match';
import { type AppendInput, AppendQueue } from './append-queue';
import { BUS_MIGRATIONS } from './bus-migrations';

export const BUS_SCHEMA = 'bus';

/** Events one fetch reads past a consumer's cursor at most. */
export const FETCH_LIMIT = 500;

/** How long the bus keeps events unless HUB_BUS_RETENTION_DAYS says otherwise. */
export const DEFAULT_RETENTION_DAYS = 7;

/** Where the all-in-one bus keeps its events: the hub's own database. */
export interface BusStoreOptions {
  databaseUrl?: string;
  /** Days events are kept (HUB_BUS_RETENTION_DAYS), as the JetStream streams' max age. Default 7. */
  retentionDays?: number;
}

export interface StoredEvent {
  seq: number;
  subject: string;
  msgId?: string;
  payload: string;
  deliveries: number;
}

export interface ConsumerRef {
  stream: string;
  durable: string;
}

/** The SQL of the in-process bus. Every call is one statement or a short sequence; none holds a transaction open. */
export class BusStore {
  private readonly appends: AppendQueue;
  /** Consumers' filters as this process set or last read them (one process owns the database). */
  private readonly filters = new Map<string, string>();

  constructor(
    readonly ds: DataSource,
    private readonly retentionDays = DEFAULT_RETENTION_DAYS,
  ) {
    this.appends = new AppendQueue(ds);
  }

  static async open(o: BusStoreOptions): Promise<BusStore> {
    const ds = await new DataSource({
      ...serviceDataSourceOptions({
        schema: BUS_SCHEMA,
        entities: [],
        migrations: BUS_MIGRATIONS,
        databaseUrl: o.databaseUrl,
        poolSize: 4,
      }),
      name: 'bus',
    }).initialize();
    await runMigrations(ds, BUS_SCHEMA);
    return new BusStore(ds, o.retentionDays);
  }

  async close(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }

  /**
   * Appends an event; false when its msgId was seen before (kept for the retention period).
   * Appends made meanwhile are written together by the next statement (see AppendQueue).
   */
  append(subject: string, msgId: string | undefined, payload: string): Promise<boolean> {
    return this.appends.add({ subject, msgId, payload });
  }

  /** Appends events in order in one statement, all or none; per event, whether it was stored (not a repeat). */
  appendAll(events: AppendInput[]): Promise<boolean[]> {
    return this.appends.addAll(events);
  }

  /** Creates the durable consumer (from the start of the stream, as JetStream's DeliverPolicy.All). */
  async ensureConsumer(c: ConsumerRef, filter: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO bus.consumers (stream, durable, filter) VALUES ($1, $2, $3)
       ON CONFLICT (stream, durable) DO UPDATE SET filter = EXCLUDED.filter`,
      [c.stream, c.durable, filter],
    );
    this.filters.set(consumerKey(c), filter);
  }

  /**
   * What a consumer held when its process stopped is due again at once: one process owns an
   * all-in-one database, so nobody else is handling it.
   */
  async releaseInFlight(c: ConsumerRef): Promise<void> {
    await this.ds.query(
      `UPDATE bus.pending SET next_at = now() WHERE stream = $1 AND durable = $2 AND next_at > now()`,
      [c.stream, c.durable],
    );
  }

  /**
   * Moves events past the consumer's cursor that match its filter into its pending list and
   * moves the cursor past them, in one statement (so a crash cannot split the two); answers how
   * many events it read (matching or not).
   */
  async fetchNew(c: ConsumerRef, filter: string): Promise<number> {
    return (await this.fetchAndClaim(c, filter, 0, 0)).read;
  }

  /**
   * fetchNew and a claim in one statement, for a consumer with room for `limit` messages (0:
   * fetchNew alone): claims its due pending messages in order, then, with the room left, the
   * first new events past its cursor that match its filter (stored as pending already claimed);
   * the rest of what it read (up to FETCH_LIMIT events) goes to pending, due, and the cursor past
   * it.
   * Pending messages all precede the cursor, so what it claims is in order. Answers the claimed
   * messages and how many events past the cursor it read (FETCH_LIMIT: there may be more).
   */
  async fetchAndClaim(
    c: ConsumerRef,
    filter: string,
    ackWaitMs: number,
    limit: number,
  ): Promise<{ claimed: StoredEvent[]; read: number }> {
    const rows = (await this.ds.query(
      `WITH due AS (
         SELECT seq FROM bus.pending WHERE stream = $1 AND durable = $2 AND next_at <= now()
          ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED),
       old AS (
         UPDATE bus.pending p SET deliveries = p.deliveries + 1, next_at = now() + $3::int * interval '1 millisecond'
           FROM due WHERE p.stream = $1 AND p.durable = $2 AND p.seq = due.seq
         RETURNING p.seq, p.deliveries),
       ev AS (
         SELECT e.seq, e.subject FROM bus.events e
          WHERE e.seq > (SELECT cursor FROM bus.consumers WHERE stream = $1 AND durable = $2)
          ORDER BY e.seq LIMIT ${FETCH_LIMIT}),
       matched AS (
         SELECT seq, row_number() OVER (ORDER BY seq) <= ${limit} - (SELECT count(*) FROM due) AS now_claimed
           FROM ev WHERE subject ~ $4),
       taken AS (
         INSERT INTO bus.pending (stream, durable, seq, deliveries, next_at)
         SELECT $1, $2, seq, CASE WHEN now_claimed THEN 1 ELSE 0 END,
                CASE WHEN now_claimed THEN now() + $3::int * interval '1 millisecond' ELSE now() END
           FROM matched ON CONFLICT DO NOTHING RETURNING seq, deliveries),
       moved AS (
         UPDATE bus.consumers SET cursor = GREATEST(cursor, (SELECT max(seq) FROM ev))
          WHERE stream = $1 AND durable = $2 AND EXISTS (SELECT 1 FROM ev))
       SELECT r.read, c.seq, c.deliveries, e.subject, e.msg_id, e.payload
         FROM (SELECT count(*)::int AS read FROM ev) r
         LEFT JOIN ((SELECT seq, deliveries FROM old UNION ALL SELECT seq, deliveries FROM taken WHERE deliveries = 1) c
                    JOIN bus.events e ON e.seq = c.seq) ON true`,
      [c.stream, c.durable, ackWaitMs, subjectRegex(filter)],
    )) as {
      read: number;
      seq: string | null;
      deliveries: number;
      subject: string;
      msg_id: string | null;
      payload: string;
    }[];
    const claimed = rows
      .filter((r) => r.seq !== null)
      .map((r) => ({
        seq: Number(r.seq),
        deliveries: r.deliveries,
        subject: r.subject,
        msgId: r.msg_id ?? undefined,
        payload: r.payload,
      }))
      .sort((a, b) => a.seq - b.seq);
    return { claimed, read: rows[0]?.read ?? 0 };
  }

  async ack(c: ConsumerRef, seqs: number[]): Promise<void> {
    await this.ds.query(`DELETE FROM bus.pending WHERE stream = $1 AND durable = $2 AND seq = ANY($3::bigint[])`, [
      c.stream,
      c.durable,
      seqs,
    ]);
  }

  async retryLater(c: ConsumerRef, seq: number, delayMs: number): Promise<void> {
    await this.ds.query(
      `UPDATE bus.pending SET next_at = now() + $4::int * interval '1 millisecond' WHERE stream = $1 AND durable = $2 AND seq = $3`,
      [c.stream, c.durable, seq, delayMs],
    );
  }

  /**
   * Messages the consumer has not acknowledged: taken and pending, plus stored events past its
   * cursor that match its filter (read at scrape time for hub_bus_consumer_pending).
   */
  async lag(c: ConsumerRef, filter: string): Promise<number> {
    const [row] = (await this.ds.query(
      `SELECT (SELECT count(*) FROM bus.pending WHERE stream = $1 AND durable = $2)
            + (SELECT count(*) FROM bus.events WHERE subject ~ $3
                  AND seq > (SELECT cursor FROM bus.consumers WHERE stream = $1 AND durable = $2)) AS n`,
      [c.stream, c.durable, subjectRegex(filter)],
    )) as { n: string | number }[];
    return Number(row?.n ?? 0);
  }

  /**
   * EventBus.processedThrough: below the consumer's first pending message and below the first
   * event past its cursor that matches its filter, else the last event stored (one snapshot; the
   * appends of the one process that owns this database are written one statement after another).
   */
  async processedThrough(c: ConsumerRef): Promise<number> {
    const filter = await this.filterOf(c);
    if (filter === undefined) return 0;
    const [row] = (await this.ds.query(
      `SELECT LEAST(
         (SELECT min(seq) - 1 FROM bus.pending WHERE stream = $1 AND durable = $2),
         (SELECT min(e.seq) - 1 FROM bus.events e
           WHERE e.seq > (SELECT cursor FROM bus.consumers WHERE stream = $1 AND durable = $2) AND e.subject ~ $3),
         -- The last event stored (or read, if the retention pruned it since).
         GREATEST((SELECT COALESCE(max(seq), 0) FROM bus.events), (SELECT COALESCE(max(cursor), 0) FROM bus.consumers))) AS w`,
      [c.stream, c.durable, subjectRegex(filter)],
    )) as { w: string | number }[];
    return Number(row?.w ?? 0);
  }

  /** The consumer's filter (read once, then kept: ensureConsumer is the only writer); none when it does not exist. */
  private async filterOf(c: ConsumerRef): Promise<string | undefined> {
    const known = this.filters.get(consumerKey(c));
    if (known !== undefined) return known;
    const [consumer] = (await this.ds.query(`SELECT filter FROM bus.consumers WHERE stream = $1 AND durable = $2`, [
      c.stream,
      c.durable,
    ])) as { filter: string }[];
    if (consumer) this.filters.set(consumerKey(c), consumer.filter);
    return consumer?.filter;
  }

  /** Milliseconds until the consumer's next pending message is due; null when none is pending. */
  async nextDueInMs(c: ConsumerRef): Promise<number | null> {
    const [row] = (await this.ds.query(
      `SELECT EXTRACT(EPOCH FROM (MIN(next_at) - now())) * 1000 AS ms FROM bus.pending WHERE stream = $1 AND durable = $2`,
      [c.stream, c.durable],
    )) as { ms: string | number | null }[];
    return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
  }

  /**
   * When nothing else vacuums this database, VACUUM (ANALYZE) of the bus's tables past
   * autovacuum's thresholds (each service vacuums its own schema: ServiceVacuum); answers the
   * tables vacuumed (none when autovacuum runs).
   */
  async vacuumIfNobodyDoes(): Promise<string[]> {
    if (!(await vacuumedByNobody(this.ds))) return [];
    return vacuumLikeAutovacuum(this.ds, BUS_SCHEMA);
  }

  /** Drops events past the retention period that no consumer still holds. */
  async prune(): Promise<void> {
    await this.ds.query(
      `DELETE FROM bus.events e WHERE e.published_at < now() - make_interval(days => $1)
          AND NOT EXISTS (SELECT 1 FROM bus.pending p WHERE p.seq = e.seq)`,
      [this.retentionDays],
    );
  }
}

const consumerKey = (c: ConsumerRef): string => `${c.stream}\u0000${c.durable}`;
