import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createEmailOutboxTableV1 } from '@hub/messaging';

/** The e-mail outbox of the shared mailer (webhook suspensions, job status changes). */
export class CreateNotificationsEmailOutbox1764000100000 implements MigrationInterface {
  name = 'CreateNotificationsEmailOutbox1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await createEmailOutboxTableV1(q, 'notifications');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notifications.email_outbox`);
  }
}
