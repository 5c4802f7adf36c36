import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The repository catalogue behind the storage usage listings: one row per repository (type +
 * owner/name), fed by `hub.events.repo.*` and `/admin/repos`. Listings select by owner, whatever
 * the case of the name (users and organizations share one case-insensitive name space).
 */
export class CreateRepositories1764000100000 implements MigrationInterface {
  name = 'CreateRepositories1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.repositories (
      type varchar(16) NOT NULL,
      name varchar(193) NOT NULL,
      owner varchar(96) NOT NULL,
      visibility varchar(16) NOT NULL,
      storage bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (type, name))`);
    await q.query(`CREATE INDEX repositories_owner ON organizations.repositories (lower(owner), storage DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.repositories`);
  }
}
