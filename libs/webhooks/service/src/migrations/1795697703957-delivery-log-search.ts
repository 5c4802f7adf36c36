import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Searchable delivery log (decision 0502): the outcome, the event (`scope.action`) and the repo of
 * each attempt as columns, and one index per filter, each ending in the page order
 * (created_at DESC, seq DESC) so a filtered page is an index range read newest first. `q` is a GIN
 * over the words of the payload (`simple` text search: no extension needed, PGlite has it too;
 * `/` breaks words, so `alice/model` is two words, as it is in a URL).
 * Rows logged before this migration have no event or repo (they match no such filter).
 */
export class DeliveryLogSearch1795697703957 implements MigrationInterface {
  name = 'DeliveryLogSearch1795697703957';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.delivery_logs
      ADD COLUMN ok boolean GENERATED ALWAYS AS (status IS NOT NULL AND status BETWEEN 200 AND 299) STORED,
      ADD COLUMN event varchar(200),
      ADD COLUMN repo varchar(200)`);
    await q.query(`DROP INDEX webhooks.delivery_logs_webhook`);
    await q.query(
      `CREATE INDEX delivery_logs_recent ON webhooks.delivery_logs (webhook_id, created_at DESC, seq DESC)`,
    );
    await q.query(
      `CREATE INDEX delivery_logs_failed ON webhooks.delivery_logs (webhook_id, created_at DESC, seq DESC) WHERE NOT ok`,
    );
    await q.query(
      `CREATE INDEX delivery_logs_http ON webhooks.delivery_logs (webhook_id, status, created_at DESC, seq DESC)`,
    );
    await q.query(
      `CREATE INDEX delivery_logs_event ON webhooks.delivery_logs (webhook_id, event, created_at DESC, seq DESC)`,
    );
    await q.query(
      `CREATE INDEX delivery_logs_repo ON webhooks.delivery_logs (webhook_id, repo, created_at DESC, seq DESC)`,
    );
    await q.query(`CREATE INDEX delivery_logs_delivery ON webhooks.delivery_logs (delivery_id)`);
    await q.query(
      `CREATE INDEX delivery_logs_text ON webhooks.delivery_logs USING gin (to_tsvector('simple', translate(left(payload, 65536), '/', ' ')))`,
    );
    await q.query(
      `CREATE INDEX deliveries_pending_webhook ON webhooks.deliveries (webhook_id) WHERE state = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks.deliveries_pending_webhook`);
    for (const name of ['text', 'delivery', 'repo', 'event', 'http', 'failed', 'recent'])
      await q.query(`DROP INDEX webhooks.delivery_logs_${name}`);
    await q.query(`ALTER TABLE webhooks.delivery_logs DROP COLUMN ok, DROP COLUMN event, DROP COLUMN repo`);
    await q.query(`CREATE INDEX delivery_logs_webhook ON webhooks.delivery_logs (webhook_id, seq DESC)`);
  }
}
