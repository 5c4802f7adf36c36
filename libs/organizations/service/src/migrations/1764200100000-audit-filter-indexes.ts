import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Indexes for the export's `q` terms, one per field, each in the keyset order of the export
 * (organization, value, newest first): a sparse `author:`, `type:` or `ip:` filter walks only
 * the matching events instead of every event of the organization (on 1M events, a filter that
 * matches nothing read all of them, past the RPC timeout). And the applied time of repo event
 * ids, which are pruned past the bus retention.
 */
export class AuditFilterIndexes1764200100000 implements MigrationInterface {
  name = 'AuditFilterIndexes1764200100000';

  async up(q: QueryRunner): Promise<void> {
    for (const column of ['author', 'type', 'ip']) {
      await q.query(
        `CREATE INDEX audit_events_${column} ON organizations.audit_events (organization_id, ${column}, created_at DESC, id DESC)`,
      );
    }
    await q.query(`CREATE INDEX repo_events_applied_at ON organizations.repo_events_applied (applied_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX organizations.repo_events_applied_at`);
    for (const column of ['author', 'type', 'ip']) await q.query(`DROP INDEX organizations.audit_events_${column}`);
  }
}
