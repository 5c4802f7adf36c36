import { spawn } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { hardwareOf } from '@hub/contracts';
import { type JobRun, type JobRunner, type RunExit, type RunRequest } from './job-runner';

/** A PATH for user commands; nothing else of the hub's environment reaches a job. */
const JOB_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Processes a job may have at once (RLIMIT_NPROC counts the whole user: only applied when jobs run as their own user). */
const MAX_PROCESSES = 512;

function uidOf(user: string): { uid: number; gid: number } {
  if (/^\d+$/.test(user)) return { uid: Number(user), gid: Number(user) };
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[0] === user);
  if (!line) throw new Error(`HUB_JOBS_RUN_AS_USER ${user} is not a user of this machine`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Runs a job's command as a child process in its own scratch directory and process group. For
 * trusted users on one machine: see the service README for what it does not enforce.
 */
export class LocalRunner implements JobRunner {
  private readonly identity: { uid: number; gid: number } | undefined;

  constructor(private readonly workDir: string, runAsUser: string) {
    // Only root can switch users; anyone else runs jobs as themselves.
    this.identity = process.getuid?.() === 0 ? uidOf(runAsUser) : undefined;
  }

  start(req: RunRequest): JobRun {
    const argv = [...(req.command ?? []), ...(req.arguments ?? [])];
    const dir = join(this.workDir, `${req.jobId}-${req.attempt}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (this.identity) chownSync(dir, this.identity.uid, this.identity.gid);
    const hw = hardwareOf(req.flavor);
    // Limits through the shell's ulimit, then exec: CPU seconds, address space, processes.
    const cpuSecs = req.timeoutSeconds ? Math.ceil(req.timeoutSeconds * hw.vcpu) : 'unlimited';
    const limits = [`ulimit -t ${cpuSecs}`, `ulimit -v ${hw.ramGb * 1024 * 1024}`];
    // bash says -u, dash and busybox -p.
    if (this.identity) limits.push(`{ ulimit -u ${MAX_PROCESSES} || ulimit -p ${MAX_PROCESSES}; } 2>/dev/null`);
    const child = spawn('/bin/sh', ['-c', `${limits.join(' && ')} && exec "$@"`, 'job', ...argv], {
      cwd: dir,
      env: { PATH: JOB_PATH, HOME: dir, TMPDIR: dir, JOB_ID: req.jobId, ...req.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.identity ?? {}),
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => req.onLine(line));
    }
    let exited = false;
    const done = new Promise<RunExit>((resolve) => {
      child.on('error', (err) => { exited = true; resolve({ code: null, signal: null, error: err.message }); });
      child.on('close', (code, signal) => { exited = true; resolve({ code, signal }); });
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    return {
      done,
      pid: child.pid,
      kill: () => {
        // The whole process group: the command's children die with it.
        if (exited || child.pid === undefined) return;
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      },
    };
  }
}
