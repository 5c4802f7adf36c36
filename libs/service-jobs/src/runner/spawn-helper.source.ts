import { LogGate } from '../logs/log-gate';

/**
 * The spawn helper's program, run as `node -e` (see SpawnHelper): plain CommonJS in a string, so
 * it runs the same from the webpack bundle, from Jest's transpiled sources and from any dist
 * layout, and loads nothing but Node's own modules (a heap of a few MB: its forks are cheap).
 *
 * Protocol over the IPC channel, JSON messages:
 *   service → helper  { op: 'spawn', id, file, args, dir, env, owner?: { uid, gid }, cgroupProcs?: [file], log?, readBytes? }
 *   helper → service  { op: 'spawned', id, pid, startTicks }   (pid null when it could not start)
 *                     { op: 'lines', id, lines, dropped? }     (stdout and stderr, batched per loop turn)
 *                     { op: 'exit', id, code, signal, error? } (last for an id, after its lines)
 * It creates the scratch directory (owned by `owner` when set), spawns the command detached in its
 * own process group (with `cgroupProcs`: writes its pid there, then a line to its stdin, which the
 * command waits for), and removes the directory when the command ends. When the service goes away
 * (the channel closes: exit, crash, kill -9) it kills every process group it started and exits,
 * so no run outlives its service untracked, whatever the database holds.
 * With `log` (LogGate's options), a run's lines go through the same LogGate as in the service,
 * without markers: a flood is cut here, and `dropped` ({ lines, bytes }) counts what was cut before
 * the lines of its message (decision 0631). With `readBytes`, each output stream is read at most that
 * many bytes a second (in 100 ms windows): past it the command's writes wait.
 */
