import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hardwareOf } from '@hub/contracts';
import { MAX_PROCESSES } from './engine/container-options';
import { type JobRun, type JobRunner, type RunHandle, type RunRequest } from './job-runner';
import { bootId, killGroup, stillRunning } from './process-identity';
import { SpawnHelper, type SpawnHelperKind, type SpawnLimits } from './spawn-helper';

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

export interface LocalRunnerOptions {
  workDir: string;
  runAsUser: string;
  spawnHelper?: SpawnHelperKind;
}

/**
 * Runs a job's command as a child process in its own scratch directory and process group
 * (HUB_JOBS_ENGINE=host; with an engine, EngineRunner runs containers). For trusted users on one
 * machine: see the service README for what it does not enforce.
 */
export class LocalRunner implements JobRunner {
  private readonly identity: { uid: number; gid: number } | undefined;
  private readonly helper: SpawnHelper;

  constructor(private readonly options: LocalRunnerOptions) {
    // Only root can switch users; anyone else runs jobs as themselves.
    this.identity = process.getuid?.() === 0 ? uidOf(options.runAsUser) : undefined;
    this.helper = new SpawnHelper(options.spawnHelper);
  }

  async start(req: RunRequest): Promise<JobRun> {
    const dir = join(this.options.workDir, `${req.jobId}-${req.attempt}`);
    const command = {
      // A job without a command (an image's default one) has nothing to run on the host.
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
      ...(proc ? { handle: { kind: 'process' as const, process: proc } } : {}),
      kill: () => {
        // The whole process group: the command's children die with it.
        if (exited || pid === undefined) return;
        killGroup(pid);
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

  /** After a crash: kills the old process group if that very process still runs here. */
  async reap(handle: RunHandle): Promise<void> {
    if (handle.kind !== 'process') return;
    if (stillRunning(handle.process)) killGroup(handle.process.pid);
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
