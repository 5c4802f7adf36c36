import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createPartitions, nextUnit, type PartitionedTable, unitStart } from '@hub/persistence';

/**
 * The delivery log's partitioning (decision 0206): one partition per week of `created_at` (a week,
 * not a day: each statement is planned over every partition and its eight indexes, and with a
 * partition a day the planning of a page cost more than reading it).
 */
export const DELIVERY_LOGS_PARTITIONS: PartitionedTable = {
  schema: 'webhooks',
  table: 'delivery_logs',
  column: 'created_at',
  unit: 'week',
};

/** Weeks created ahead of the current one, here and by each maintenance pass (DeliveryLogStore). */
export const DELIVERY_LOG_WEEKS_AHEAD = 2;

/** The log's indexes, each the same on the old table and the partitioned one (so the old ones are attached, not rebuilt). */
const INDEXES: [string, string][] = [
  ['recent', '(webhook_id, created_at DESC, seq DESC)'],
  ['failed', '(webhook_id, created_at DESC, seq DESC) WHERE NOT ok'],
  ['http', '(webhook_id, status, created_at DESC, seq DESC)'],
  ['event', '(webhook_id, event, created_at DESC, seq DESC)'],
  ['repo', '(webhook_id, repo, created_at DESC, seq DESC)'],
  ['delivery', '(delivery_id)'],
  ['words', 'USING gin (search)'],
  ['no_answer', '(webhook_id, created_at DESC, seq DESC) WHERE status IS NULL'],
];

/**
 * The delivery log (one row per attempt) becomes a table partitioned by week of `created_at`, so
 * that retention (HUB_WEBHOOK_LOG_RETENTION_DAYS) drops whole weeks instead of `DELETE`ing rows
 * (decision 0206). The old table is not copied: it becomes one partition holding everything up to
 * the next week (`MINVALUE` to next Monday, 00:00 UTC), its indexes attached as they are (only the new
 * primary key `(id, created_at)` is built), and is dropped whole once that Monday is past
 * retention. The id sequence moves to the new table, which the release before this one inserts
 * into unchanged (it names no conflict target).
 */
export class PartitionDeliveryLogs1797000100000 implements MigrationInterface {
  name = 'PartitionDeliveryLogs1797000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE webhooks.delivery_logs IN ACCESS EXCLUSIVE MODE`);
    const [{ newest }] = (await q.query(`SELECT max(created_at) AS newest FROM webhooks.delivery_logs`)) as {
      newest: Date | null;
    }[];
    const now = new Date();
    const last = newest && newest > now ? newest : now;
    const unit = DELIVERY_LOGS_PARTITIONS.unit;
    const boundary = nextUnit(unit, unitStart(unit, last));
    const ahead = new Date(boundary.getTime() + DELIVERY_LOG_WEEKS_AHEAD * 7 * 86_400_000);
    if (newest === null) {
      // Nothing logged yet (a new install): no old partition, today's is the first.
      await q.query(`ALTER SEQUENCE webhooks.delivery_logs_seq_seq OWNED BY NONE`);
      await q.query(`DROP TABLE webhooks.delivery_logs`);
      await this.createPartitioned(q);
      await createPartitions(q, DELIVERY_LOGS_PARTITIONS, now, ahead);
      return;
    }
    const old = `delivery_logs_until_${boundary.toISOString().slice(0, 10).replace(/-/g, '')}`;
    await q.query(`ALTER TABLE webhooks.delivery_logs RENAME TO ${old}`);
    await q.query(`ALTER TABLE webhooks.${old} DROP CONSTRAINT delivery_logs_pkey`);
    await q.query(`DROP INDEX IF EXISTS webhooks.delivery_logs_created`);
    for (const [name] of INDEXES) await q.query(`ALTER INDEX webhooks.delivery_logs_${name} RENAME TO ${old}_${name}`);
    await q.query(
      `ALTER TABLE webhooks.${old} RENAME CONSTRAINT delivery_logs_webhook_id_fkey TO ${old}_webhook_id_fkey`,
    );
    // Proven before the attach, so that the attach does not read the table again to check it.
    await q.query(
      `ALTER TABLE webhooks.${old} ADD CONSTRAINT ${old}_range CHECK (created_at < '${boundary.toISOString()}')`,
    );
    await this.createPartitioned(q);
    await q.query(
      `ALTER TABLE webhooks.delivery_logs ATTACH PARTITION webhooks.${old} FOR VALUES FROM (MINVALUE) TO ('${boundary.toISOString()}')`,
    );
    await q.query(`ALTER TABLE webhooks.${old} DROP CONSTRAINT ${old}_range`);
    await createPartitions(q, DELIVERY_LOGS_PARTITIONS, boundary, ahead);
  }

  /** The partitioned table, its indexes, and the id sequence (kept from the old table) moved to it. */
  private async createPartitioned(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.delivery_logs (
      id char(24) NOT NULL,
      seq bigint NOT NULL DEFAULT nextval('webhooks.delivery_logs_seq_seq'),
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      delivery_id char(24) NOT NULL,
      trigger varchar(12) NOT NULL,
      attempt int NOT NULL,
      request_headers jsonb NOT NULL,
      payload text NOT NULL,
      status int,
      response_headers jsonb NOT NULL,
      response_body text NOT NULL,
      duration_ms int NOT NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      ok boolean GENERATED ALWAYS AS (status IS NOT NULL AND status BETWEEN 200 AND 299) STORED,
      event varchar(200),
      repo varchar(200),
      search tsvector,
      PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at)`);
    await q.query(`ALTER SEQUENCE webhooks.delivery_logs_seq_seq OWNED BY webhooks.delivery_logs.seq`);
    for (const [name, definition] of INDEXES)
      await q.query(`CREATE INDEX delivery_logs_${name} ON webhooks.delivery_logs ${definition}`);
  }

  /** Back to one table (a copy of every row); rolling back a release means its images, not this. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.delivery_logs RENAME TO delivery_logs_partitioned`);
    await q.query(
      `CREATE TABLE webhooks.delivery_logs (LIKE webhooks.delivery_logs_partitioned INCLUDING DEFAULTS INCLUDING GENERATED)`,
    );
    await q.query(`ALTER SEQUENCE webhooks.delivery_logs_seq_seq OWNED BY webhooks.delivery_logs.seq`);
    await q.query(`INSERT INTO webhooks.delivery_logs SELECT * FROM webhooks.delivery_logs_partitioned`);
    await q.query(`DROP TABLE webhooks.delivery_logs_partitioned`);
    await q.query(`ALTER TABLE webhooks.delivery_logs ADD PRIMARY KEY (id)`);
    await q.query(
      `ALTER TABLE webhooks.delivery_logs ADD FOREIGN KEY (webhook_id) REFERENCES webhooks.webhooks(id) ON DELETE CASCADE`,
    );
    for (const [name, definition] of INDEXES)
      await q.query(`CREATE INDEX delivery_logs_${name} ON webhooks.delivery_logs ${definition}`);
    await q.query(`CREATE INDEX delivery_logs_created ON webhooks.delivery_logs (created_at)`);
  }
}
