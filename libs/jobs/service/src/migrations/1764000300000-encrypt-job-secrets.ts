import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { type SecretBox } from '@hub/config';

const TABLES = ['jobs.jobs', 'jobs.scheduled_jobs'];

async function rewrite(
  q: QueryRunner,
  change: (values: Record<string, string>) => Record<string, string>,
): Promise<void> {
  for (const table of TABLES) {
    const rows = (await q.query(
      `SELECT id, secret_values FROM ${table} WHERE secret_values <> '{}'::jsonb FOR UPDATE`,
    )) as { id: string; secret_values: Record<string, string> }[];
    for (const r of rows)
      await q.query(`UPDATE ${table} SET secret_values = $2 WHERE id = $1`, [
        r.id,
        JSON.stringify(change(r.secret_values)),
      ]);
  }
}

/**
 * Job and scheduled-job secret values sealed with HUB_SECRET_KEY (AES-256-GCM): every row written
 * before this migration holds them in clear, every row after it sealed. Built with the service's
 * key, hence a factory rather than a plain class.
 */
export function encryptJobSecrets(box: SecretBox): new () => MigrationInterface {
  return class EncryptJobSecrets1764000300000 implements MigrationInterface {
    name = 'EncryptJobSecrets1764000300000';

    async up(q: QueryRunner): Promise<void> {
      await rewrite(q, (v) => box.sealMap(v));
    }

    async down(q: QueryRunner): Promise<void> {
      await rewrite(q, (v) => box.openMap(v));
    }
  };
}
