import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Users and organizations share one case-insensitive name space (the registry below; the
 * organizations service reserves its names through credentials.name.reserve), and e-mails are
 * unique whatever their case. Existing users are registered; duplicates stop the migration
 * with the names to fix instead of an index error.
 */
export class SharedNamesUniqueEmails1763900000000 implements MigrationInterface {
  name = 'SharedNamesUniqueEmails1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $$
      DECLARE dup text;
      BEGIN
        SELECT string_agg(k, ', ') INTO dup FROM (
          SELECT lower(name) AS k FROM credentials.users GROUP BY lower(name) HAVING count(*) > 1) d;
        IF dup IS NOT NULL THEN
          RAISE EXCEPTION 'users whose names differ only in case: %; rename them, then migrate again', dup;
        END IF;
        SELECT string_agg(k, ', ') INTO dup FROM (
          SELECT lower(email) AS k FROM credentials.users GROUP BY lower(email) HAVING count(*) > 1) d;
        IF dup IS NOT NULL THEN
          RAISE EXCEPTION 'e-mails shared by several users: %; change them, then migrate again', dup;
        END IF;
      END $$`);
    await q.query(`CREATE TABLE credentials.account_names (
      name_key varchar(96) PRIMARY KEY,
      name varchar(96) NOT NULL,
      kind varchar(12) NOT NULL,
      owner_id char(24) NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`INSERT INTO credentials.account_names (name_key, name, kind, owner_id, created_at)
      SELECT lower(name), name, 'user', id, created_at FROM credentials.users`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower ON credentials.users (lower(email))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX credentials.users_email_lower`);
    await q.query(`DROP TABLE credentials.account_names`);
  }
}
