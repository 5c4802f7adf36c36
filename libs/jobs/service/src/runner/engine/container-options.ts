import { type ContainerCreateOptions } from 'dockerode';
import { hardwareOf } from '@hub/jobs-contract';
import { type RunRequest } from '../job-runner';

/** Processes a job container may have at once. */
export const MAX_PROCESSES = 512;
/** Where a job starts: writable (tmpfs), also its HOME. */
export const WORK_DIR = '/work';
/** The engine's own copy of the output (json-file), beside what the hub keeps: bounded. */
export const ENGINE_LOG_MAX = '1m';

/** The container's name: a restarted service finds it by it (and by the `hub.job` label). */
export const containerName = (jobId: string, attempt: number): string => `hub-job-${jobId}-${attempt}`;

export interface ContainerSettings {
  /** Podman refuses tmpfs uid/gid options (its /work is mode 1777 instead); Docker resets a tmpfs work dir's mode (so it gets the job user as owner). */
  engine?: 'docker' | 'podman';
  network: string;
  user: string;
  tmpSizeMb: number;
  /** Caps the flavor's memory (HUB_JOBS_MEMORY_LIMIT_MB). */
  memoryLimitMb?: number;
}

/** The memory a job container gets: its flavor's RAM, or less under HUB_JOBS_MEMORY_LIMIT_MB. */
export function memoryBytesOf(req: Pick<RunRequest, 'flavor'>, s: Pick<ContainerSettings, 'memoryLimitMb'>): number {
  const flavor = hardwareOf(req.flavor).ramGb * 1024 ** 3;
  return s.memoryLimitMb ? Math.min(flavor, s.memoryLimitMb * 1024 ** 2) : flavor;
}

/**
 * The create request of a job's container: its image and command, non-root, no capabilities, no
 * new privileges, a read-only root with size-bounded tmpfs /tmp and work directory, memory (no
 * swap beyond it) and CPU quota from the flavor, a pid limit, the jobs network, and its
 * environment (secrets included) in the create body, never on a command line.
 */
export function containerOptions(
  req: RunRequest & { dockerImage: string },
  s: ContainerSettings,
): ContainerCreateOptions {
  const hw = hardwareOf(req.flavor);
  const memory = memoryBytesOf(req, s);
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: WORK_DIR,
    TMPDIR: '/tmp',
    ...req.env,
    ...req.secrets,
    JOB_ID: req.jobId,
  };
  const tmpfs = `rw,exec,nosuid,nodev,size=${s.tmpSizeMb}m`;
  const [uid, gid] = s.user.split(':');
  return {
    name: containerName(req.jobId, req.attempt),
    Image: req.dockerImage,
    ...(req.command?.length ? { Entrypoint: [req.command[0]] } : {}),
    Cmd: [...(req.command ?? []).slice(1), ...(req.arguments ?? [])],
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    User: s.user,
    WorkingDir: WORK_DIR,
    Labels: { 'hub.job': req.jobId, 'hub.job.attempt': String(req.attempt) },
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    OpenStdin: false,
    ...(req.expose?.ports.length
      ? { ExposedPorts: Object.fromEntries(req.expose.ports.map((p) => [`${p}/tcp`, {}])) }
      : {}),
    HostConfig: {
      Init: true,
      ReadonlyRootfs: true,
      Tmpfs: {
        '/tmp': `${tmpfs},mode=1777`,
        [WORK_DIR]: s.engine === 'podman' ? `${tmpfs},mode=1777` : `${tmpfs},mode=0700,uid=${uid},gid=${gid}`,
      },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(hw.vcpu * 1e9),
      PidsLimit: MAX_PROCESSES,
      NetworkMode: s.network,
      LogConfig: { Type: 'json-file', Config: { 'max-size': ENGINE_LOG_MAX, 'max-file': '1' } },
      AutoRemove: false,
    },
  };
}
