import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The trace context of the intake that queued a delivery (decision 0504): its attempts continue that trace. */
export class DeliveryTrace1795697703961 implements MigrationInterface {
  name = 'DeliveryTrace1795697703961';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.deliveries ADD COLUMN traceparent varchar(55)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.deliveries DROP COLUMN traceparent`);
  }
}
