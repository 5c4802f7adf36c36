import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Delivery options per webhook (issue 27 item 4, decision 0503). `next_at` is the pacing state
 * (the next free slot, shared by every replica: claims lock the row). A delivery of a webhook with
 * options is `paced`: the plain claim skips it (its partial index holds only the others) and the
 * paced claim takes it in event order (`event_seq`, the bus's stream sequence).
 */
export class DeliveryOptions1795697703960 implements MigrationInterface {
  name = 'DeliveryOptions1795697703960';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.delivery_options (
      webhook_id char(24) PRIMARY KEY REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      max_per_second float8,
      ordered boolean NOT NULL DEFAULT false,
      next_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`ALTER TABLE webhooks.deliveries ADD COLUMN paced boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE webhooks.deliveries ADD COLUMN event_seq bigint`);
    await q.query(
      `CREATE INDEX deliveries_due_plain ON webhooks.deliveries (due_at) WHERE state = 'pending' AND NOT paced`,
    );
    await q.query(`DROP INDEX webhooks.deliveries_due`);
    await q.query(
      `CREATE INDEX deliveries_paced ON webhooks.deliveries (webhook_id, event_seq, created_at, id) WHERE state = 'pending' AND paced`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX deliveries_due ON webhooks.deliveries (due_at) WHERE state = 'pending'`);
    await q.query(`DROP INDEX webhooks.deliveries_paced`);
    await q.query(`DROP INDEX webhooks.deliveries_due_plain`);
    await q.query(`ALTER TABLE webhooks.deliveries DROP COLUMN event_seq`);
    await q.query(`ALTER TABLE webhooks.deliveries DROP COLUMN paced`);
    await q.query(`DROP TABLE webhooks.delivery_options`);
  }
}
