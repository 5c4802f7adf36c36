import { type ChildProcess } from 'node:child_process';
import { type Readable } from 'node:stream';
import { type LogGate, type LogGateOptions } from '../logs/log-gate';

/** What the service asks the helper (one spawn per message); see spawn-helper.source.ts for the protocol. */
export interface SpawnRequest {
  op: 'spawn';
  id: string;
  file: string;
  args: string[];
  dir: string;
  env: Record<string, string>;
  owner?: { uid: number; gid: number };
  cgroup?: { procs: string[]; home: string[] };
  log?: LogGateOptions;
  readBytes?: number;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}

/**
 * The spawn helper's whole program, run in a process of its own as `node -e` (spawn-helper.source.ts
 * turns it into that text): so it must be self-contained. It takes Node's modules through
 * `process.getBuiltinModule` (never a bundler's `require`), its one class of ours as an argument,
 * and refers to nothing else outside its body. Linted and type-checked like any file of ours.
 */
export function spawnHelperProgram(Gate: typeof LogGate): void {
  const { execFile, execFileSync, spawn } = process.getBuiltinModule('node:child_process');
  const { chownSync, lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } =
    process.getBuiltinModule('node:fs');
  const { dirname } = process.getBuiltinModule('node:path');
  const { createInterface } = process.getBuiltinModule('node:readline');
  const { Transform } = process.getBuiltinModule('node:stream');

  // What ps shows instead of the whole program.
  process.title = 'hub-jobs-spawn-helper';
  const live = new Map<string, { pid: number; dir: string; owner?: SpawnRequest['owner'] }>();
  const pending = new Map<string, string[]>();
  let flushQueued = false;

  const send = (m: object): void => {
    if (process.connected) process.send?.(m);
  };
  const flushLines = (): void => {
    flushQueued = false;
    for (const [id, lines] of pending) send({ op: 'lines', id, lines });
    pending.clear();
  };
  // A run with a log gate: its lines wait in the gate, taken at its rate (every 200 ms while it holds more).
  const gates = new Map<string, { gate: LogGate; timer?: NodeJS.Timeout | NodeJS.Immediate }>();
  const pumpGate = (id: string, all: boolean): void => {
    const g = gates.get(id);
    if (!g) return;
    if (g.timer) {
      clearTimeout(g.timer as NodeJS.Timeout);
      clearImmediate(g.timer as NodeJS.Immediate);
      g.timer = undefined;
    }
    const lines = all ? g.gate.rest() : g.gate.take();
    const gap = g.gate.takeGap();
    if (lines.length > 0 || gap.lines > 0) send({ op: 'lines', id, lines, ...(gap.lines > 0 ? { dropped: gap } : {}) });
    if (!all && g.gate.waiting) g.timer = setTimeout(() => pumpGate(id, false), 200);
  };
  const addLine = (id: string, line: string): void => {
    const g = gates.get(id);
    if (g) {
      g.gate.push(line);
      if (!g.timer) g.timer = setImmediate(() => pumpGate(id, false));
      return;
    }
    const lines = pending.get(id);
    if (lines) lines.push(line);
    else pending.set(id, [line]);
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flushLines);
    }
  };
  // The output stream read at most bytesPerSecond, in 100 ms windows (as logs/read-cap.ts).
  const capped = (input: Readable, bytesPerSecond: number): Readable => {
    const perWindow = Math.max(1, Math.floor(bytesPerSecond / 10));
    let opened = Date.now();
    let used = 0;
    return input.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          const now = Date.now();
          if (now - opened >= 100) {
            opened = now;
            used = 0;
          }
          used += chunk.length;
          if (used <= perWindow) done(null, chunk);
          else setTimeout(() => done(null, chunk), opened + 100 - now);
        },
      }),
    );
  };
  const startTicks = (pid: number): number | null => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    } catch {
      return null;
    }
  };
  // As root (jobs run as another user) through rm -rf, which never follows a link even when the
  // job swaps a directory for one while it is being removed; Node's rmSync walks by path.
  const removeDir = (dir: string, owner?: SpawnRequest['owner']): void => {
    // Most runs leave it empty (host mode's job never sees it: its home is a tmpfs of the
    // sandbox): rmdir removes only an empty directory and follows nothing, with no process forked.
    try {
      rmdirSync(dir);
      return;
    } catch {
      // not empty (or gone): the walk below
    }
    if (owner) {
      execFile('rm', ['-rf', '--', dir], () => undefined);
      return;
    }
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort
    }
  };
  // The scratch directory, fresh, in a parent of this user's that no one else may write: otherwise
  // another local user could put a link where it goes and have root chown or fill the target.
  const makeDir = (dir: string, owner?: SpawnRequest['owner']): void => {
    const parent = dirname(dir);
    mkdirSync(parent, { recursive: true, mode: 0o755 });
    const st = lstatSync(parent);
    if (!st.isDirectory() || st.uid !== process.geteuid?.() || (st.mode & 0o022) !== 0) {
      throw new Error(
        "the parent of the scratch directory must be a directory of the service's user that no one else may write (HUB_JOBS_WORK_DIR)",
      );
    }
    // A leftover of a run that crashed with its helper.
    if (lstatSync(dir, { throwIfNoEntry: false })) execFileSync('rm', ['-rf', '--', dir]);
    mkdirSync(dir, { mode: 0o700 });
    if (owner) chownSync(dir, owner.uid, owner.gid);
  };

  // Into a run's cgroups for its fork (its first process starts in them: nothing it does escapes
  // its caps) and out again at once. A helper that cannot leave them stops, with every run it
  // started (the service fails them and starts another): it must not fork a later run, or be
  // killed at this run's memory cap, from inside them.
  const moveSelf = (files: string[]): void => {
    for (const file of files) writeFileSync(file, String(process.pid));
  };
  const spawnIn = (m: SpawnRequest): ChildProcess => {
    const options = {
      cwd: m.dir,
      env: m.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
      ...(m.owner ?? {}),
    };
    if (!m.cgroup) return spawn(m.file, m.args, options);
    let child: ChildProcess | undefined;
    try {
      try {
        moveSelf(m.cgroup.procs);
      } catch (err) {
        throw new Error(`could not put the job in its cgroup: ${(err as Error).message}`);
      }
      child = spawn(m.file, m.args, options);
      return child;
    } finally {
      try {
        moveSelf(m.cgroup.home);
      } catch {
        if (child?.pid !== undefined) live.set(m.id, { pid: child.pid, dir: m.dir, owner: m.owner });
        killAll();
      }
    }
  };

  const run = (m: SpawnRequest): void => {
    let ended = false;
    const end = (exit: Exit): void => {
      if (ended) return;
      ended = true;
      live.delete(m.id);
      removeDir(m.dir, m.owner);
      pumpGate(m.id, true);
      gates.delete(m.id);
      const lines = pending.get(m.id);
      if (lines) {
        pending.delete(m.id);
        send({ op: 'lines', id: m.id, lines });
      }
      send({ op: 'exit', id: m.id, code: exit.code, signal: exit.signal, error: exit.error });
    };
    if (m.log) gates.set(m.id, { gate: new Gate({ ...m.log, mark: false }) });
    let child: ChildProcess;
    try {
      makeDir(m.dir, m.owner);
      child = spawnIn(m);
    } catch (err) {
      send({ op: 'spawned', id: m.id, pid: null, startTicks: null });
      end({ code: null, signal: null, error: (err as Error).message });
      return;
    }
    // Read before returning to the loop: the child cannot have been reaped yet.
    const pid = child.pid;
    send({ op: 'spawned', id: m.id, pid: pid ?? null, startTicks: pid === undefined ? null : startTicks(pid) });
    if (pid !== undefined) live.set(m.id, { pid, dir: m.dir, owner: m.owner });
    // The run ends once the command has exited and every line it printed was read: with a read
    // cap, the last lines can still wait in it when the pipes close.
    let exited: Exit | undefined;
    let reading = 0;
    const finish = (): void => {
      if (exited && reading === 0) end(exited);
    };
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      reading++;
      createInterface({ input: m.readBytes ? capped(stream, m.readBytes) : stream, crlfDelay: Infinity })
        .on('line', (line) => addLine(m.id, line))
        .on('close', () => {
          reading--;
          finish();
        });
    }
    child.on('error', (err) => end({ code: null, signal: null, error: err.message }));
    child.on('close', (code, signal) => {
      exited = { code, signal };
      finish();
    });
  };

  const killAll = (): void => {
    for (const r of live.values()) {
      try {
        process.kill(-r.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      removeDir(r.dir, r.owner);
    }
    process.exit(0);
  };

  // One spawn per loop turn: a spawn blocks this loop until the child has exec'd, and a burst of
  // requests read at once would otherwise hold back the output and exits of the runs already going.
  const queue: SpawnRequest[] = [];
  const nextSpawn = (): void => {
    const m = queue.shift();
    if (m) run(m);
    if (queue.length > 0) setImmediate(nextSpawn);
  };
  process.on('message', (m: SpawnRequest | null) => {
    if (!m || m.op !== 'spawn') return;
    queue.push(m);
    if (queue.length === 1) setImmediate(nextSpawn);
  });
  process.on('disconnect', killAll);
  process.on('SIGTERM', killAll);
  // Ctrl-C reaches the whole foreground group: the service shuts down and stops its runs itself.
  process.on('SIGINT', () => undefined);
}
