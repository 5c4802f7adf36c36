import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Audit log streams (issue 39, decision 0411). Expand only: two new tables, and a column on the
 * audit log added without a default first (no table rewrite), its default set after, so that
 * only rows stored from now on carry it.
 *
 * `audit_events.tx` is the id of the transaction that stored the event: a stream reads its
 * organization's events in `(tx, id)` order, only below the oldest transaction still running
 * (`pg_snapshot_xmin`), so an insert that commits late can never be passed over.
 */
export class CreateAuditStreams1796000100000 implements MigrationInterface {
  name = 'CreateAuditStreams1796000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations.audit_events ADD COLUMN tx bigint`);
    await q.query(
      `ALTER TABLE organizations.audit_events ALTER COLUMN tx SET DEFAULT (pg_current_xact_id()::text::bigint)`,
    );
    await q.query(
      `CREATE INDEX audit_events_stream_order ON organizations.audit_events (organization_id, tx, id) WHERE tx IS NOT NULL`,
    );
    await q.query(`CREATE TABLE organizations.audit_streams (
      id char(24) PRIMARY KEY,
      organization_id char(24) NOT NULL,
      type varchar(16) NOT NULL,
      settings jsonb NOT NULL,
      credentials jsonb NOT NULL,
      hints jsonb NOT NULL,
      filter text[],
      paused boolean NOT NULL DEFAULT false,
      cursor_tx bigint NOT NULL,
      cursor_id char(24) NOT NULL DEFAULT '',
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      last_error text,
      failing_since timestamptz,
      failing boolean NOT NULL DEFAULT false,
      last_delivered_at timestamptz,
      dropped bigint NOT NULL DEFAULT 0,
      lease_owner varchar(64),
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX audit_streams_org ON organizations.audit_streams (organization_id, created_at)`);
    await q.query(`CREATE TABLE organizations.audit_stream_deliveries (
      id bigserial PRIMARY KEY,
      stream_id char(24) NOT NULL REFERENCES organizations.audit_streams (id) ON DELETE CASCADE,
      at timestamptz NOT NULL DEFAULT now(),
      kind varchar(16) NOT NULL,
      records integer NOT NULL,
      first_event_id char(24),
      last_event_id char(24),
      ok boolean NOT NULL,
      status integer,
      error text,
      latency_ms integer NOT NULL)`);
    await q.query(
      `CREATE INDEX audit_stream_deliveries_newest ON organizations.audit_stream_deliveries (stream_id, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.audit_stream_deliveries`);
    await q.query(`DROP TABLE organizations.audit_streams`);
    await q.query(`DROP INDEX organizations.audit_events_stream_order`);
    await q.query(`ALTER TABLE organizations.audit_events DROP COLUMN tx`);
  }
}
