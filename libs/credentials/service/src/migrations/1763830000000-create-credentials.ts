import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createEmailOutboxTableV1 } from '@hub/messaging';

export class CreateCredentials1763830000000 implements MigrationInterface {
  name = 'CreateCredentials1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credentials.users (
      id char(24) PRIMARY KEY,
      name varchar(96) NOT NULL UNIQUE,
      email varchar(254) NOT NULL,
      fullname varchar(200) NOT NULL DEFAULT '',
      is_pro boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE credentials.access_tokens (
      id char(24) PRIMARY KEY,
      user_id char(24) NOT NULL REFERENCES credentials.users(id) ON DELETE CASCADE,
      token_hash char(64) NOT NULL UNIQUE,
      last4 char(4) NOT NULL,
      role varchar(16) NOT NULL,
      display_name varchar(100) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz)`);
    await q.query(`CREATE INDEX access_tokens_user_id ON credentials.access_tokens (user_id)`);
    await q.query(`CREATE TABLE credentials.org_token_revocations (
      token_id char(24) NOT NULL REFERENCES credentials.access_tokens(id) ON DELETE CASCADE,
      organization_id char(24) NOT NULL,
      organization_name varchar(96) NOT NULL,
      revoked_by char(24),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (token_id, organization_id))`);
    await createEmailOutboxTableV1(q, 'credentials');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credentials.email_outbox`);
    await q.query(`DROP TABLE credentials.org_token_revocations`);
    await q.query(`DROP TABLE credentials.access_tokens`);
    await q.query(`DROP TABLE credentials.users`);
  }
}
