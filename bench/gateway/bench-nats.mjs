// The NATS of a bench's distributed run: a private nats-server with the hub's generated users and
// permissions for the run's bus prefix (`npm run bus:permissions`, decision 0013), each app
// connected as its own user, as deployed; plus a `bench` user with every right for the bench's
// own publishes. JetStream in a temporary directory, removed on stop.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './processes.mjs';

const USERS = [
  'gateway',
  'credentials',
  'organizations',
  'notifications',
  'webhooks',
  'jobs',
  'hub',
  'subscriber',
  'bench',
];
const NATS_SERVER = existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';
const passwordVariable = (user) => `NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`;

function listening(port) {
  return new Promise((resolve) => {
    const s = new Socket();
    s.once('error', () => resolve(false));
    s.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve(true);
    });
  });
}

export async function startBenchNats({ root, logDir, busPrefix }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nats-'));
  const port = await freePort();
  // The authorization block for this prefix, from the contracts; the bench user added to it.
  const authorization = execFileSync('npm', ['run', '-s', 'bus:permissions', '--', busPrefix], {
    cwd: root,
    encoding: 'utf8',
  }).replace(
    /\n {2}\]\n\}\n?$/,
    `\n    {\n      user: "bench"\n      password: $${passwordVariable('bench')}\n    }\n  ]\n}\n`,
  );
  writeFileSync(join(dir, 'authorization.conf'), authorization);
  writeFileSync(
    join(dir, 'nats-server.conf'),
    `listen: "127.0.0.1:${port}"\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n${process.env.BENCH_NATS_NO_AUTH === '1' ? '' : 'include ./authorization.conf\n'}`,
  );
  // nats-server parses a variable's value as config: a password must start with a letter.
  const passwords = Object.fromEntries(USERS.map((u) => [u, `p${randomBytes(18).toString('hex')}`]));
  const env = {
    PATH: process.env.PATH ?? '',
    ...Object.fromEntries(USERS.map((u) => [passwordVariable(u), passwords[u]])),
  };
  mkdirSync(logDir, { recursive: true });
  const child = spawn(NATS_SERVER, ['-c', join(dir, 'nats-server.conf')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(join(logDir, 'nats-server.log'));
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`nats-server did not start (see ${join(logDir, 'nats-server.log')})`);
    await sleep(50);
  }
  const url = `nats://127.0.0.1:${port}`;
  return {
    url,
    /** What an app started as `user` needs in its environment. */
    env: (user) => ({ NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user] }),
    /** nats.js connect() options of the bench's own client (every right). */
    connectOptions: { servers: url, user: 'bench', pass: passwords.bench },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      log.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
