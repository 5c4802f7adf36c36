import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The audit log of every organization, kept from `hub.audit.>`: `doc` is the event exactly as the
 * export answers it (spec 2.9), written once; the columns beside it are what `q` and the
 * newest-first cursor read. The id is the event's bus id, so a redelivery inserts nothing.
 */
export class CreateAuditEvents1764000200000 implements MigrationInterface {
  name = 'CreateAuditEvents1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.audit_events (
      id char(24) PRIMARY KEY,
      organization_id char(24) NOT NULL,
      created_at timestamptz NOT NULL,
      type varchar(100) NOT NULL,
      author varchar(96) NOT NULL,
      ip varchar(64),
      doc text NOT NULL)`);
    await q.query(
      `CREATE INDEX audit_events_newest ON organizations.audit_events (organization_id, created_at DESC, id DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.audit_events`);
  }
}
