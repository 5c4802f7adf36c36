import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMBEDDED_PG_DIR, EmbeddedPostgres, EmbeddedPostgresError } from '@hub/persistence';

/**
 * `node main.js restore <file> <pg_restore>`, run by `hubctl restore` without DATABASE_URL
 * (decision 0204): makes the embedded cluster of a new data directory, restores the backup into
 * its empty `hub` database in one transaction, and stops it. The hub then starts on it as usual.
 */
export async function restoreDataDir(dataDir: string, file: string, pgRestore: string): Promise<void> {
  if (existsSync(join(resolve(dataDir), EMBEDDED_PG_DIR)))
    throw new EmbeddedPostgresError(`${resolve(dataDir)} holds a database already: restore into a new data directory`);
  const pgsql = await EmbeddedPostgres.start({ dataDir });
  try {
    const r = spawnSync(
      pgRestore,
      ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', `--dbname=${pgsql.url}`, file],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (r.status !== 0)
      throw new EmbeddedPostgresError(
        `pg_restore failed (nothing was restored): ${(r.stderr || String(r.error)).trim()}`,
      );
  } finally {
    await pgsql.stop();
  }
}
