import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processesWith } from '@hub/testing';
import { SpawnHelper, SpawnHelpers, type SpawnRequest } from './spawn-helper';
import { SPAWN_HELPER_SOURCE } from './spawn-helper.source';

const work = mkdtempSync(join(tmpdir(), 'spawn-helper-'));
const marker = (): string => String(700_000 + Math.floor(Math.random() * 99_999));
const gone = async (pattern: string): Promise<string[]> => {
  const deadline = Date.now() + 5000;
  while (processesWith(pattern).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return processesWith(pattern);
};
const running = async (pattern: string, count: number): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (processesWith(pattern).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(processesWith(pattern)).toHaveLength(count);
};

/**
 * A stand-in for the service, in its own process: starts the helper, has it spawn a process tree,
 * prints "spawned" when the helper says so (then it is killed -9 by the test).
 */
function standInService(req: Omit<SpawnRequest, 'onLine'>): string {
  return `
      const { spawn } = require('node:child_process');
      const helper = spawn(process.execPath, ['-e', ${JSON.stringify(SPAWN_HELPER_SOURCE)}], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      helper.on('message', (msg) => { if (msg.op === 'spawned') console.log('spawned'); });
      helper.send({ op: 'spawn', id: 1, ...${JSON.stringify(req)} });`;
}

describe.each(['node'] as const)('SpawnHelper, %s (job processes spawned by a small helper process)', (kind) => {
  const helper = new SpawnHelper();

  afterAll(() => helper.close());

  it('runs the command in its scratch directory with only the given environment; lines in order; the directory removed after', async () => {
    const dir = join(work, `${kind}-one`);
    const lines: string[] = [];
    const run = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', 'pwd; env; echo to-stderr >&2; printf "a\\r\\nb\\rc"; exit 3'],
      dir,
      env: { PATH: '/usr/bin:/bin', ONLY_THIS: 'yes' },
      onLine: (l) => lines.push(l),
    });
    expect(run.pid).toEqual(expect.any(Number));
    expect(run.startTicks).toEqual(expect.any(Number));
    expect(await run.exit).toEqual({ code: 3, signal: null });
    expect(lines[0]).toBe(dir);
    expect(lines).toEqual(expect.arrayContaining(['ONLY_THIS=yes', 'to-stderr']));
    // Lines end at \r\n, \r or \n, as Node's readline splits them; the last one without an end too.
    expect(lines.filter((l) => l.length === 1)).toEqual(['a', 'b', 'c']);
    // Nothing of this process's environment (sh adds PWD, SHLVL and _ itself).
    for (const name of ['HOME', 'JEST_WORKER_ID', 'NODE_OPTIONS'])
      expect(lines.filter((l) => l.startsWith(`${name}=`))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('with a log gate, cuts a flood before it crosses to the service: the newest lines and the last one arrive, the rest counted', async () => {
    const lines: string[] = [];
    let droppedLines = 0;
    let droppedBytes = 0;
    const run = await helper.spawn({
      file: '/bin/sh',
      // 2,000,000 lines of 100 bytes (200 MB), then a last line.
      args: ['-c', `yes ${'x'.repeat(99)} | head -n 2000000; echo last-line`],
      dir: join(work, `${kind}-flood`),
      env: { PATH: '/usr/bin:/bin' },
      log: { rateBytes: 64 * 1024, ringLines: 1000, ringBytes: 64 * 1024 },
      // Read at 128 MB/s at most: the command's writes wait past it, nothing is lost.
      readBytes: 128 * 1024 * 1024,
      onLine: (l) => lines.push(l),
      onDropped: (n, b) => {
        droppedLines += n;
        droppedBytes += b;
      },
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(lines[lines.length - 1]).toBe('last-line');
    // Every line either arrived or was counted.
    expect(lines.length + droppedLines).toBe(2_000_001);
    expect(droppedBytes).toBe(droppedLines * 100);
    expect(lines.length).toBeLessThan(200_000);
  });

  it('with a read cap, a run ends only after the lines still held in the cap: the last one is never lost', async () => {
    const lines: string[] = [];
    const run = await helper.spawn({
      file: '/bin/sh',
      // 20 kB at once, read at 10 kB/s: the command has exited long before its last line is read.
      args: ['-c', `for i in $(seq 1 20); do printf '%01000d\\n' $i; done; echo last-line`],
      dir: join(work, `${kind}-capped`),
      env: { PATH: '/usr/bin:/bin' },
      readBytes: 10_000,
      onLine: (l) => lines.push(l),
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(lines).toHaveLength(21);
    expect(lines[lines.length - 1]).toBe('last-line');
  });

  it('finds the command on the given PATH', async () => {
    const lines: string[] = [];
    const run = await helper.spawn({
      file: 'sh',
      args: ['-c', 'echo found'],
      dir: join(work, `${kind}-path`),
      env: { PATH: '/nonexistent:/bin' },
      onLine: (l) => lines.push(l),
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(lines).toEqual(['found']);
  });

  it("forks the command from inside the run's cgroups and goes back home right after; the command reads an empty stdin", async () => {
    const [procs, home] = [
      ['a', 'b'],
      ['home-a', 'home-b'],
    ].map((names) => names.map((n) => join(work, `${kind}-cgroup-${n}`))) as [string[], string[]];
    for (const f of [...procs, ...home]) writeFileSync(f, '');
    const lines: string[] = [];
    const run = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', 'echo $PPID; cat; echo end'],
      dir: join(work, `${kind}-cgroup`),
      env: { PATH: '/usr/bin:/bin' },
      cgroup: { procs, home },
      onLine: (l) => lines.push(l),
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    const helperPid = String((await helper.process()).pid);
    expect(lines).toEqual([helperPid, 'end']);
    for (const f of [...procs, ...home]) expect(readFileSync(f, 'utf8')).toBe(helperPid);
  });

  it('a cgroup it cannot enter: nothing starts and the run says why', async () => {
    const run = await helper.spawn({
      file: '/bin/true',
      args: [],
      dir: join(work, `${kind}-no-cgroup`),
      env: {},
      cgroup: { procs: [join(work, 'no-such-cgroup', 'cgroup.procs')], home: [] },
      onLine: () => undefined,
    });
    expect(run.pid).toBeNull();
    expect(await run.exit).toEqual({
      code: null,
      signal: null,
      error: expect.stringMatching(/^could not put the job in its cgroup: ENOENT/),
    });
  });

  it("a helper that cannot leave a run's cgroups stops with its runs (none forks from inside them); the next spawn starts a new helper", async () => {
    const m = marker();
    const procs = join(work, `${kind}-stuck`);
    writeFileSync(procs, '');
    const first = (await helper.process()).pid;
    const run = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', `sleep ${m}`],
      dir: join(work, `${kind}-stuck-run`),
      env: { PATH: '/usr/bin:/bin' },
      cgroup: { procs: [procs], home: [join(work, 'no-such-home', 'cgroup.procs')] },
      onLine: () => undefined,
    });
    expect(await run.exit).toEqual({ code: null, signal: null, error: 'the spawn helper stopped' });
    expect(await gone(`sleep ${m}`)).toEqual([]);
    const next = await helper.spawn({
      file: '/bin/true',
      args: [],
      dir: join(work, `${kind}-after`),
      env: {},
      onLine: () => undefined,
    });
    expect(await next.exit).toEqual({ code: 0, signal: null });
    expect((await helper.process()).pid).not.toBe(first);
  });

  // Only root can switch users (CI runs as root here).
  (process.getuid?.() === 0 ? it : it.skip)(
    'runs as the given user and groups, in a scratch directory that user owns',
    async () => {
      const lines: string[] = [];
      const run = await helper.spawn({
        file: '/bin/sh',
        args: ['-c', 'id -u; id -g; id -G; touch mine && stat -c %u mine'],
        dir: join(work, `${kind}-user`),
        env: { PATH: '/usr/bin:/bin' },
        owner: { uid: 65534, gid: 65534 },
        onLine: (l) => lines.push(l),
      });
      expect(await run.exit).toEqual({ code: 0, signal: null });
      expect(lines).toEqual(['65534', '65534', '65534', '65534']);
    },
  );

  it('refuses a scratch directory whose parent others may write (a link planted there would be followed as root)', async () => {
    const open = join(work, `${kind}-open`);
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const run = await helper.spawn({
      file: '/bin/true',
      args: [],
      dir: join(open, 'job'),
      env: {},
      onLine: () => undefined,
    });
    expect(run.pid).toBeNull();
    expect(await run.exit).toEqual({
      code: null,
      signal: null,
      error: expect.stringMatching(/no one else may write/),
    });
  });

  it('never follows a link: one where the scratch directory goes is replaced, one the job leaves inside is removed, not its target', async () => {
    const outside = join(work, `${kind}-outside`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep'), 'x');
    const dir = join(work, `${kind}-linked`);
    symlinkSync(outside, dir);
    const run = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', `ln -s ${outside} inside && mkdir sub && ln -s ${outside} sub/deeper && echo made > mine && pwd -P`],
      dir,
      env: { PATH: '/usr/bin:/bin' },
      onLine: () => undefined,
    });
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(readdirSync(outside)).toEqual(['keep']);
    expect(existsSync(dir)).toBe(false);
  });

  it('a helper killed mid-run: the run ends as failed, its process group is killed, the next spawn starts a new helper', async () => {
    const m = marker();
    const run = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', `sleep ${m} & sleep ${m}; wait`],
      dir: join(work, `${kind}-three`),
      env: { PATH: '/usr/bin:/bin' },
      onLine: () => undefined,
    });
    await running(`sleep ${m}`, 2);
    (await helper.process()).kill('SIGKILL');
    expect(await run.exit).toEqual({ code: null, signal: null, error: 'the spawn helper stopped' });
    expect(await gone(`sleep ${m}`)).toEqual([]);
    const next = await helper.spawn({
      file: '/bin/sh',
      args: ['-c', 'echo again'],
      dir: join(work, `${kind}-four`),
      env: {},
      onLine: () => undefined,
    });
    expect(await next.exit).toEqual({ code: 0, signal: null });
  });

  it('a service killed -9 right after a spawn leaves no process behind: the helper kills what it started', async () => {
    const m = marker();
    const dir = join(work, `${kind}-five`);
    const req = {
      file: '/bin/sh',
      args: ['-c', `sleep ${m} & sleep ${m}; wait`],
      dir,
      env: { PATH: '/usr/bin:/bin' },
    };
    const service = spawn(process.execPath, ['-e', standInService(req)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) =>
      service.stdout.on('data', (d: Buffer) => {
        if (d.toString().includes('spawned')) resolve();
      }),
    );
    await running(`sleep ${m}`, 2);
    service.kill('SIGKILL');
    expect(await gone(`sleep ${m}`)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('the spawn helper, refusals', () => {
  const helper = new SpawnHelper();

  afterAll(() => helper.close());

  it('refuses a value with a NUL byte (it cannot reach exec) as a run that could not start', async () => {
    const run = await helper.spawn({
      file: '/bin/echo',
      args: ['a\0b'],
      dir: join(work, 'nul'),
      env: {},
      onLine: () => undefined,
    });
    expect(run.pid).toBeNull();
    expect(await run.exit).toEqual({ code: null, signal: null, error: expect.stringMatching(/without null bytes/) });
  });

  it('reports a scratch directory it cannot create as a run that could not start', async () => {
    // Under a file (Node's recursive mkdir never returns for a path under /proc).
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    const run = await helper.spawn({
      file: '/bin/true',
      args: [],
      dir: join(file, 'sub', 'job'),
      env: {},
      onLine: () => undefined,
    });
    expect(run.pid).toBeNull();
    expect(await run.exit).toEqual({
      code: null,
      signal: null,
      error: expect.stringMatching(/^ENOTDIR: /),
    });
  });
});

describe('several spawn helpers (decision 0636)', () => {
  const helpers = new SpawnHelpers(2);

  afterAll(() => helpers.close());

  it('spreads spawns asked at once over the helpers; each run reports its lines and exit as with one', async () => {
    const m = marker();
    const lines: string[][] = [[], [], [], []];
    const runs = await Promise.all(
      lines.map((got, i) =>
        helpers.spawn({
          file: '/bin/sh',
          args: ['-c', `echo run-${i}; sleep ${m}`],
          dir: join(work, `pool-${i}`),
          env: { PATH: '/usr/bin:/bin' },
          onLine: (l) => got.push(l),
        }),
      ),
    );
    await running(`sleep ${m}`, 4);
    // The parent of each run's process: two helpers, two runs each.
    const parents = runs.map((r) => {
      const stat = readFileSync(`/proc/${r.pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    });
    expect(new Set(parents).size).toBe(2);
    expect(parents.filter((p) => p === parents[0])).toHaveLength(2);
    for (const r of runs) process.kill(-(r.pid ?? 0), 'SIGKILL');
    const exits = await Promise.all(runs.map((r) => r.exit));
    expect(exits).toEqual(Array(4).fill({ code: null, signal: 'SIGKILL' }));
    expect(lines).toEqual([['run-0'], ['run-1'], ['run-2'], ['run-3']]);
    expect(await gone(`sleep ${m}`)).toEqual([]);
  });
});
