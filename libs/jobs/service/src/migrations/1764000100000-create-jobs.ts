import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createOutboxTablesV1, dropOutboxTablesV1 } from '@hub/messaging';

/** Jobs, their kept log lines, and the service's outbox (decision 0007). */
export class CreateJobs1764000100000 implements MigrationInterface {
  name = 'CreateJobs1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE jobs.jobs (
      id char(24) PRIMARY KEY,
      namespace varchar(96) NOT NULL,
      owner jsonb NOT NULL,
      created_by jsonb NOT NULL,
      initiator jsonb NOT NULL,
      spec jsonb NOT NULL,
      secret_values jsonb NOT NULL DEFAULT '{}',
      extra_env jsonb NOT NULL DEFAULT '{}',
      labels jsonb NOT NULL DEFAULT '{}',
      stage varchar(16) NOT NULL,
      message text,
      failure_count int NOT NULL DEFAULT 0,
      attempts int NOT NULL DEFAULT 1,
      runner varchar(64),
      heartbeat_at timestamptz,
      metrics jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz)`);
    await q.query(`CREATE INDEX jobs_namespace_id ON jobs.jobs (lower(namespace), id DESC)`);
    await q.query(`CREATE INDEX jobs_active ON jobs.jobs (stage) WHERE stage IN ('SCHEDULING', 'RUNNING')`);
    await q.query(`CREATE TABLE jobs.job_logs (
      seq bigserial PRIMARY KEY,
      job_id char(24) NOT NULL,
      ts timestamptz NOT NULL DEFAULT now(),
      line text NOT NULL)`);
    await q.query(`CREATE INDEX job_logs_job_seq ON jobs.job_logs (job_id, seq)`);
    await createOutboxTablesV1(q, 'jobs');
  }

  async down(q: QueryRunner): Promise<void> {
    await dropOutboxTablesV1(q, 'jobs');
    for (const t of ['job_logs', 'jobs']) await q.query(`DROP TABLE jobs.${t}`);
  }
}
