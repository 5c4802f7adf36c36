import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The fair claim (decision 0505) walks the webhooks that have plain deliveries pending (a skip scan)
 * and takes each one's oldest due deliveries: an index by (webhook_id, due_at) over pending plain
 * rows answers both. Built CONCURRENTLY (deliveries go on being queued meanwhile), hence no
 * transaction; an index left invalid by a failed build is dropped and built again. Expand only: the
 * old claim's `deliveries_due_plain` stays for replicas still running it.
 */
export class FairClaim1795800000000 implements MigrationInterface {
  name = 'FairClaim1795800000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const invalid = (await q.query(
      `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'webhooks' AND c.relname = 'deliveries_plain_webhook' AND NOT i.indisvalid`,
    )) as unknown[];
    if (invalid.length > 0) await q.query(`DROP INDEX CONCURRENTLY webhooks.deliveries_plain_webhook`);
    await q.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_plain_webhook ON webhooks.deliveries (webhook_id, due_at) WHERE state = 'pending' AND NOT paced`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhooks.deliveries_plain_webhook`);
  }
}
