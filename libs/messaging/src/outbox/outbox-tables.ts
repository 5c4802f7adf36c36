import { type QueryRunner } from 'typeorm';

/**
 * The outbox tables of decision 0007, version 1, in a service's own schema: each service's
 * migration calls this once. Never change it: a change of shape is a new function (v2) called
 * by a new migration, so a landed migration keeps doing what it did.
 */
export async function createOutboxTablesV1(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`CREATE TABLE ${schema}.outbox (
    id char(24) PRIMARY KEY,
    seq bigserial NOT NULL UNIQUE,
    subject text NOT NULL,
    payload text NOT NULL,
    aggregate varchar(64),
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    attempts int NOT NULL DEFAULT 0,
    last_error text)`);
  await q.query(`CREATE INDEX outbox_pending ON ${schema}.outbox (seq) WHERE sent_at IS NULL`);
  await q.query(`CREATE INDEX outbox_sent_at ON ${schema}.outbox (sent_at) WHERE sent_at IS NOT NULL`);
  await q.query(
    `CREATE TABLE ${schema}.outbox_relay (id int PRIMARY KEY, holder varchar(64), lease_until timestamptz)`,
  );
  await q.query(`INSERT INTO ${schema}.outbox_relay (id) VALUES (1)`);
}

export async function dropOutboxTablesV1(q: QueryRunner, schema: string): Promise<void> {
  await q.query(`DROP TABLE ${schema}.outbox_relay`);
  await q.query(`DROP TABLE ${schema}.outbox`);
}
