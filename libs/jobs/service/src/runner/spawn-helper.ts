import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { type RunExit } from './job-runner';
import { killGroup } from './process-identity';
import { type LogGateOptions } from '../logs/log-gate';
import { SPAWN_HELPER_SOURCE } from './spawn-helper.source';

export interface SpawnRequest {
  /** The program (looked up in `env.PATH` when it has no slash); argv[0] is this. */
  file: string;
  args: string[];
  /** The scratch directory: created (owned by `owner`) before the spawn, removed after the exit. */
  dir: string;
  env: Record<string, string>;
  /** Run as this user (only when the service runs as root). */
  owner?: { uid: number; gid: number };
  /**
   * The run's cgroups (`cgroup.procs` files) and the helper's own (`home`, in the same
   * hierarchies): the helper moves itself into `procs` for the fork and back into `home` right
   * after, so everything the job starts is in its cgroups from its first instruction.
   */
  cgroup?: { procs: string[]; home: string[] };
  /** The log gate the helper applies before lines cross to the service (decision 0631). */
  log?: LogGateOptions;
  /** Bytes a second the helper reads from the command's output at most (its writes wait past it). */
  readBytes?: number;
  onLine(line: string): void;
  onDropped?(lines: number, bytes: number): void;
}

export interface Spawned {
  /** The process group leader; null when the command could not start (`exit` says why). */
  pid: number | null;
  /** Its start time in clock ticks since boot, read by the helper before it could be reaped. */
  startTicks: number | null;
  exit: Promise<RunExit>;
}

type HelperMessage =
  | { op: 'spawned'; id: number; pid: number | null; startTicks: number | null }
  | { op: 'lines'; id: number; lines: string[]; dropped?: { lines: number; bytes: number } }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null; error?: string };

interface Pending {
  req: SpawnRequest;
  pid?: number;
  started(s: Omit<Spawned, 'exit'>): void;
  exited(e: RunExit): void;
}

/** A started helper process and how a request reaches it. */
interface Helper {
  process: ChildProcess;
  send(id: number, req: SpawnRequest): void;
}

/**
 * Spawns job processes through a small long-lived Node helper process instead of this one, so the
 * service's event loop never blocks on a fork (decision 0613): Node's spawn under a `/bin/sh` that
 * sets the limits with `ulimit`. A run never outlives its service untracked: the helper kills
 * what it started when its channel closes. (The native C helper of decision 0614 is gone,
 * decision 0621: host-mode jobs start bubblewrap, whose own setup costs more than the fork.)
 */
export class SpawnHelper {
  private current: Promise<Helper> | undefined;
  private live: Helper | undefined;
  private nextId = 1;
  private readonly runs = new Map<number, Pending>();
  /** Spawns sent and not yet answered (the helper's queue). */
  private starting = 0;

  /** How busy this helper is: spawns in its queue first, then runs whose output it relays. */
  get load(): { starting: number; runs: number } {
    return { starting: this.starting, runs: this.runs.size };
  }

