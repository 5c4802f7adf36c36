import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Where a job's attempt runs (process group and start time, container, Kubernetes Job): a restart stops orphans by it. */
export class JobRunHandle1764000400000 implements MigrationInterface {
  name = 'JobRunHandle1764000400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs.jobs ADD COLUMN run_handle jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs.jobs DROP COLUMN run_handle`);
  }
}
