import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Fewer index entries per delivery (decision 0510). `deliveries` keeps room on each page
 * (fillfactor 60), so the claim's update of a row (`lease_until`, `attempts`, in no index) is a HOT
 * update that touches no index; before, the rows were packed and every claim wrote a new entry in
 * each of the table's eight indexes. `deliveries_due_plain` goes: the fair claim (decision 0505)
 * reads `deliveries_plain_webhook`, and it was written for every queued row and every claim.
 *
 * Expand/contract: the release before this one runs the same fair claim, so it reads no index
 * this drops; the fillfactor applies to pages written from now on, without a rewrite. Without a
 * transaction: the index goes CONCURRENTLY (deliveries go on being queued meanwhile).
 */
export class DeliveriesHotClaim1797100000000 implements MigrationInterface {
  name = 'DeliveriesHotClaim1797100000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.deliveries SET (fillfactor = 60)`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS webhooks.deliveries_due_plain`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_due_plain ON webhooks.deliveries (due_at) WHERE state = 'pending' AND NOT paced`,
    );
    await q.query(`ALTER TABLE webhooks.deliveries RESET (fillfactor)`);
  }
}