export const SPAWN_HELPER_SOURCE =
  `const LogGate = (${LogGate.toString()});
` +
  String.raw`
'use strict';
// What ps shows instead of this whole program.
process.title = 'hub-jobs-spawn-helper';
const { execFile, execFileSync, spawn } = require('node:child_process');
const { chownSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { createInterface } = require('node:readline');
const { Transform } = require('node:stream');

const live = new Map();
const pending = new Map();
let flushQueued = false;

const send = (m) => { if (process.connected) process.send(m); };
const flushLines = () => {
  flushQueued = false;
  for (const [id, lines] of pending) send({ op: 'lines', id, lines });
  pending.clear();
};
// A run with a log gate: its lines wait in the gate, taken at its rate (every 200 ms while it holds more).
const gates = new Map();
const pumpGate = (id, all) => {
  const g = gates.get(id);
  if (!g) return;
  if (g.timer) { clearTimeout(g.timer); clearImmediate(g.timer); g.timer = undefined; }
  const lines = all ? g.gate.rest() : g.gate.take();
  const gap = g.gate.takeGap();
  if (lines.length > 0 || gap.lines > 0) send({ op: 'lines', id, lines, ...(gap.lines > 0 ? { dropped: gap } : {}) });
  if (!all && g.gate.waiting) g.timer = setTimeout(() => pumpGate(id, false), 200);
};
const addLine = (id, line) => {
  const g = gates.get(id);
  if (g) {
    g.gate.push(line);
    if (!g.timer) g.timer = setImmediate(() => pumpGate(id, false));
    return;
  }
  const lines = pending.get(id);
  if (lines) lines.push(line);
  else pending.set(id, [line]);
  if (!flushQueued) { flushQueued = true; setImmediate(flushLines); }
};
// The output stream read at most bytesPerSecond, in 100 ms windows (logs/read-cap.ts, in plain JS).
const capped = (input, bytesPerSecond) => {
  const perWindow = Math.max(1, Math.floor(bytesPerSecond / 10));
  let opened = Date.now();
  let used = 0;
  return input.pipe(new Transform({
    transform(chunk, _encoding, done) {
      const now = Date.now();
      if (now - opened >= 100) { opened = now; used = 0; }
      used += chunk.length;
      if (used <= perWindow) done(null, chunk);
      else setTimeout(() => done(null, chunk), opened + 100 - now);
    },
  }));
};
const startTicks = (pid) => {
  try {
    const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch { return null; }
};
// As root (jobs run as another user) through rm -rf, which never follows a link even when the
// job swaps a directory for one while it is being removed; Node's rmSync walks by path.
const removeDir = (dir, owner) => {
  if (owner) { execFile('rm', ['-rf', '--', dir], () => undefined); return; }
  try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
};
// The scratch directory, fresh, in a parent of this user's that no one else may write: otherwise
// another local user could put a link where it goes and have root chown or fill the target.
const makeDir = (dir, owner) => {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true, mode: 0o755 });
  const st = lstatSync(parent);
  if (!st.isDirectory() || st.uid !== process.geteuid() || (st.mode & 0o022) !== 0) {
    throw new Error("the parent of the scratch directory must be a directory of the service's user that no one else may write (HUB_JOBS_WORK_DIR)");
  }
  // A leftover of a run that crashed with its helper.
  if (lstatSync(dir, { throwIfNoEntry: false })) execFileSync('rm', ['-rf', '--', dir]);
  mkdirSync(dir, { mode: 0o700 });
  if (owner) chownSync(dir, owner.uid, owner.gid);
};

function run(m) {
  let ended = false;
  const end = (exit) => {
    if (ended) return;
    ended = true;
    live.delete(m.id);
    removeDir(m.dir, m.owner);
    pumpGate(m.id, true);
    gates.delete(m.id);
    const lines = pending.get(m.id);
    if (lines) { pending.delete(m.id); send({ op: 'lines', id: m.id, lines }); }
    send({ op: 'exit', id: m.id, code: exit.code, signal: exit.signal, error: exit.error });
  };
  if (m.log) gates.set(m.id, { gate: new LogGate({ ...m.log, mark: false }), timer: undefined });
  let child;
  try {
    makeDir(m.dir, m.owner);
    child = spawn(m.file, m.args, { cwd: m.dir, env: m.env, detached: true, stdio: [m.cgroupProcs ? 'pipe' : 'ignore', 'pipe', 'pipe'], ...(m.owner || {}) });
    if (m.cgroupProcs && child.pid !== undefined) {
      child.stdin.on('error', () => undefined);
      try {
        for (const file of m.cgroupProcs) writeFileSync(file, String(child.pid));
      } catch (err) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
        throw new Error('could not put the job in its cgroup: ' + err.message);
      }
      child.stdin.end('\n');
    }
  } catch (err) {
    send({ op: 'spawned', id: m.id, pid: null, startTicks: null });
    end({ code: null, signal: null, error: err.message });
    return;
  }
  // Read before returning to the loop: the child cannot have been reaped yet.
  send({ op: 'spawned', id: m.id, pid: child.pid ?? null, startTicks: child.pid === undefined ? null : startTicks(child.pid) });
  if (child.pid !== undefined) live.set(m.id, { pid: child.pid, dir: m.dir, owner: m.owner });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: m.readBytes ? capped(stream, m.readBytes) : stream, crlfDelay: Infinity }).on('line', (line) => addLine(m.id, line));
  }
  child.on('error', (err) => end({ code: null, signal: null, error: err.message }));
  child.on('close', (code, signal) => end({ code, signal }));
}

const killAll = () => {
  for (const r of live.values()) {
    try { process.kill(-r.pid, 'SIGKILL'); } catch { /* already gone */ }
    removeDir(r.dir, r.owner);
  }
  process.exit(0);
};

// One spawn per loop turn: a spawn blocks this loop until the child has exec'd, and a burst of
// requests read at once would otherwise hold back the output and exits of the runs already going.
const queue = [];
const nextSpawn = () => {
  const m = queue.shift();
  if (m) run(m);
  if (queue.length > 0) setImmediate(nextSpawn);
};
process.on('message', (m) => {
  if (!m || m.op !== 'spawn') return;
  queue.push(m);
  if (queue.length === 1) setImmediate(nextSpawn);
});
process.on('disconnect', killAll);
process.on('SIGTERM', killAll);
// Ctrl-C reaches the whole foreground group: the service shuts down and stops its runs itself.
process.on('SIGINT', () => undefined);
`;
