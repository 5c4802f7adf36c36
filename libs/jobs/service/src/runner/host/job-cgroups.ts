import { mkdirSync, readFileSync, rmdir, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the cgroup file systems are mounted (v1: one folder per controller; v2: the unified tree). */
const CGROUP_ROOT = '/sys/fs/cgroup';
/** The folder made under the service's own cgroup for its jobs' cgroups. */
const JOBS_FOLDER = 'hub-jobs';
/** The file a process is moved into a cgroup by (its pid written there). */
const PROCS = 'cgroup.procs';

export interface CgroupLimits {
  memoryBytes: number;
  processes: number;
}

/**
 * The cgroup of one run. The spawn helper steps into `procs` for the fork of the run's first
 * process (which so starts in them) and straight back into `home`.
 */
export interface JobCgroup {
  /** The run's `cgroup.procs` files (one per v1 controller). */
  procs: string[];
  /** The service's own `cgroup.procs` in the same hierarchies, where the helper lives: in the same order. */
  home: string[];
  /** How many times the kernel's OOM killer killed a process of this run at its limit. */
  oomKills(): number;
  /** Removes the cgroup once its processes are gone (best effort). */
  remove(): void;
}

/** The layout found on this machine: cgroup v1 (memory and pids hierarchies) or v2 (unified). */
export type CgroupLayout = { version: 1; memory: string; pids?: string } | { version: 2; base: string; home: string };

/**
 * The service's own cgroups, from the text of /proc/self/cgroup: v1 when a `memory` hierarchy is
 * listed, v2 when only the unified one (`0::/path`) is. Null when neither is (not Linux).
 */
export function ownCgroups(
  procSelfCgroup: string,
): { version: 1; memory: string; pids?: string } | { version: 2; path: string } | null {
  const lines = procSelfCgroup.split('\n').filter(Boolean);
  const v1 = (controller: string): string | undefined =>
    lines.find((l) => l.split(':')[1]?.split(',').includes(controller))?.split(':')[2];
  const memory = v1('memory');
  if (memory !== undefined) {
    const pids = v1('pids');
    return { version: 1, memory, ...(pids !== undefined ? { pids } : {}) };
  }
  const unified = lines.find((l) => l.startsWith('0::'));
  return unified ? { version: 2, path: unified.slice(3) } : null;
}

const read = (file: string): string => readFileSync(file, 'utf8');

/**
 * Per-run cgroups for host-mode jobs (decision 0626): memory (no swap beyond it) and processes
 * capped as a container's are. `prepare` makes (or finds) the folder its runs go in and says why
 * it cannot where it cannot (not root and not delegated, no memory controller).
 */
export class JobCgroups {
  private constructor(private readonly layout: CgroupLayout) {}

  /** The jobs' cgroups under the service's own, or the reason they cannot be made here. */
  static prepare(root = CGROUP_ROOT): JobCgroups | string {
    let own: ReturnType<typeof ownCgroups>;
    try {
      own = ownCgroups(read('/proc/self/cgroup'));
    } catch {
      own = null;
    }
    if (!own) return 'this machine has no cgroups (/proc/self/cgroup)';
    try {
      if (own.version === 1) {
        const memory = join(root, 'memory', own.memory, JOBS_FOLDER);
        mkdirSync(memory, { recursive: true });
        // Children's usage counts in their parent's (already so on most kernels; refused once it has children).
        tryWrite(join(memory, 'memory.use_hierarchy'), '1');
        let pids: string | undefined = own.pids !== undefined ? join(root, 'pids', own.pids, JOBS_FOLDER) : undefined;
        try {
          if (pids) mkdirSync(pids, { recursive: true });
        } catch {
          pids = undefined; // memory is what matters; RLIMIT_NPROC still counts the job's own uid
        }
        return new JobCgroups({ version: 1, memory, ...(pids ? { pids } : {}) });
      }
      // The jobs' folder may sit beside the service's cgroup (unifiedBase): home is named apart.
      const base = JobCgroups.unifiedBase(root, own.path);
      return new JobCgroups({ version: 2, base, home: join(root, own.path, PROCS) });
    } catch (err) {
      return `the service cannot make cgroups for its jobs (${(err as Error).message})`;
    }
  }

  /**
   * v2 lets a cgroup with processes in it have no children with controllers ("no internal
   * processes"): the jobs' folder goes beside the service's own cgroup when the service's holds
   * processes (it does: the service), and needs the memory controller handed down to it.
   */
  private static unifiedBase(root: string, path: string): string {
    const own = join(root, path);
    const errors: string[] = [];
    for (const parent of [own, join(own, '..')]) {
      const base = join(parent, parent === own ? JOBS_FOLDER : `${JOBS_FOLDER}-${process.pid}`);
      try {
        if (!read(join(parent, 'cgroup.controllers')).split(/\s+/).includes('memory'))
          throw new Error(`no memory controller in ${parent}`);
        writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory');
        tryWrite(join(parent, 'cgroup.subtree_control'), '+pids');
        mkdirSync(base, { recursive: true });
        writeFileSync(join(base, 'cgroup.subtree_control'), '+memory');
        tryWrite(join(base, 'cgroup.subtree_control'), '+pids');
        return base;
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    throw new Error(errors.join('; '));
  }

  /** A fresh cgroup for one run, with its limits set. */
  create(name: string, limits: CgroupLimits): JobCgroup {
    if (this.layout.version === 1) return this.createV1(this.layout, name, limits);
    const dir = join(this.layout.base, name);
    freshDir(dir);
    writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
    tryWrite(join(dir, 'memory.swap.max'), '0');
    tryWrite(join(dir, 'pids.max'), String(limits.processes));
    return {
      procs: [join(dir, PROCS)],
      home: [this.layout.home],
      oomKills: () => Number(/^oom_kill (\d+)/m.exec(tryRead(join(dir, 'memory.events')))?.[1] ?? 0),
      remove: () => removeDir(dir),
    };
  }

  private createV1(layout: Extract<CgroupLayout, { version: 1 }>, name: string, limits: CgroupLimits): JobCgroup {
    const memory = join(layout.memory, name);
    freshDir(memory);
    writeFileSync(join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // Memory + swap at the same bound: no swapping past it (absent when the kernel does not account swap).
    tryWrite(join(memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
    const dirs = [memory];
    if (layout.pids) {
      const pids = join(layout.pids, name);
      freshDir(pids);
      writeFileSync(join(pids, 'pids.max'), String(limits.processes));
      dirs.push(pids);
    }
    return {
      procs: dirs.map((d) => join(d, PROCS)),
      // v1's jobs folder is in the service's own cgroup of each hierarchy: two levels up.
      home: dirs.map((d) => join(dirname(dirname(d)), PROCS)),
      oomKills: () => Number(/^oom_kill (\d+)/m.exec(tryRead(join(memory, 'memory.oom_control')))?.[1] ?? 0),
      remove: () => dirs.forEach(removeDir),
    };
  }
}

/** A run's cgroup, made anew (one a crashed service left for the same run is removed first if empty). */
function freshDir(dir: string): void {
  try {
    mkdirSync(dir);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    rmdirSync(dir);
  } catch {
    // still in use: mkdir says so
  }
  mkdirSync(dir);
}

function tryRead(file: string): string {
  try {
    return read(file);
  } catch {
    return '';
  }
}

function tryWrite(file: string, value: string): void {
  try {
    writeFileSync(file, value);
  } catch {
    // an optional control this kernel does not have
  }
}

/**
 * A cgroup folder goes once its last process is gone: the kernel may take a moment after the exit.
 * Off the event loop (a memory cgroup's rmdir waits in the kernel), so launches never wait on an exit's.
 */
function removeDir(dir: string, attempt = 0): void {
  rmdir(dir, (err) => {
    if (err?.code === 'EBUSY' && attempt < 20) setTimeout(() => removeDir(dir, attempt + 1), 50).unref();
  });
}
