import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hardwareOf } from '@hub/contracts';
import { containerName, dockerClientEnv, dockerRunArgs, MAX_PROCESSES } from './docker-args';
import { type JobRun, type JobRunner, type RunHandle, type RunRequest } from './job-runner';
import { bootId, killGroup, stillRunning } from './process-identity';
import { SpawnHelper, type SpawnLimits } from './spawn-helper';

/** A PATH for user commands; nothing else of the hub's environment reaches a job. */
const JOB_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function uidOf(user: string): { uid: number; gid: number } {
  if (/^\d+$/.test(user)) return { uid: Number(user), gid: Number(user) };
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[0] === user);
  if (!line) throw new Error(`HUB_JOBS_RUN_AS_USER ${user} is not a user of this machine`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const dockerRm = (name: string): Promise<void> =>
  new Promise((r) => execFile('docker', ['rm', '-f', name], { timeout: 30_000 }, () => r()));

export interface LocalRunnerOptions {
  workDir: string;
  runAsUser: string;
  docker: boolean;
}

/**
 * Runs a job's command as a child process in its own scratch directory and process group, or
 * with `docker run` when the job names a `dockerImage` and a Docker engine is reachable. For
 * trusted users on one machine: see the service README for what it does not enforce.
 */
export class LocalRunner implements JobRunner {
  private readonly identity: { uid: number; gid: number } | undefined;
  private readonly helper: SpawnHelper;

  constructor(private readonly options: LocalRunnerOptions) {
    // Only root can switch users; anyone else runs jobs as themselves.
    this.identity = process.getuid?.() === 0 ? uidOf(options.runAsUser) : undefined;
    this.helper = new SpawnHelper();
  }

  async start(req: RunRequest): Promise<JobRun> {
    const dir = join(this.options.workDir, `${req.jobId}-${req.attempt}`);
    const container = this.options.docker && req.dockerImage ? containerName(req.jobId, req.attempt) : undefined;
    const command =
      req.dockerImage && container
        ? {
            file: 'docker',
            args: dockerRunArgs({ ...req, dockerImage: req.dockerImage }),
            env: dockerClientEnv(req, process.env),
          }
        : {
            // A job without a command (an image's default one, where there is no Docker) has nothing to run.
            ...(req.command?.length
              ? { file: req.command[0] as string, args: [...req.command.slice(1), ...(req.arguments ?? [])] }
              : { file: 'true', args: [] }),
            env: { PATH: JOB_PATH, HOME: dir, TMPDIR: dir, JOB_ID: req.jobId, ...req.env, ...req.secrets },
            limits: this.limits(req),
          };
    const child = await this.helper.spawn({
      ...command,
      dir,
      ...(this.identity ? { owner: this.identity } : {}),
      onLine: req.onLine,
    });
    let exited = false;
    const done = child.exit.then((exit) => {
      exited = true;
      return exit;
    });
    const pid = child.pid ?? undefined;
    const proc =
      pid !== undefined && child.startTicks !== null
        ? { bootId: bootId(), pid, startTicks: child.startTicks }
        : undefined;
    return {
      done,
      pid,
      ...(proc ? { handle: { kind: 'process' as const, process: proc, ...(container ? { container } : {}) } } : {}),
      kill: () => {
        // The whole process group: the command's children die with it (and the container, which the client does not stop).
        if (exited || pid === undefined) return;
        killGroup(pid);
        if (container) void dockerRm(container);
      },
    };
  }

  /** Starts the spawn helper now rather than with the first job. */
  open(): void {
    this.helper.open().catch(() => undefined); // the first spawn reports the error
  }

  /** Stops the spawn helper (it kills whatever it still runs). */
  close(): Promise<void> {
    return this.helper.close();
  }

  /** After a crash: kills the old process group if that very process still runs here, and removes its container. */
  async reap(handle: RunHandle): Promise<void> {
    if (handle.kind !== 'process') return;
    if (stillRunning(handle.process)) killGroup(handle.process.pid);
    if (handle.container && this.options.docker) await dockerRm(handle.container);
  }

  /** CPU seconds (the timeout times the flavor's vCPUs), address space (its RAM), processes (for the job user only). */
  private limits(req: RunRequest): SpawnLimits {
    const hw = hardwareOf(req.flavor);
    return {
      ...(req.timeoutSeconds ? { cpuSeconds: Math.ceil(req.timeoutSeconds * hw.vcpu) } : {}),
      addressSpaceKb: hw.ramGb * 1024 * 1024,
      ...(this.identity ? { processes: MAX_PROCESSES } : {}),
    };
  }
}
