import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Resource groups of an organization (spec 2.8), their users with roles and their repositories. */
export class CreateResourceGroups1764000300000 implements MigrationInterface {
  name = 'CreateResourceGroups1764000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.resource_groups (
      id char(24) PRIMARY KEY,
      organization_id char(24) NOT NULL REFERENCES organizations.organizations (id) ON DELETE CASCADE,
      name varchar(200) NOT NULL,
      description varchar(500),
      auto_join text NOT NULL DEFAULT '{"enabled":false}',
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX resource_groups_org ON organizations.resource_groups (organization_id)`);
    await q.query(`CREATE TABLE organizations.resource_group_users (
      group_id char(24) NOT NULL REFERENCES organizations.resource_groups (id) ON DELETE CASCADE,
      user_id char(24) NOT NULL,
      user_name varchar(96) NOT NULL,
      fullname varchar(200) NOT NULL,
      role varchar(50) NOT NULL,
      added_by varchar(96),
      added_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, user_id))`);
    await q.query(`CREATE TABLE organizations.resource_group_repos (
      group_id char(24) NOT NULL REFERENCES organizations.resource_groups (id) ON DELETE CASCADE,
      type varchar(16) NOT NULL,
      name varchar(193) NOT NULL,
      added_by varchar(96),
      added_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, type, name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.resource_group_repos`);
    await q.query(`DROP TABLE organizations.resource_group_users`);
    await q.query(`DROP TABLE organizations.resource_groups`);
  }
}
