import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The repository root (tests run with cwd at a project root or the workspace root). */
export const WORKSPACE_ROOT = resolve(__dirname, '../../..');

export function builtApp(app: string): string {
  return resolve(WORKSPACE_ROOT, 'dist/apps', app, 'main.js');
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches (or rejects on exit or timeout). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Polls `url` until it answers 200; fails at once, with the app's output, if the app exits. */
  waitForReady(url: string, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a built app (node dist/apps/<app>/main.js) and keeps its output for assertions. */
export function startApp(app: string, env: Record<string, string>, args: string[] = []): RunningProcess {
  const child = spawn(process.execPath, [builtApp(app), ...args], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => out,
    async waitForOutput(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = pattern.exec(out);
        if (m) return m;
        if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode} before ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`${app}: no ${pattern} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async waitForReady(url, timeoutMs = 150_000) {
      const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
      try {
        await waitForHttp(url, timeoutMs, () => {
          if (exited())
            throw new Error(`${app} exited (${child.exitCode ?? child.signalCode}) before ${url} was ready`);
        });
      } catch (e) {
        throw new Error(`${app}: ${(e as Error).message}:\n${out}`);
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Runs a built app to completion (e.g. `migrate`) and returns its exit code and output. */
export async function runApp(
  app: string,
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const p = startApp(app, env, args);
  await new Promise<void>((r) => p.child.once('exit', () => r()));
  return { code: p.child.exitCode, output: p.output() };
}

/** Polls a URL until it answers 200; `check` runs before each try and may throw to give up early. */
export async function waitForHttp(url: string, timeoutMs = 30_000, check: () => void = () => undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    check();
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
