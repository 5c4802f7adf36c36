import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Readable, type Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Logger } from '@nestjs/common';
import { NATIVE_SPAWN_HELPER_SOURCE } from './native-spawn-helper.source';
import { type SpawnRequest } from './spawn-helper';

const logger = new Logger('SpawnHelper');

/** The prebuilt helper's file name, beside the app's main.js (the Docker images build it: docker/Dockerfile). */
export const PREBUILT_HELPER = 'hub-jobs-spawn-helper';

/** The native helper: a prebuilt executable to run in place, or one compiled here (its bytes). */
export type NativeHelper = { path: string } | { bytes: Buffer };

let found: Promise<NativeHelper | null> | undefined;

/**
 * The native helper, looked up once per process: the prebuilt one beside the running app's
 * main.js, else compiled with the machine's `cc` in a private temporary directory (removed right
 * after); null, logged once, where neither works.
 */
export function nativeHelper(): Promise<NativeHelper | null> {
  found ??= prebuilt() ?? compileNativeHelper().then((bytes) => (bytes ? { bytes } : null));
  return found;
}

function prebuilt(): Promise<NativeHelper> | undefined {
  const main = process.argv[1];
  const path = main ? join(dirname(main), PREBUILT_HELPER) : undefined;
  return path && existsSync(path) ? Promise.resolve({ path }) : undefined;
}

/** Compiles the helper with `cc`; null (logged) when that fails. */
export async function compileNativeHelper(): Promise<Buffer | null> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-spawn-helper-'));
  try {
    writeFileSync(join(dir, 'helper.c'), NATIVE_SPAWN_HELPER_SOURCE);
    await promisify(execFile)('cc', ['-O2', '-o', join(dir, 'helper'), join(dir, 'helper.c')], { timeout: 120_000 });
    return readFileSync(join(dir, 'helper'));
  } catch (err) {
    logger.warn(
      { err: String(err).slice(0, 500) },
      'could not compile the native spawn helper (it needs cc and Linux): local jobs start through the Node helper, at about 10 times its CPU per job',
    );
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the native helper with an empty environment: the prebuilt file in place, or compiled
 * bytes written to a private directory and unlinked at once (the running process keeps them),
 * so nothing is left behind even after a kill -9.
 */
export function launchNativeHelper(helper: NativeHelper): ChildProcessByStdio<Writable, Readable, null> {
  const start = (file: string) => spawn(file, [], { env: {}, stdio: ['pipe', 'pipe', 'inherit'] });
  if ('path' in helper) return start(helper.path);
  const dir = mkdtempSync(join(tmpdir(), 'hub-spawn-helper-'));
  const file = join(dir, PREBUILT_HELPER);
  try {
    writeFileSync(file, helper.bytes, { mode: 0o700 });
    return start(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One request in the native helper's framing (NUL-terminated strings); null when a value holds a NUL byte. */
export function nativeRequest(id: number, req: SpawnRequest): Buffer | null {
  const limit = (n: number | undefined): string => (n === undefined ? '' : String(Math.max(0, Math.floor(n))));
  const env = Object.entries(req.env).map(([k, v]) => `${k}=${v}`);
  const items = [
    'spawn',
    String(id),
    req.file,
    req.dir,
    req.owner ? String(req.owner.uid) : '',
    req.owner ? String(req.owner.gid) : '',
    limit(req.limits?.cpuSeconds),
    limit(req.limits?.addressSpaceKb),
    limit(req.limits?.processes),
    String(req.args.length),
    ...req.args,
    String(env.length),
    ...env,
  ];
  if (items.some((s) => s.includes('\0'))) return null;
  return Buffer.from(`${items.join('\0')}\0`);
}
