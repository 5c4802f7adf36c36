import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Bulk recovery (decision 0502): a recovery puts a webhook's failed deliveries of a window back in
 * the queue, marked with its id; its counts are read from those rows until none is pending, then
 * kept in its own row.
 */
export class Recoveries1795697703959 implements MigrationInterface {
  name = 'Recoveries1795697703959';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.recoveries (
      id char(24) PRIMARY KEY,
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      since timestamptz NOT NULL,
      until timestamptz NOT NULL,
      state varchar(12) NOT NULL DEFAULT 'running',
      queued int NOT NULL DEFAULT 0,
      sent int NOT NULL DEFAULT 0,
      succeeded int NOT NULL DEFAULT 0,
      failed int NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz)`);
    await q.query(`CREATE INDEX recoveries_webhook ON webhooks.recoveries (webhook_id, state)`);
    await q.query(`ALTER TABLE webhooks.deliveries ADD COLUMN recovery_id char(24)`);
    await q.query(
      `CREATE INDEX deliveries_recovery ON webhooks.deliveries (recovery_id) WHERE recovery_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks.deliveries_recovery`);
    await q.query(`ALTER TABLE webhooks.deliveries DROP COLUMN recovery_id`);
    await q.query(`DROP TABLE webhooks.recoveries`);
  }
}
