import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Decision 0421: userName is the identity provider's string (e-mail, UPN, any text up to 256
 * characters), no longer the hub name; the hub name of the provisioned account is kept beside it.
 */
export class ScimManagedAccounts1795700100000 implements MigrationInterface {
  name = 'ScimManagedAccounts1795700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations.scim_users ADD COLUMN hub_name varchar(96)`);
    await q.query(`UPDATE organizations.scim_users SET hub_name = user_name`);
    await q.query(
      `ALTER TABLE organizations.scim_users ALTER COLUMN hub_name SET NOT NULL, ALTER COLUMN user_name TYPE varchar(256)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // A userName longer than the old column goes back to the hub name it provisions.
    await q.query(`UPDATE organizations.scim_users SET user_name = hub_name WHERE length(user_name) > 96`);
    await q.query(`ALTER TABLE organizations.scim_users ALTER COLUMN user_name TYPE varchar(96), DROP COLUMN hub_name`);
  }
}
