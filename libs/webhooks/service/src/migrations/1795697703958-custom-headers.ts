import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Custom headers of a webhook (decision 0502): the whole list sealed like the secret (AES-256-GCM). */
export class CustomHeaders1795697703958 implements MigrationInterface {
  name = 'CustomHeaders1795697703958';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.webhooks ADD COLUMN headers_enc text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks.webhooks DROP COLUMN headers_enc`);
  }
}
