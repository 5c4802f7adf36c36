/**
 * The e-mail outbox of `OutboxMailer` (version 1) in a service's own schema: each service that
 * sends mail calls this from one of its migrations. Never change it: a change of shape is a new
 * function (v2) called by a new migration, so a landed migration keeps doing what it did.
 */
export async function createEmailOutboxTableV1(
  q: { query(sql: string): Promise<unknown> },
  schema: string,
): Promise<void> {
  await q.query(`CREATE TABLE ${schema}.email_outbox (
      id char(24) PRIMARY KEY,
      recipient varchar(254) NOT NULL,
      subject varchar(300) NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      sent_via varchar(8),
      attempts int NOT NULL DEFAULT 0,
      last_error text)`);
  await q.query(`CREATE INDEX email_outbox_pending ON ${schema}.email_outbox (created_at) WHERE sent_at IS NULL`);
}
