import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processesWith } from '@hub/testing';
import { SpawnHelper } from './spawn-helper';
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

describe('SpawnHelper (job processes spawned by a small helper process)', () => {
  const helper = new SpawnHelper();

  afterAll(() => helper.close());

  it('runs the command in its scratch directory with only the given environment; lines in order; the directory removed after', async () => {
    const dir = join(work, 'one');
    const lines: string[] = [];
    const run = await helper.spawn({
      file: '/bin/sh', args: ['-c', 'pwd; env; echo to-stderr >&2; exit 3'], dir,
      env: { PATH: '/usr/bin:/bin', ONLY_THIS: 'yes' }, onLine: (l) => lines.push(l),
    });
    expect(run.pid).toEqual(expect.any(Number));
    expect(run.startTicks).toEqual(expect.any(Number));
    expect(await run.exit).toEqual({ code: 3, signal: null });
    expect(lines[0]).toBe(dir);
    expect(lines).toEqual(expect.arrayContaining(['ONLY_THIS=yes', 'to-stderr']));
    // Nothing of this process's environment (sh adds PWD, SHLVL and _ itself).
    for (const name of ['HOME', 'JEST_WORKER_ID', 'NODE_OPTIONS']) expect(lines.filter((l) => l.startsWith(`${name}=`))).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  });

  it('reports a command that cannot start as an exit with an error', async () => {
    const run = await helper.spawn({ file: '/nonexistent/cmd', args: [], dir: join(work, 'two'), env: {}, onLine: () => undefined });
    expect(await run.exit).toMatchObject({ code: null, signal: null, error: expect.stringMatching(/ENOENT/) });
  });

  it('a helper killed mid-run: the run ends as failed, its process group is killed, the next spawn starts a new helper', async () => {
    const m = marker();
    const run = await helper.spawn({ file: '/bin/sh', args: ['-c', `sleep ${m} & sleep ${m}; wait`], dir: join(work, 'three'), env: { PATH: '/usr/bin:/bin' }, onLine: () => undefined });
    await running(`sleep ${m}`, 2);
    helper.open().kill('SIGKILL');
    expect(await run.exit).toEqual({ code: null, signal: null, error: 'the spawn helper stopped' });
    expect(await gone(`sleep ${m}`)).toEqual([]);
    const next = await helper.spawn({ file: '/bin/sh', args: ['-c', 'echo again'], dir: join(work, 'four'), env: {}, onLine: () => undefined });
    expect(await next.exit).toEqual({ code: 0, signal: null });
  });

  it('a service killed -9 right after a spawn leaves no process behind: the helper kills what it started', async () => {
    const m = marker();
    // A stand-in for the service: starts the helper, has it spawn a process tree, then is killed before it could store anything.
    const service = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const helper = spawn(process.execPath, ['-e', ${JSON.stringify(SPAWN_HELPER_SOURCE)}], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      helper.on('message', (msg) => { if (msg.op === 'spawned') console.log('spawned'); });
      helper.send({ op: 'spawn', id: 1, file: '/bin/sh', args: ['-c', 'sleep ${m} & sleep ${m}; wait'], dir: ${JSON.stringify(join(work, 'five'))}, env: { PATH: '/usr/bin:/bin' } });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => service.stdout.on('data', (d: Buffer) => { if (d.toString().includes('spawned')) resolve(); }));
    await running(`sleep ${m}`, 2);
    service.kill('SIGKILL');
    expect(await gone(`sleep ${m}`)).toEqual([]);
    expect(existsSync(join(work, 'five'))).toBe(false);
  });
});
