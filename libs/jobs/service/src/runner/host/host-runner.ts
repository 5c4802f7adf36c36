import { chmodSync, lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { hardwareOf } from '@hub/jobs-contract';
import { memoryBytesOf } from '../engine/container-options';
import { type JobRun, type JobRunner, type RunExit, type RunHandle, type RunRequest } from '../job-runner';
import { bootId, killGroup, stillRunning } from '../process-identity';
import { SpawnHelpers } from '../spawn-helper';
import { bwrapArgs, JOB_HOME, type JobLimits, jobShell, type SandboxSpec } from './bwrap-args';
import { BWRAP_MISSING } from './host-mode';
import { type JobCgroup, type JobCgroups } from './job-cgroups';
import { JobUids } from './job-uids';

/** A PATH for user commands; nothing else of the hub's environment reaches a job. */
const JOB_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** Processes per job (RLIMIT_NPROC counts a whole uid: set only when each job has its own). */
const MAX_PROCESSES = 512;

export interface HostRunnerOptions {
  workDir: string;
  /** The bwrap executable; null: every run is refused, naming the package to install. */
  bwrap: string | null;
  /** First host uid for jobs when the service runs as root, and how many. */
  uidBase: number;
  uidCount: number;
  /** Size of the job's /tmp and of its home (tmpfs each), HUB_JOBS_TMP_SIZE_MB; absent where bwrap cannot size them. */
  diskBytes?: number;
  /** Caps the flavor's memory (HUB_JOBS_MEMORY_LIMIT_MB). */
  memoryLimitMb?: number;
  /**
   * Where each run's memory is capped (decision 0626). Absent: the caps cannot hold on this
   * machine, and `uncapped` says why: runs are refused with it, or run under RLIMIT_AS alone when
   * the operator said so (HUB_JOBS_HOST_LIMITS=best-effort).
   */
  cgroups?: JobCgroups;
  uncapped?: { reason: string; allowed: boolean };
}

const systemDir: SandboxSpec['systemDir'] = (path) => {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return 'absent';
  return st.isSymbolicLink() ? { link: readlinkSync(path) } : st.isDirectory() ? 'dir' : 'absent';
};

const refused = (error: string): JobRun => ({
  done: Promise.resolve<RunExit>({ code: null, signal: null, error }),
  kill: () => undefined,
});

/**
 * Host mode (HUB_JOBS_ENGINE=host, or the all-in-one hub without an engine): the job's command
 * runs on this machine inside a bubblewrap sandbox (see bwrap-args.ts), started through the spawn
 * helper so the service never forks itself. `dockerImage` is not used: the machine's own /usr is.
 */
export class HostRunner implements JobRunner {
  private readonly logger = new Logger('HostRunner');
  private readonly helper = new SpawnHelpers();
  private readonly uids: JobUids | undefined;

  constructor(private readonly options: HostRunnerOptions) {
    // Only root can give each job a uid of its own; anyone else runs them all as itself.
    this.uids = process.getuid?.() === 0 ? new JobUids(options.uidBase, options.uidCount) : undefined;
    if (!options.bwrap) this.logger.warn(BWRAP_MISSING);
    if (this.uids) this.letJobUidsThrough(options.workDir);
  }

  /** A job's uid must pass through the work directory to its own scratch directory (searchable, never listable). */
  private letJobUidsThrough(workDir: string): void {
    mkdirSync(workDir, { recursive: true, mode: 0o711 });
    const st = lstatSync(workDir);
    if (st.isDirectory() && st.uid === 0 && (st.mode & 0o001) === 0) {
      chmodSync(workDir, (st.mode & 0o7777) | 0o011);
      this.logger.log(
        `${workDir} made searchable (not readable) by others: each host-mode job runs as a uid of its own`,
      );
    }
  }

  async start(req: RunRequest): Promise<JobRun> {
    if (!this.options.bwrap) return refused(BWRAP_MISSING);
    const { uncapped } = this.options;
    if (uncapped && !uncapped.allowed) return refused(uncapped.reason);
    const uid = this.uids?.take();
    if (uid === null) return refused('every host uid for jobs is in use (HUB_JOBS_HOST_UID_COUNT)');
    const name = `${req.jobId}-${req.attempt}`;
    const dir = join(this.options.workDir, name);
    const memoryBytes = memoryBytesOf(req, this.options);
    let cgroup: JobCgroup | undefined;
    try {
      cgroup = this.options.cgroups?.create(name, { memoryBytes, processes: MAX_PROCESSES });
    } catch (err) {
      if (uid !== undefined) this.uids?.release(uid);
      return refused(`could not make the job's cgroup: ${(err as Error).message}`);
    }
    const limits = this.limits(req, uid !== undefined, cgroup ? undefined : memoryBytes);
    const argv = jobShell(limits, [...(req.command ?? ['true']), ...(req.arguments ?? [])]);
    const child = await this.helper.spawn({
      file: this.options.bwrap,
      args: bwrapArgs({ ...(this.options.diskBytes ? { diskBytes: this.options.diskBytes } : {}), argv, systemDir }),
      dir,
      env: { PATH: JOB_PATH, HOME: JOB_HOME, TMPDIR: '/tmp', JOB_ID: req.jobId, ...req.env, ...req.secrets },
      ...(uid !== undefined ? { owner: { uid, gid: uid } } : {}),
      ...(cgroup ? { cgroup: { procs: cgroup.procs, home: cgroup.home } } : {}),
      ...(req.log ? { log: req.log } : {}),
      ...(req.readBytes ? { readBytes: req.readBytes } : {}),
      onLine: req.onLine,
      ...(req.onDropped ? { onDropped: req.onDropped } : {}),
    });
    let exited = false;
    const done = child.exit.then((exit): RunExit => {
      exited = true;
      if (uid !== undefined) this.uids?.release(uid);
      const oom = cgroup ? cgroup.oomKills() > 0 : false;
      cgroup?.remove();
      if (oom && exit.code !== 0)
        return {
          ...exit,
          reason: `ran out of memory: killed at its limit of ${Math.round(memoryBytes / 1024 ** 2)} MiB`,
        };
      return exit;
    });
    const pid = child.pid ?? undefined;
    const handle: RunHandle | undefined =
      pid !== undefined && child.startTicks !== null
        ? { kind: 'process', process: { bootId: bootId(), pid, startTicks: child.startTicks } }
        : undefined;
    return {
      done,
      pid,
      ...(handle ? { handle } : {}),
      kill: () => {
        // bwrap leads the group; its sandbox's init dies with it, and with that init every process of the job.
        if (!exited && pid !== undefined) killGroup(pid);
      },
    };
  }

  open(): void {
    this.helper.open().catch(() => undefined); // the first spawn reports the error
  }

  close(): Promise<void> {
    return this.helper.close();
  }

  /** After a crash: kills the old sandbox if that very bwrap process still runs here. */
  async reap(handle: RunHandle): Promise<void> {
    if (handle.kind === 'process' && stillRunning(handle.process)) killGroup(handle.process.pid);
  }

  /**
   * CPU seconds (the timeout times the flavor's vCPUs), processes (own uid only), and address space
   * (its memory) only where no cgroup caps the memory: RLIMIT_AS is per process and counts what is
   * reserved, not used, the fallback of HUB_JOBS_HOST_LIMITS=best-effort.
   */
  private limits(req: RunRequest, ownUid: boolean, addressSpaceBytes: number | undefined): JobLimits {
    const hw = hardwareOf(req.flavor);
    return {
      ...(req.timeoutSeconds ? { cpuSeconds: Math.ceil(req.timeoutSeconds * hw.vcpu) } : {}),
      ...(addressSpaceBytes !== undefined ? { addressSpaceKb: Math.ceil(addressSpaceBytes / 1024) } : {}),
      ...(ownUid ? { processes: MAX_PROCESSES } : {}),
    };
  }
}
