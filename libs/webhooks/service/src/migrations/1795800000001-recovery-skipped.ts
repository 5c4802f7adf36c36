import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * How many failed deliveries of its window a recovery left out because a recovery resent them
 * within the cool-down (decision 0505). Expand only: a column with a constant default (no rewrite).
 */
export class RecoverySkipped1795800000001 implements MigrationInterface {
  name = 'RecoverySkipped1795800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.recoveries ADD COLUMN skipped int NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX recoveries_started ON webhooks.recoveries (webhook_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks.recoveries_started`);
    await q.query(`ALTER TABLE webhooks.recoveries DROP COLUMN skipped`);
  }
}
