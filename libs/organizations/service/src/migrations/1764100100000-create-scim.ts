import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * SCIM provisioning (decision 0420): suspended memberships, the users an identity provider
 * provisioned, resource groups linked to SCIM groups; and the repo events already applied, so a
 * redelivered one records no second audit event.
 */
export class CreateScim1764100100000 implements MigrationInterface {
  name = 'CreateScim1764100100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organizations.members ADD COLUMN suspended boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE TABLE organizations.scim_users (
      id char(24) PRIMARY KEY,
      organization_id char(24) NOT NULL REFERENCES organizations.organizations (id) ON DELETE CASCADE,
      user_id char(24) NOT NULL,
      user_name varchar(96) NOT NULL,
      external_id varchar(512),
      given_name varchar(200),
      family_name varchar(200),
      emails text NOT NULL DEFAULT '[]',
      active boolean NOT NULL DEFAULT true,
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, user_id))`);
    await q.query(
      `CREATE UNIQUE INDEX scim_users_name ON organizations.scim_users (organization_id, lower(user_name))`,
    );
    await q.query(`CREATE INDEX scim_users_external ON organizations.scim_users (organization_id, external_id)`);
    await q.query(`ALTER TABLE organizations.resource_groups
      ADD COLUMN scim_linked boolean NOT NULL DEFAULT false,
      ADD COLUMN scim_external_id varchar(512),
      ADD COLUMN scim_version integer NOT NULL DEFAULT 1,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE TABLE organizations.repo_events_applied (
      msg_id varchar(128) PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.repo_events_applied`);
    await q.query(
      `ALTER TABLE organizations.resource_groups DROP COLUMN scim_linked, DROP COLUMN scim_external_id, DROP COLUMN scim_version, DROP COLUMN updated_at`,
    );
    await q.query(`DROP TABLE organizations.scim_users`);
    await q.query(`ALTER TABLE organizations.members DROP COLUMN suspended`);
  }
}
