import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createDefaultPartition, createPartitions, type PartitionedTable } from '@hub/persistence';

/** The audit log's partitioning (decision 0206): one partition per month of `created_at`. */
export const AUDIT_EVENTS_PARTITIONS: PartitionedTable = {
  schema: 'organizations',
  table: 'audit_events',
  column: 'created_at',
  unit: 'month',
};

/** Months created ahead of the current one, here and by each maintenance pass (AuditRetention). */
export const AUDIT_MONTHS_AHEAD = 2;

const COLUMNS = 'id, organization_id, created_at, type, author, ip, doc, tx';

/**
 * The audit log becomes a table partitioned by month of `created_at`, so that retention
 * (HUB_AUDIT_RETENTION_DAYS) drops whole months instead of deleting rows (decision 0206). Every
 * stored event is copied with its `tx` (the audit streams' order), then the old table goes.
 *
 * A partitioned table's unique keys must hold the partition key: the primary key becomes
 * `(id, created_at)`. An event keeps its `createdAt` across redeliveries, so the ingest's
 * `ON CONFLICT (id, created_at)` still stores it once. The release before this one inserts with
 * `ON CONFLICT (id)`, which this table refuses: its ingest batches fail and stay on the bus until
 * an upgraded replica stores them (JetStream redelivers; nothing is lost, decision 0206).
 */
export class PartitionAuditEvents1797000100000 implements MigrationInterface {
  name = 'PartitionAuditEvents1797000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE organizations.audit_events IN SHARE MODE`);
    await q.query(`ALTER TABLE organizations.audit_events RENAME TO audit_events_unpartitioned`);
    for (const index of ['newest', 'author', 'type', 'ip', 'stream_order'])
      await q.query(`DROP INDEX organizations.audit_events_${index}`);
    await q.query(
      `ALTER TABLE organizations.audit_events_unpartitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_unpartitioned_pkey`,
    );
    await q.query(`CREATE TABLE organizations.audit_events (
      id char(24) NOT NULL,
      organization_id char(24) NOT NULL,
      created_at timestamptz NOT NULL,
      type varchar(100) NOT NULL,
      author varchar(96) NOT NULL,
      ip varchar(64),
      doc text NOT NULL,
      tx bigint DEFAULT (pg_current_xact_id()::text::bigint),
      PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at)`);
    await q.query(
      `CREATE INDEX audit_events_newest ON organizations.audit_events (organization_id, created_at DESC, id DESC)`,
    );
    for (const column of ['author', 'type', 'ip'])
      await q.query(
        `CREATE INDEX audit_events_${column} ON organizations.audit_events (organization_id, ${column}, created_at DESC, id DESC)`,
      );
    await q.query(
      `CREATE INDEX audit_events_stream_order ON organizations.audit_events (organization_id, tx, id) WHERE tx IS NOT NULL`,
    );
    await createDefaultPartition(q, AUDIT_EVENTS_PARTITIONS);
    const [range] = (await q.query(
      `SELECT min(created_at) AS oldest, max(created_at) AS newest FROM organizations.audit_events_unpartitioned`,
    )) as { oldest: Date | null; newest: Date | null }[];
    const now = new Date();
    const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + AUDIT_MONTHS_AHEAD, 1));
    const oldest = range.oldest && range.oldest < now ? range.oldest : now;
    const newest = range.newest && range.newest > ahead ? range.newest : ahead;
    await createPartitions(q, AUDIT_EVENTS_PARTITIONS, oldest, newest);
    await q.query(
      `INSERT INTO organizations.audit_events (${COLUMNS}) SELECT ${COLUMNS} FROM organizations.audit_events_unpartitioned`,
    );
    await q.query(`DROP TABLE organizations.audit_events_unpartitioned`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations.audit_events RENAME TO audit_events_partitioned`);
    for (const index of ['newest', 'author', 'type', 'ip', 'stream_order'])
      await q.query(`DROP INDEX organizations.audit_events_${index}`);
    await q.query(
      `ALTER TABLE organizations.audit_events_partitioned RENAME CONSTRAINT audit_events_pkey TO audit_events_partitioned_pkey`,
    );
    await q.query(`CREATE TABLE organizations.audit_events (
      id char(24) PRIMARY KEY,
      organization_id char(24) NOT NULL,
      created_at timestamptz NOT NULL,
      type varchar(100) NOT NULL,
      author varchar(96) NOT NULL,
      ip varchar(64),
      doc text NOT NULL,
      tx bigint DEFAULT (pg_current_xact_id()::text::bigint))`);
    await q.query(
      `INSERT INTO organizations.audit_events (${COLUMNS}) SELECT DISTINCT ON (id) ${COLUMNS} FROM organizations.audit_events_partitioned`,
    );
    await q.query(`DROP TABLE organizations.audit_events_partitioned`);
    await q.query(
      `CREATE INDEX audit_events_newest ON organizations.audit_events (organization_id, created_at DESC, id DESC)`,
    );
    for (const column of ['author', 'type', 'ip'])
      await q.query(
        `CREATE INDEX audit_events_${column} ON organizations.audit_events (organization_id, ${column}, created_at DESC, id DESC)`,
      );
    await q.query(
      `CREATE INDEX audit_events_stream_order ON organizations.audit_events (organization_id, tx, id) WHERE tx IS NOT NULL`,
    );
  }
}
