import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createTestDatabase, describeWithInfra, type TestDatabase, WORKSPACE_ROOT } from '@hub/testing';

const CHILD = resolve(__dirname, 'testing/durable-consumer.child.ts');

interface Child {
  out: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  kill9: () => Promise<void>;
}

/** The real in-process bus in a separate process (TypeScript through @swc-node/register). */
function startChild(mode: 'hold' | 'take', databaseUrl: string): Child {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', CHILD, mode], {
    cwd: WORKSPACE_ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: databaseUrl,
      SWC_NODE_PROJECT: join(WORKSPACE_ROOT, 'tsconfig.base.json'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    out: () => out,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (child.exitCode !== null) throw new Error(`child exited with ${child.exitCode}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill9() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

const got = (out: string): { text: string; deliveryCount: number }[] =>
  [...out.matchAll(/^GOT (.+)$/gm)].map((m) => JSON.parse(m[1] as string) as { text: string; deliveryCount: number });

describeWithInfra('all-in-one bus survives kill -9 (its store on Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('gives a restarted durable consumer what was published but not acknowledged, and nothing it acknowledged', async () => {
    const url = db.url;

    // 1. Published two events; the handler is in the middle of the first when the process dies.
    const first = startChild('hold', url);
    await first.waitFor(/PUBLISHED/);
    await first.waitFor(/GOT .*"one"/);
    await first.kill9();
    expect(got(first.out()).map((g) => g.text)).toEqual(['one']);

    // 2. Restarted on the same directory: both come (the first one a second time), then are acked.
    const second = startChild('take', url);
    await second.waitFor(/GOT .*"two"/);
    expect(got(second.out())).toEqual([
      { text: 'one', deliveryCount: 2 },
      { text: 'two', deliveryCount: expect.any(Number) },
    ]);
    await new Promise((r) => setTimeout(r, 500));
    await second.kill9();

    // 3. Once acknowledged, never again.
    const third = startChild('take', url);
    await third.waitFor(/READY/);
    await new Promise((r) => setTimeout(r, 1500));
    await third.kill9();
    expect(got(third.out())).toEqual([]);
  }, 180_000);
});
