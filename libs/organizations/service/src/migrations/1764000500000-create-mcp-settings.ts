import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** A user's MCP settings; no row means the defaults. */
export class CreateMcpSettings1764000500000 implements MigrationInterface {
  name = 'CreateMcpSettings1764000500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE organizations.mcp_settings (
      user_id char(24) PRIMARY KEY,
      settings text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE organizations.mcp_settings`);
  }
}
