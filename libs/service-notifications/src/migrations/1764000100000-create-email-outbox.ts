import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The e-mail outbox of the shared mailer (webhook suspensions, job status changes). */
export class CreateNotificationsEmailOutbox1764000100000 implements MigrationInterface {
  name = 'CreateNotificationsEmailOutbox1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE notifications.email_outbox (
      id char(24) PRIMARY KEY,
      recipient varchar(254) NOT NULL,
      subject varchar(300) NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      sent_via varchar(8),
      attempts int NOT NULL DEFAULT 0,
      last_error text)`);
    await q.query(`CREATE INDEX email_outbox_pending ON notifications.email_outbox (created_at) WHERE sent_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notifications.email_outbox`);
  }
}
