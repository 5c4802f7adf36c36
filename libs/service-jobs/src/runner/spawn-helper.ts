import { type ChildProcess, spawn } from 'node:child_process';
import { type RunExit } from './job-runner';
import { killGroup } from './process-identity';
import { SPAWN_HELPER_SOURCE } from './spawn-helper.source';

export interface SpawnRequest {
  file: string;
  args: string[];
  /** The scratch directory: created (owned by `owner`) before the spawn, removed after the exit. */
  dir: string;
  env: Record<string, string>;
  /** Run as this user (only when the service runs as root). */
  owner?: { uid: number; gid: number };
  onLine(line: string): void;
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
  | { op: 'lines'; id: number; lines: string[] }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null; error?: string };

interface Pending {
  req: SpawnRequest;
  pid?: number;
  started(s: Omit<Spawned, 'exit'>): void;
  exited(e: RunExit): void;
}


/**
 * Spawns job processes through a small long-lived Node process instead of this one. `spawn`
 * forks the calling process and blocks its event loop until the child has exec'd: for the
 * service (hundreds of MB mapped) that was the largest CPU item per job (decision 0613); the
 * helper's heap is a few MB, and its fork blocks only itself. The helper also guarantees that a
 * run never outlives its service untracked: it kills what it started when the channel closes.
 */
export class SpawnHelper {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly runs = new Map<number, Pending>();

  spawn(req: SpawnRequest): Promise<Spawned> {
    const helper = this.open();
    const id = this.nextId++;
    return new Promise((resolve) => {
      let exited!: (e: RunExit) => void;
      const exit = new Promise<RunExit>((r) => (exited = r));
      this.runs.set(id, { req, exited, started: (s) => resolve({ ...s, exit }) });
      helper.send({ op: 'spawn', id, file: req.file, args: req.args, dir: req.dir, env: req.env, owner: req.owner });
    });
  }

  /** Closes the channel: the helper kills whatever still runs and exits. */
  async close(): Promise<void> {
    const helper = this.child;
    if (!helper || helper.exitCode !== null || helper.signalCode !== null) return;
    const gone = new Promise((r) => helper.once('exit', r));
    if (helper.connected) helper.disconnect();
    await gone;
  }

  /** Starts the helper (once): it sees nothing of the service's environment, and never keeps the service alive. */
  open(): ChildProcess {
    if (this.child) return this.child;
    const helper = spawn(process.execPath, ['-e', SPAWN_HELPER_SOURCE], { env: {}, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    helper.on('message', (m: HelperMessage) => this.receive(m));
    // The channel closes after the helper's last message was read (its exit may be seen before).
    helper.once('disconnect', () => this.lost(helper));
    // A failed send means the helper is gone: its exit settles the runs.
    helper.on('error', () => undefined);
    helper.unref();
    helper.channel?.unref();
    this.child = helper;
    return helper;
  }

  private receive(m: HelperMessage): void {
    const run = this.runs.get(m.id);
    if (!run) return;
    if (m.op === 'spawned') {
      if (m.pid !== null) run.pid = m.pid;
      run.started({ pid: m.pid, startTicks: m.startTicks });
    } else if (m.op === 'lines') {
      for (const line of m.lines) run.req.onLine(line);
    } else {
      this.runs.delete(m.id);
      run.exited({ code: m.code, signal: m.signal, ...(m.error ? { error: m.error } : {}) });
    }
  }

  /** The helper died (killed, out of memory): its runs are stopped and end as failed; the next spawn starts a new one. */
  private lost(helper: ChildProcess): void {
    if (this.child === helper) this.child = undefined;
    for (const [id, run] of this.runs) {
      this.runs.delete(id);
      if (run.pid !== undefined) killGroup(run.pid);
      run.started({ pid: null, startTicks: null });
      run.exited({ code: null, signal: null, error: 'the spawn helper stopped' });
    }
  }
}
