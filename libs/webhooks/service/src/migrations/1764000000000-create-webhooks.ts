import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Webhooks, their watched names (the matching index), the delivery queue (one row per event and
 * webhook, claimed with FOR UPDATE SKIP LOCKED under a lease) and the delivery log (decision 0500).
 */
export class CreateWebhooks1764000000000 implements MigrationInterface {
  name = 'CreateWebhooks1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhooks.webhooks (
      id char(24) PRIMARY KEY,
      owner_id char(24) NOT NULL,
      owner_name varchar(96) NOT NULL,
      url text,
      job jsonb,
      job_source_id char(24),
      secret_enc text,
      domains text[] NOT NULL,
      disabled varchar(32) NOT NULL DEFAULT 'false',
      suspended_reason text,
      failing_since timestamptz,
      failures int NOT NULL DEFAULT 0,
      last_trigger_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX webhooks_owner ON webhooks.webhooks (owner_id, created_at)`);
    await q.query(`CREATE TABLE webhooks.watched (
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      type varchar(16) NOT NULL,
      name varchar(200) NOT NULL,
      position int NOT NULL,
      PRIMARY KEY (webhook_id, position))`);
    // Matching looks up an event's repo and owner here: an index, never a scan per event.
    await q.query(`CREATE INDEX watched_lookup ON webhooks.watched (lower(name), type)`);
    await q.query(`CREATE TABLE webhooks.deliveries (
      id char(24) PRIMARY KEY,
      event_id varchar(64) NOT NULL,
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      subject text NOT NULL,
      payload text NOT NULL,
      state varchar(12) NOT NULL DEFAULT 'pending',
      attempts int NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL DEFAULT now(),
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (event_id, webhook_id))`);
    await q.query(`CREATE INDEX deliveries_due ON webhooks.deliveries (due_at) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX deliveries_webhook ON webhooks.deliveries (webhook_id, created_at)`);
    await q.query(`CREATE TABLE webhooks.delivery_logs (
      id char(24) PRIMARY KEY,
      seq bigserial NOT NULL,
      webhook_id char(24) NOT NULL REFERENCES webhooks.webhooks(id) ON DELETE CASCADE,
      delivery_id char(24) NOT NULL,
      trigger varchar(12) NOT NULL,
      attempt int NOT NULL,
      request_headers jsonb NOT NULL,
      payload text NOT NULL,
      status int,
      response_headers jsonb NOT NULL,
      response_body text NOT NULL,
      duration_ms int NOT NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX delivery_logs_webhook ON webhooks.delivery_logs (webhook_id, seq DESC)`);
    await q.query(`CREATE INDEX delivery_logs_created ON webhooks.delivery_logs (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhooks.delivery_logs`);
    await q.query(`DROP TABLE webhooks.deliveries`);
    await q.query(`DROP TABLE webhooks.watched`);
    await q.query(`DROP TABLE webhooks.webhooks`);
  }
}
