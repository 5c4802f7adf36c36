import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Managed accounts (decision 0421): a user a SCIM create made belongs to that organization
 * (`managed_by_org_id`). E-mails stay unique among the hub's own accounts only; managed accounts
 * may share an address (two directories, or one person re-created under a new userName).
 */
export class ManagedAccounts1795700000000 implements MigrationInterface {
  name = 'ManagedAccounts1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE credentials.users ADD COLUMN managed_by_org_id char(24)`);
    await q.query(`DROP INDEX credentials.users_email_lower`);
    await q.query(
      `CREATE UNIQUE INDEX users_email_lower ON credentials.users (lower(email)) WHERE managed_by_org_id IS NULL`,
    );
    await q.query(
      `CREATE INDEX users_managed_by ON credentials.users (managed_by_org_id) WHERE managed_by_org_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // Going back makes every e-mail unique again: say which ones stop it instead of an index error.
    await q.query(`DO $$
      DECLARE dup text;
      BEGIN
        SELECT string_agg(k, ', ') INTO dup FROM (
          SELECT lower(email) AS k FROM credentials.users GROUP BY lower(email) HAVING count(*) > 1) d;
        IF dup IS NOT NULL THEN
          RAISE EXCEPTION 'e-mails shared by several (managed) users: %; change them, then revert again', dup;
        END IF;
      END $$`);
    await q.query(`DROP INDEX credentials.users_managed_by`);
    await q.query(`DROP INDEX credentials.users_email_lower`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower ON credentials.users (lower(email))`);
    await q.query(`ALTER TABLE credentials.users DROP COLUMN managed_by_org_id`);
  }
}
