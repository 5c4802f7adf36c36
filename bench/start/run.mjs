// Newcomer check (`npm run bench:start`): how long `npm start` takes to answer /health/ready, on
// a new data directory (first start: a new PostgreSQL cluster, migrations, the demo user) and
// again on the same one (second start). With BENCH_FRESH_CLONE=1 it first clones this checkout's
// HEAD into a temporary folder and runs `npm ci` there (timed too: it builds the hub, decision 0016),
// as a newcomer would. Not a test: it prints figures. Stops what it started, even on failure.
//   BENCH_FRESH_CLONE [0]   1: clone HEAD and `npm ci` first, measure there
//   BENCH_STARTS [2]        starts on the same data directory (the first on a new one)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fresh = process.env.BENCH_FRESH_CLONE === '1';
const starts = Number(process.env.BENCH_STARTS ?? 2);
const scratch = mkdtempSync(join(tmpdir(), 'bench-start-'));
const dataDir = join(scratch, 'data');

const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer().once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `npm start` in its own process group (so a Ctrl-C can be sent as a terminal sends it); ms until ready. */
async function timeStart(root, label) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HUB_DATA_DIR: dataDir,
      DATABASE_URL: '',
      NATS_URL: '',
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${out}`);
      if (Date.now() - started > 300_000) throw new Error(`not ready within 300 s:\n${out}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(25);
    }
    const ms = Date.now() - started;
    console.log(`${label.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(6)} s to /health/ready`);
    return ms;
  } finally {
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(30_000)]);
  }
}

async function main() {
  console.log(
    `newcomer check: ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at start, ${new Date().toISOString()}`,
  );
  let root = here;
  if (fresh) {
    root = join(scratch, 'clone');
    execFileSync('git', ['clone', '--quiet', here, root]);
    const t = Date.now();
    // As a newcomer runs it: not in CI mode, so the install builds the hub (tools/prepare.mjs).
    const env = { ...process.env };
    delete env.CI;
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, env, stdio: 'ignore' });
    console.log(
      `${'npm ci (fresh clone, builds the hub)'.padEnd(34)} ${((Date.now() - t) / 1000).toFixed(1).padStart(6)} s`,
    );
  }
  for (let i = 1; i <= starts; i++)
    await timeStart(root, i === 1 ? 'npm start, new data directory' : `npm start #${i}, same data directory`);
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(scratch, { recursive: true, force: true }));
