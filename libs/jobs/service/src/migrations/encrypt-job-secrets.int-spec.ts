import { DataSource } from 'typeorm';
import { SecretBox } from '@hub/config';
import { runMigrations, serviceDataSourceOptions } from '@hub/persistence';
import { createTestDatabase, describeWithInfra, queryDatabase, type TestDatabase } from '@hub/testing';
import { CreateJobs1764000100000 } from './1764000100000-create-jobs';
import { CreateScheduledJobs1764000200000 } from './1764000200000-create-scheduled-jobs';
import { jobsMigrations } from '.';

const box = new SecretBox('jobs-migration-test-key', 'hub-job-secrets');

async function migrate(url: string, migrations: (new () => unknown)[]): Promise<void> {
  const ds = await new DataSource(
    serviceDataSourceOptions({ schema: 'jobs', entities: [], migrations, databaseUrl: url, poolSize: 1 }),
  ).initialize();
  try {
    await runMigrations(ds, 'jobs');
  } finally {
    await ds.destroy();
  }
}

describeWithInfra('jobs migration: job secrets encrypted at rest', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('seals the plaintext secret values of existing jobs and scheduled jobs; the rows hold no plaintext after', async () => {
    await migrate(db.url, [CreateJobs1764000100000, CreateScheduledJobs1764000200000]);
    const plain = { HF_TOKEN: 'hf_plaintext_token_value', DB_PASSWORD: 'correct horse battery staple' };
    await queryDatabase(
      db.url,
      `INSERT INTO jobs.jobs (id, namespace, owner, created_by, initiator, spec, secret_values, stage)
      VALUES ('6b0000000000000000000001', 'alice', '{}', '{}', '{}', '{}', $1, 'COMPLETED'), ('6b0000000000000000000002', 'alice', '{}', '{}', '{}', '{}', '{}', 'COMPLETED')`,
      [JSON.stringify(plain)],
    );
    await queryDatabase(
      db.url,
      `INSERT INTO jobs.scheduled_jobs (id, namespace, owner, created_by, schedule, job_spec, secret_values)
      VALUES ('6b0000000000000000000003', 'alice', '{}', '{}', '@hourly', '{}', $1)`,
      [JSON.stringify(plain)],
    );

    await migrate(db.url, jobsMigrations(box));

    for (const table of ['jobs.jobs', 'jobs.scheduled_jobs']) {
      const rows = await queryDatabase<{ id: string; raw: string; secret_values: Record<string, string> }>(
        db.url,
        `SELECT id, secret_values::text AS raw, secret_values FROM ${table} ORDER BY id`,
      );
      const withSecrets = rows.filter((r) => r.raw !== '{}');
      expect(withSecrets).toHaveLength(1);
      const row = withSecrets[0];
      expect(row.raw).not.toContain('hf_plaintext_token_value');
      expect(row.raw).not.toContain('correct horse');
      expect(Object.keys(row.secret_values).sort()).toEqual(['DB_PASSWORD', 'HF_TOKEN']);
      expect(Object.values(row.secret_values).every((v) => v.startsWith('v1.'))).toBe(true);
      expect(box.openMap(row.secret_values)).toEqual(plain);
    }
    // The job without secrets is untouched.
    expect(
      await queryDatabase(db.url, `SELECT secret_values FROM jobs.jobs WHERE id = '6b0000000000000000000002'`),
    ).toEqual([{ secret_values: {} }]);
  });
});
