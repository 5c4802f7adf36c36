import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Papers and their author entries; an entry is claimed by one user, a user claims one entry per paper. */
export class CreatePapers1764000400000 implements MigrationInterface {
  name = 'CreatePapers1764000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.papers (
      id varchar(16) PRIMARY KEY,
      title varchar(500) NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE organizations.paper_authors (
      paper_id varchar(16) NOT NULL REFERENCES organizations.papers (id) ON DELETE CASCADE,
      author_id char(24) NOT NULL,
      position int NOT NULL,
      name varchar(200) NOT NULL,
      claimed_by char(24),
      claimed_by_name varchar(96),
      claimed_at timestamptz,
      PRIMARY KEY (paper_id, author_id))`);
    await q.query(
      `CREATE UNIQUE INDEX paper_authors_one_claim ON organizations.paper_authors (paper_id, claimed_by) WHERE claimed_by IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.paper_authors`);
    await q.query(`DROP TABLE organizations.papers`);
  }
}
