// The minimal launcher (issue 41), run by run.mjs after the bare tool in host mode: the simplest
// correct jobs API around the same `bwrap` on the same machine, so the report says how close the
// hub is to that design and how far that design itself is from bare `bwrap`. One HTTP server and
// one table: a POST inserts the job and answers its id, then the job is started as the bare run
// starts it (bwrapArgs, a uid of its own when root, a fresh empty working directory), RUNNING is
// stored once it spawned and COMPLETED with its output and exit code once it closed: three
// statements per job, nothing else (no auth, validation, limits, cgroups, events, mails or logs
// kept apart). Its clients are in the same process: CONCURRENCY POSTs in flight over loopback
// HTTP, as the hub's bench sends them. Prints one JSON line:
// { runs, wallMs, perSecond, machineCpuMs, latency: [create → RUNNING ms…] } (create and start from the table's timestamps).
// Run: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/jobs/minimal.ts <runs> <concurrency> [wait]
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { bwrapArgs, jobShell } from '../../libs/jobs/service/src/runner/host/bwrap-args';
import { findBwrap } from '../../libs/jobs/service/src/runner/host/host-mode';
import { machineCpuMs, systemDir, TMP_SIZE_MB, UID_BASE } from './sandbox';

const [runsArg = '200', concurrencyArg = '20', waitArg = ''] = process.argv.slice(2);
const RUNS = Number(runsArg);
const CONCURRENCY = Number(concurrencyArg);
/** As BENCH_JOBS_WAIT=1: each client waits for its job to complete before the next POST. */
const WAIT = waitArg === 'wait';
const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function main(): Promise<void> {
  const bwrap = findBwrap();
  if (!bwrap) throw new Error('no bwrap');
  const db = `bench_jobs_minimal_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${db}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${db}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  pool.on('error', () => undefined); // an idle connection ended by the DROP below
  const parent = mkdtempSync(join(tmpdir(), 'bench-minimal-'));
  chmodSync(parent, 0o711);
  const root = process.getuid?.() === 0;
  const finished = new Map<string, () => void>();
  try {
    await pool.query(`CREATE TABLE jobs (id bigserial PRIMARY KEY, command text[] NOT NULL, stage text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(), started_at timestamptz, finished_at timestamptz,
      exit_code int, output text)`);
    const run = (id: string, command: string[]): void => {
      const dir = mkdtempSync(join(parent, 'r-'));
      const uid = UID_BASE + (Number(id) % 1_000_000);
      const args = bwrapArgs({
        diskBytes: TMP_SIZE_MB * 1024 ** 2,
        // The hub's shell inside the sandbox, without limits (it sets none).
        argv: jobShell({}, command),
        systemDir,
      });
      const child = spawn(bwrap, args, {
        cwd: dir,
        env: { PATH: '/usr/bin:/bin', HOME: '/job', TMPDIR: '/tmp' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(root ? { uid, gid: uid } : {}),
      });
      const output: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => output.push(c));
      child.stderr.on('data', (c: Buffer) => output.push(c));
      const running = new Promise<unknown>((resolve) => child.once('spawn', resolve)).then(() =>
        pool.query(`UPDATE jobs SET stage = 'RUNNING', started_at = clock_timestamp() WHERE id = $1`, [id]),
      );
      child.once('close', (code) => {
        rmSync(dir, { recursive: true, force: true });
        void running
          .then(() =>
            pool.query(
              `UPDATE jobs SET stage = 'COMPLETED', finished_at = clock_timestamp(), exit_code = $2, output = $3 WHERE id = $1`,
              [id, code, Buffer.concat(output).toString('utf8')],
            ),
          )
          .then(() => finished.get(id)?.());
      });
    };
    const server = createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => {
        const { command } = JSON.parse(Buffer.concat(body).toString('utf8')) as { command: string[] };
        void pool
          .query<{ id: string }>(`INSERT INTO jobs (command, stage) VALUES ($1, 'QUEUED') RETURNING id`, [command])
          .then(({ rows: [row] }) => {
            res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: row!.id }));
            run(row!.id, command);
          });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`;
    const allDone = new Promise<void>((resolve) => {
      let left = RUNS;
      const done = (): void => void (--left === 0 && resolve());
      const post = async (): Promise<string> => {
        const res = await fetch(base, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ command: ['sh', '-c', 'echo hello'] }),
        });
        return ((await res.json()) as { id: string }).id;
      };
      let next = 0;
      for (let w = 0; w < CONCURRENCY; w++)
        void (async () => {
          while (next < RUNS) {
            next++;
            const id = await post();
            const ended = new Promise<void>((r) => finished.set(id, r)).then(done);
            if (WAIT) await ended;
          }
        })();
    });
    const cpu0 = machineCpuMs();
    const t0 = performance.now();
    await allDone;
    const wallMs = performance.now() - t0;
    const cpu = machineCpuMs() - cpu0;
    server.close();
    const { rows } = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM started_at - created_at) * 1000 AS ms FROM jobs WHERE stage = 'COMPLETED'`,
    );
    if (rows.length !== RUNS) throw new Error(`${rows.length} of ${RUNS} jobs completed`);
    console.log(
      JSON.stringify({
        runs: RUNS,
        wallMs,
        perSecond: (RUNS * 1000) / wallMs,
        machineCpuMs: cpu,
        latency: rows.map((r) => Number(r.ms)),
      }),
    );
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
    rmSync(parent, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
