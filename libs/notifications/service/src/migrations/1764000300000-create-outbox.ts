import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createOutboxTablesV1, dropOutboxTablesV1 } from '@hub/messaging';

/** The transactional outbox (decision 0007): `hub.notifications.inbox.changed` leaves with the change that caused it. */
export class CreateNotificationsOutbox1764000300000 implements MigrationInterface {
  name = 'CreateNotificationsOutbox1764000300000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxTablesV1(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTablesV1(q, 'notifications');
  }
}
