import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Decision 0421: the account a deprovisioned SCIM user had, by the identity provider's userName,
 * so that the same userName provisioned again gets the same account back.
 */
export class ScimDeprovisioned1795800100000 implements MigrationInterface {
  name = 'ScimDeprovisioned1795800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.scim_deprovisioned (
      organization_id char(24) NOT NULL REFERENCES organizations.organizations (id) ON DELETE CASCADE,
      user_name_key varchar(256) NOT NULL,
      user_id char(24) NOT NULL,
      deprovisioned_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, user_name_key))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.scim_deprovisioned`);
  }
}
