import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Console sessions (decision 0800): the SHA-256 of a random id, the token it was made from (or the
 * fingerprint of the admin token), and when it ends. A revoked or deleted token ends its sessions.
 */
export class ConsoleSessions1796000000000 implements MigrationInterface {
  name = 'ConsoleSessions1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE credentials.console_sessions (
      session_hash char(64) PRIMARY KEY,
      token_id char(24) REFERENCES credentials.access_tokens (id) ON DELETE CASCADE,
      admin_fingerprint char(64),
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      CONSTRAINT console_sessions_one_kind CHECK ((token_id IS NULL) <> (admin_fingerprint IS NULL))
    )`);
    await q.query(`CREATE INDEX console_sessions_token ON credentials.console_sessions (token_id)`);
    await q.query(`CREATE INDEX console_sessions_expiry ON credentials.console_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credentials.console_sessions`);
  }
}
