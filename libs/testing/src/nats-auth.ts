import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type ConnectionOptions, type NatsConnection } from 'nats';
import { natsInboxPrefix, natsPasswordVariable, natsPermissionsByUser, renderNatsAuthorization } from '@hub/bus-access';
import { BUS_PREFIX } from '@hub/contracts';
import { portOpen } from './infra';
import { freePort } from './processes';

/** The tests' user with every right (a subscriber to `>`, a caller of anything): never in a committed config. */
export const NATS_TEST_ALL_RIGHTS_USER = 'hub-test';

const NATS_SERVER = existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';

/**
 * A nats-server of the test file's own, with JetStream and the generated users and permissions
 * for this file's bus prefix (decision 0013): what docker/ and k8s/ run, so a subject an app
 * uses but its access does not name fails here. Starts in about 50 ms.
 */
export class AuthenticatedNats {
  private readonly passwords = new Map<string, string>();
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<AuthenticatedNats> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'hub-nats-auth-'));
    const users = [...Object.keys(natsPermissionsByUser(BUS_PREFIX)), NATS_TEST_ALL_RIGHTS_USER];
    // nats-server parses a variable's value as config: a password must start with a letter (decision 0013).
    const passwords = new Map(users.map((u) => [u, `p${randomBytes(18).toString('hex')}`]));
    writeFileSync(
      join(dir, 'authorization.conf'),
      renderNatsAuthorization({ prefix: BUS_PREFIX, allRightsUser: NATS_TEST_ALL_RIGHTS_USER }),
    );
    writeFileSync(
      join(dir, 'nats-server.conf'),
      [
        `listen: "127.0.0.1:${port}"`,
        `jetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }`,
        'include ./authorization.conf',
        '',
      ].join('\n'),
    );
    const env = {
      PATH: process.env['PATH'] ?? '',
      ...Object.fromEntries([...passwords].map(([u, p]) => [natsPasswordVariable(u), p])),
    };
    const child = spawn(NATS_SERVER, ['-c', join(dir, 'nats-server.conf')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const nats = new AuthenticatedNats(port, dir, child);
    passwords.forEach((p, u) => nats.passwords.set(u, p));
    child.stdout?.on('data', (d: Buffer) => (nats.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (nats.output += d.toString()));
    const deadline = Date.now() + 10_000;
    while (!(await portOpen('127.0.0.1', port, 200))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`nats-server did not listen on ${port}:\n${nats.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  password(user: string): string {
    const p = this.passwords.get(user);
    if (!p) throw new Error(`no NATS user ${user}`);
    return p;
  }

  /** What an app started as `user` needs in its environment. */
  env(user: string): Record<string, string> {
    return { NATS_URL: this.url, NATS_USER: user, NATS_PASSWORD: this.password(user) };
  }

  /** A client as `user` (with that user's own reply inbox), or with no credentials when `user` is null. */
  connect(user: string | null, options: Partial<ConnectionOptions> = {}): Promise<NatsConnection> {
    const auth = user ? { user, pass: this.password(user), inboxPrefix: natsInboxPrefix(user) } : {};
    return connect({ servers: this.url, ...auth, ...options });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
