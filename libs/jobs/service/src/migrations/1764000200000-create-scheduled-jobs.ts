import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Scheduled jobs; `next_run_at` is claimed row by row so a tick fires once across replicas. */
export class CreateScheduledJobs1764000200000 implements MigrationInterface {
  name = 'CreateScheduledJobs1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE jobs.scheduled_jobs (
      id char(24) PRIMARY KEY,
      namespace varchar(96) NOT NULL,
      owner jsonb NOT NULL,
      created_by jsonb NOT NULL,
      schedule varchar(200) NOT NULL,
      suspend boolean NOT NULL DEFAULT false,
      concurrency boolean NOT NULL DEFAULT false,
      job_spec jsonb NOT NULL,
      secret_values jsonb NOT NULL DEFAULT '{}',
      next_run_at timestamptz,
      last_job_id char(24),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX scheduled_jobs_namespace ON jobs.scheduled_jobs (lower(namespace), id DESC)`);
    await q.query(`CREATE INDEX scheduled_jobs_due ON jobs.scheduled_jobs (next_run_at) WHERE NOT suspend`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE jobs.scheduled_jobs`);
  }
}
