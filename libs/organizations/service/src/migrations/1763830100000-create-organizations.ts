import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateOrganizations1763830100000 implements MigrationInterface {
  name = 'CreateOrganizations1763830100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.organizations (
      id char(24) PRIMARY KEY,
      name varchar(96) NOT NULL UNIQUE,
      fullname varchar(200) NOT NULL DEFAULT '',
      plan varchar(20) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE organizations.members (
      organization_id char(24) NOT NULL REFERENCES organizations.organizations(id) ON DELETE CASCADE,
      user_id char(24) NOT NULL,
      user_name varchar(96) NOT NULL,
      role varchar(50) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, user_id))`);
    await q.query(`CREATE INDEX members_user_id ON organizations.members (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.members`);
    await q.query(`DROP TABLE organizations.organizations`);
  }
}
