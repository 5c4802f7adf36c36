/**
 * The bubblewrap sandbox of one host-mode job (decision 0621): new user, pid, mount, ipc, uts,
 * cgroup and network namespaces; the system directories read-only; a private /tmp and /job (HOME),
 * each a tmpfs of a fixed size, and nothing else writable (decision 0626); nothing else of the machine (no home directories, no hub data
 * directory, no /var, no /run with its sockets). The pid namespace ends with the job: when its
 * command exits, bubblewrap's init exits and the kernel kills whatever the job left (detached or
 * not); when bubblewrap itself is killed, `--die-with-parent` takes the namespace down with it.
 */

/** Where the scratch directory appears inside the sandbox (HOME and the working directory). */
export const JOB_HOME = '/job';

/** Most of /dev/shm (as a container's default): it is a tmpfs, counted in the job's memory. */
const JOB_SHM_BYTES = 64 * 1024 * 1024;

/** Read-only system directories: bound when present (on merged-/usr systems /bin… are links, made as links). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/** What of /etc a command needs to run (users, the dynamic linker, alternatives, certificates, time zone). */
export const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/ca-certificates',
  '/etc/ssl',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/mime.types',
  '/etc/protocols',
  '/etc/services',
  '/etc/hosts',
];

export interface SandboxSpec {
  /**
   * Size of each writable place (/tmp and JOB_HOME, tmpfs of their own: nothing is written to the
   * host's disk); absent only where bwrap cannot size a tmpfs (HUB_JOBS_HOST_LIMITS=best-effort).
   */
  diskBytes?: number;
  /** The command and its arguments, run inside. */
  argv: string[];
  /** How a system directory appears on this machine: a link (its target) or a directory. */
  systemDir(path: string): { link: string } | 'dir' | 'absent';
}

/** Resource limits of a job's processes, set by its first process inside the sandbox (inherited by all it starts). */
export interface JobLimits {
  /** RLIMIT_CPU, seconds. */
  cpuSeconds?: number;
  /** RLIMIT_AS, KiB. */
  addressSpaceKb?: number;
  /** RLIMIT_NPROC (only meaningful for a uid of the job's own). */
  processes?: number;
}

/**
 * The job's first process inside the sandbox: a shell that sets its limits (soft and hard: the job
 * cannot raise them) and execs the command, so one missing from PATH ends with 127 and "not
 * found", as anywhere. The only process between bubblewrap and the command (decision 0640).
 */
export function jobShell(limits: JobLimits, command: string[]): string[] {
  const set: string[] = [];
  if (limits.cpuSeconds !== undefined) set.push(`ulimit -t ${limits.cpuSeconds}`);
  if (limits.addressSpaceKb !== undefined) set.push(`ulimit -v ${limits.addressSpaceKb}`);
  // bash says -u, dash and busybox -p.
  if (limits.processes !== undefined)
    set.push(`{ ulimit -u ${limits.processes} || ulimit -p ${limits.processes}; } 2>/dev/null`);
  return ['/bin/sh', '-c', [...set, 'exec "$@"'].join(' && '), 'job', ...command];
}

const sized = (bytes: number | undefined): string[] => (bytes === undefined ? [] : ['--size', String(bytes)]);

/** bwrap's arguments (after the program name) for one run. */
export function bwrapArgs(spec: SandboxSpec): string[] {
  const args = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--hostname',
    'job',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
  for (const dir of SYSTEM_DIRS) {
    const kind = spec.systemDir(dir);
    if (kind === 'absent') continue;
    if (kind === 'dir') args.push('--ro-bind', dir, dir);
    else args.push('--symlink', kind.link, dir);
  }
  for (const entry of ETC_ENTRIES) args.push('--ro-bind-try', entry, entry);
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...sized(spec.diskBytes === undefined ? undefined : Math.min(JOB_SHM_BYTES, spec.diskBytes)),
    '--tmpfs',
    '/dev/shm',
    '--perms',
    '1777',
    ...sized(spec.diskBytes),
    '--tmpfs',
    '/tmp',
    ...sized(spec.diskBytes),
    '--tmpfs',
    JOB_HOME,
    '--chdir',
    JOB_HOME,
    // The sandbox's own root and /dev are tmpfs without a size: read-only, nothing lands there.
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    // No user namespaces inside: a job cannot build itself a new set of privileges.
    '--disable-userns',
    '--',
    ...spec.argv,
  );
  return args;
}
