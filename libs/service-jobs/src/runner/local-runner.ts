import { execFile, spawn } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hardwareOf } from '@hub/contracts';
import { containerName, dockerClientEnv, dockerRunArgs, MAX_PROCESSES } from './docker-args';
import { type JobRun, type JobRunner, type RunExit, type RunHandle, type RunRequest } from './job-runner';
import { identityOf, stillRunning } from './process-identity';

/** A PATH for user commands; nothing else of the hub's environment reaches a job. */
const JOB_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function uidOf(user: string): { uid: number; gid: number } {
  if (/^\d+$/.test(user)) return { uid: Number(user), gid: Number(user) };
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[0] === user);
  if (!line) throw new Error(`HUB_JOBS_RUN_AS_USER ${user} is not a user of this machine`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const killGroup = (pid: number): void => {
  try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
};
const dockerRm = (name: string): Promise<void> => new Promise((r) => execFile('docker', ['rm', '-f', name], { timeout: 30_000 }, () => r()));

/**
 * One spawn per turn of the event loop. `spawn` forks the whole service process synchronously
 * (milliseconds for a large heap, tens of milliseconds on a loaded machine); 20 launches arriving
 * together used to fork back to back while the other creates' database answers waited behind
 * them. Paced, the I/O of a turn (commits, HTTP) runs between two forks.
 */
class SpawnPacer {
  private queue: (() => void)[] = [];
  private scheduled = false;

  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate queued from the check phase runs on the next loop turn, after its poll (I/O) phase.
    setImmediate(() => {
      this.scheduled = false;
      this.queue.shift()?.();
      this.schedule();
    });
  }
}

export interface LocalRunnerOptions { workDir: string; runAsUser: string; docker: boolean }

/**
 * Runs a job's command as a child process in its own scratch directory and process group, or
 * with `docker run` when the job names a `dockerImage` and a Docker engine is reachable. For
 * trusted users on one machine: see the service README for what it does not enforce.
 */
export class LocalRunner implements JobRunner {
  private readonly identity: { uid: number; gid: number } | undefined;
  private readonly pacer = new SpawnPacer();

  constructor(private readonly options: LocalRunnerOptions) {
    // Only root can switch users; anyone else runs jobs as themselves.
    this.identity = process.getuid?.() === 0 ? uidOf(options.runAsUser) : undefined;
  }

  async start(req: RunRequest): Promise<JobRun> {
    await this.pacer.turn();
    const dir = join(this.options.workDir, `${req.jobId}-${req.attempt}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (this.identity) chownSync(dir, this.identity.uid, this.identity.gid);
    const env = { PATH: JOB_PATH, HOME: dir, TMPDIR: dir, JOB_ID: req.jobId, ...req.env, ...req.secrets };
    const container = this.options.docker && req.dockerImage ? containerName(req.jobId, req.attempt) : undefined;
    const child = req.dockerImage && container
      ? spawn('docker', dockerRunArgs({ ...req, dockerImage: req.dockerImage }), { cwd: dir, env: dockerClientEnv(req, process.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', `${this.limits(req).join(' && ')} && exec "$@"`, 'job', ...(req.command ?? []), ...(req.arguments ?? [])], {
        cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(this.identity ?? {}),
      });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => req.onLine(line));
    }
    let exited = false;
    const done = new Promise<RunExit>((resolve) => {
      child.on('error', (err) => { exited = true; resolve({ code: null, signal: null, error: err.message }); });
      child.on('close', (code, signal) => { exited = true; resolve({ code, signal }); });
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    const proc = child.pid === undefined ? null : identityOf(child.pid);
    return {
      done,
      pid: child.pid,
      ...(proc ? { handle: { kind: 'process' as const, process: proc, ...(container ? { container } : {}) } } : {}),
      kill: () => {
        // The whole process group: the command's children die with it (and the container, which the client does not stop).
        if (exited || child.pid === undefined) return;
        killGroup(child.pid);
        if (container) void dockerRm(container);
      },
    };
  }

  /** After a crash: kills the old process group if that very process still runs here, and removes its container. */
  async reap(handle: RunHandle): Promise<void> {
    if (handle.kind !== 'process') return;
    if (stillRunning(handle.process)) killGroup(handle.process.pid);
    if (handle.container && this.options.docker) await dockerRm(handle.container);
  }

  /** Through the shell's ulimit, then exec: CPU seconds, address space, processes. */
  private limits(req: RunRequest): string[] {
    const hw = hardwareOf(req.flavor);
    const cpuSecs = req.timeoutSeconds ? Math.ceil(req.timeoutSeconds * hw.vcpu) : 'unlimited';
    const limits = [`ulimit -t ${cpuSecs}`, `ulimit -v ${hw.ramGb * 1024 * 1024}`];
    // bash says -u, dash and busybox -p.
    if (this.identity) limits.push(`{ ulimit -u ${MAX_PROCESSES} || ulimit -p ${MAX_PROCESSES}; } 2>/dev/null`);
    return limits;
  }
}
