#!/usr/bin/env node
// `npm start`: the all-in-one hub (dist/apps/hub/main.js) and the web console it serves at `/`
// (dist/apps/console), built first when either is missing or older than any of its sources. `npm install` builds it already (tools/prepare.mjs), so a
// newcomer's first start only starts; checking file times here costs milliseconds where Nx's
// own up-to-date check costs seconds (decision 0016).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const main = join(root, 'dist/apps/hub/main.js');
const consolePage = join(root, 'dist/apps/console/index.html');

/** What the hub's bundle is made of: the apps' and libs' sources and the build's settings. */
const SOURCES = ['apps/hub', 'libs', 'tools/webpack', 'tsconfig.base.json', 'package.json', 'package-lock.json'];
/** What the console's files are made of (a Vite build of its own, apart from the webpack bundles). */
const CONSOLE_SOURCES = ['apps/console', 'package-lock.json'];
/** Files under those folders that no build reads: tests and docs (a README edit must not rebuild). */
const NOT_BUILT_FROM = /(\.(spec|int-spec|e2e-spec)\.ts|\.md)$/;

function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return NOT_BUILT_FROM.test(path) ? 0 : st.mtimeMs;
  let latest = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, name)));
  }
  return latest;
}

function builtSince(output, sources) {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return sources.every((s) => newest(join(root, s)) <= built);
}

/** The hub's bundle and the console's files are both there and newer than their sources. */
export function hubIsBuilt() {
  return builtSince(main, SOURCES) && builtSince(consolePage, CONSOLE_SOURCES);
}

/**
 * Node flags the hub runs with. A young generation of 64 MB semi-spaces (V8's default is 16 MB):
 * an uncached read allocates about 55 KB, so the default scavenges several hundred times a
 * second under load; bench:gateway measured the members read at 12 % less hub CPU per request
 * with it (decision 0303). Left out when NODE_OPTIONS already sets the size.
 */
export function hubNodeArgs(env = process.env) {
  return /--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=64'];
}

export function buildHub() {
  const bin = createRequire(join(root, 'package.json')).resolve('nx/bin/nx');
  const nx = spawnSync(process.execPath, [bin, 'run-many', '-t', 'build', '-p', 'hub', 'console'], {
    cwd: root,
    stdio: 'inherit',
    env: { NX_DAEMON: 'false', ...process.env },
  });
  if (nx.status !== 0) return false;
  // Nx may restore the outputs from its cache with their old times (a touched source whose content
  // is unchanged): mark them built now, or every later start would run Nx again.
  const now = new Date();
  for (const output of [main, consolePage]) if (existsSync(output)) utimesSync(output, now, now);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!hubIsBuilt()) {
    process.stdout.write('Building the hub (its sources changed since the last build)…\n');
    if (!buildHub()) process.exit(1);
  }
  const hub = spawn(process.execPath, [...hubNodeArgs(), main, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  // The hub stops its own database on SIGINT/SIGTERM; pass on what is sent to this process alone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => hub.kill(signal));
  hub.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}