  async spawn(req: SpawnRequest): Promise<Spawned> {
    // Counted from the call: a pool choosing among helpers sees the spawns not yet sent too.
    this.starting++;
    let helper: Helper;
    try {
      helper = await this.open();
    } catch (err) {
      this.starting--;
      this.current = undefined;
      return {
        pid: null,
        startTicks: null,
        exit: Promise.resolve({ code: null, signal: null, error: (err as Error).message }),
      };
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      let exited!: (e: RunExit) => void;
      const exit = new Promise<RunExit>((r) => (exited = r));
      let answered = false;
      this.runs.set(id, {
        req,
        exited,
        started: (s) => {
          if (answered) return;
          answered = true;
          this.starting--;
          resolve({ ...s, exit });
        },
      });
      helper.send(id, req);
    });
  }

  /** Closes the helper's input: it kills whatever still runs and exits. */
  async close(): Promise<void> {
    const started = this.current;
    if (!started) return;
    const { process: helper } = await started.catch(() => ({ process: undefined }));
    if (!helper || helper.exitCode !== null || helper.signalCode !== null) return;
    const gone = new Promise((r) => helper.once('exit', r));
    if (helper.connected) helper.disconnect();
    helper.stdin?.end();
    await gone;
  }

  /** Starts the helper (once, and again after it died): it sees nothing of the service's environment, and never keeps the service alive. */
  open(): Promise<Helper> {
    this.current ??= this.start();
    return this.current;
  }

  /** The running helper process (tests kill it). */
  async process(): Promise<ChildProcess> {
    return (await this.open()).process;
  }

  private start(): Promise<Helper> {
    this.live = this.startNode();
    return Promise.resolve(this.live);
  }

  private startNode(): Helper {
    const helper = spawn(process.execPath, ['-e', SPAWN_HELPER_SOURCE], {
      env: {},
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    helper.on('message', (m: HelperMessage) => this.receive(m));
    // The channel closes after the helper's last message was read (its exit may be seen before).
    helper.once('disconnect', () => this.lost(helper));
    helper.channel?.unref();
    this.detach(helper);
    return {
      process: helper,
      send: (id, req) => {
        const { file, args, dir, env, owner, cgroup, log, readBytes } = req;
        helper.send({ op: 'spawn', id, file, args, dir, env, owner, cgroup, log, readBytes });
      },
    };
  }

  private detach(helper: ChildProcess): void {
    // A failed write means the helper is gone: the end of its output settles the runs.
    helper.on('error', () => undefined);
    helper.unref();
  }

  private receive(m: HelperMessage): void {
    const run = this.runs.get(m.id);
    if (!run) return;
    if (m.op === 'spawned') {
      if (m.pid !== null) run.pid = m.pid;
      run.started({ pid: m.pid, startTicks: m.startTicks });
    } else if (m.op === 'lines') {
      if (m.dropped) run.req.onDropped?.(m.dropped.lines, m.dropped.bytes);
      for (const line of m.lines) run.req.onLine(line);
    } else {
      this.runs.delete(m.id);
      run.exited({ code: m.code, signal: m.signal, ...(m.error ? { error: m.error } : {}) });
    }
  }

  /** The helper died (killed, out of memory): its runs are stopped and end as failed; the next spawn starts a new one. */
  private lost(helper: ChildProcess): void {
    if (this.live?.process === helper) {
      this.live = undefined;
      this.current = undefined;
    }
    for (const [id, run] of this.runs) {
      this.runs.delete(id);
      if (run.pid !== undefined) killGroup(run.pid);
      run.started({ pid: null, startTicks: null });
      run.exited({ code: null, signal: null, error: 'the spawn helper stopped' });
    }
  }
}

/** How many spawn helpers host mode starts: one per core, at most four (decision 0636). */
export const SPAWN_HELPERS = Math.min(4, Math.max(1, availableParallelism()));

/**
 * Several spawn helpers (decision 0636): one helper spawns one job per loop turn, and each spawn
 * blocks its loop until the command has exec'd, so under a burst of launches the requests waited
 * in its queue; with one helper per core the spawns of different jobs go side by side. Each spawn
 * goes to the helper with the fewest spawns waiting (then the fewest runs); a run stays with its
 * helper to its end, and each helper kills what it started when the service goes away, as one did.
 */
export class SpawnHelpers {
  private readonly helpers: SpawnHelper[];

  constructor(count = SPAWN_HELPERS) {
    this.helpers = Array.from({ length: Math.max(1, count) }, () => new SpawnHelper());
  }

  spawn(req: SpawnRequest): Promise<Spawned> {
    let best = this.helpers[0];
    for (const h of this.helpers.slice(1)) {
      const a = h.load;
      const b = best.load;
      if (a.starting < b.starting || (a.starting === b.starting && a.runs < b.runs)) best = h;
    }
    return best.spawn(req);
  }

  /** Starts every helper. */
  open(): Promise<unknown> {
    return Promise.all(this.helpers.map((h) => h.open()));
  }

  async close(): Promise<void> {
    await Promise.all(this.helpers.map((h) => h.close()));
  }
}
