import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createOutboxTablesV1, dropOutboxTablesV1 } from '@hub/messaging';

/** The transactional outbox of the service's events and its relay lease (decision 0007). */
export class CreateWebhooksOutbox1764000100000 implements MigrationInterface {
  name = 'CreateWebhooksOutbox1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTablesV1(q, 'webhooks');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTablesV1(q, 'webhooks');
  }
}
