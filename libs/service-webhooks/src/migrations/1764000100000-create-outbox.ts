import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The transactional outbox of the service's events and its relay lease (decision 0007). */
export class CreateWebhooksOutbox1764000100000 implements MigrationInterface {
  name = 'CreateWebhooksOutbox1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.outbox (
      id char(24) PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      subject text NOT NULL,
      payload text NOT NULL,
      aggregate varchar(64),
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      attempts int NOT NULL DEFAULT 0,
      last_error text)`);
    await q.query(`CREATE INDEX outbox_pending ON webhooks.outbox (seq) WHERE sent_at IS NULL`);
    await q.query(`CREATE INDEX outbox_sent_at ON webhooks.outbox (sent_at) WHERE sent_at IS NOT NULL`);
    await q.query(`CREATE TABLE webhooks.outbox_relay (id int PRIMARY KEY, holder varchar(64), lease_until timestamptz)`);
    await q.query(`INSERT INTO webhooks.outbox_relay (id) VALUES (1)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhooks.outbox_relay`);
    await q.query(`DROP TABLE webhooks.outbox`);
  }
}
