import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The daily trigger limit as hourly counters per webhook (decision 0501): matching sums at most 24
 * small rows instead of counting the webhook's deliveries of the last day, which grew with the
 * traffic. Filled from the deliveries already queued in the last 24 h.
 */
export class CreateTriggerCounts1764000200000 implements MigrationInterface {
  name = 'CreateTriggerCounts1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.trigger_counts (
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      hour timestamptz NOT NULL,
      count int NOT NULL,
      PRIMARY KEY (webhook_id, hour))`);
    await q.query(`INSERT INTO webhooks.trigger_counts (webhook_id, hour, count)
      SELECT webhook_id, date_trunc('hour', created_at), count(*) FROM webhooks.deliveries
      WHERE created_at > now() - interval '24 hours' GROUP BY 1, 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhooks.trigger_counts`);
  }
}
