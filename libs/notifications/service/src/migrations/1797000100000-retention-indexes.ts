import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What retention reads (decision 0206): notifications by `updated_at` (read ones past
 * HUB_NOTIFICATIONS_READ_RETENTION_DAYS go; marking read changes no indexed column, so it stays a
 * heap-only update) and applied event ids by time (gone past the bus retention). Expand only.
 */
export class RetentionIndexes1797000100000 implements MigrationInterface {
  name = 'RetentionIndexes1797000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX notifications_updated ON notifications.notifications (updated_at)`);
    await q.query(`CREATE INDEX applied_events_at ON notifications.applied_events (applied_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications.applied_events_at`);
    await q.query(`DROP INDEX notifications.notifications_updated`);
  }
}
