import { readFileSync, readlinkSync } from 'node:fs';
import { type ProcessIdentity } from '../jobs/job-runs';

export type { ProcessIdentity };

let cachedBootId: string | undefined;

/**
 * Where this process's pids mean something: the machine's boot id (Linux) and this process's pid
 * namespace. Two containers on one node (a jobs pod and its replacement during a rolling update)
 * share the boot id but not their pids: without the namespace, the new pod read the old pod's
 * pid 1 as its own and settled, then stopped, every job the old pod still ran (found by the
 * Kubernetes upgrade test, decision 0207). A process of another boot, machine or namespace is
 * never ours to kill: its jobs are settled only after HUB_JOBS_STALE_MS of silence.
 */
export function bootId(): string {
  cachedBootId ??= `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/${pidNamespace()}`;
  return cachedBootId;
}

/** The inode of this process's pid namespace (`pid:[4026531836]` → `4026531836`), or `?` where unreadable. */
function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '?';
  } catch {
    return '?';
  }
}

/** The start time of a process in clock ticks since boot (/proc/<pid>/stat field 22); null when it is gone. */
export function startTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

export function identityOf(pid: number): ProcessIdentity | null {
  const ticks = startTicks(pid);
  return ticks === null ? null : { bootId: bootId(), pid, startTicks: ticks };
}

/** True while that very process (not a later one with its pid) runs on this machine. */
export function stillRunning(p: ProcessIdentity): boolean {
  return p.bootId === bootId() && startTicks(p.pid) === p.startTicks;
}

/** Kills a process group (a job's process and everything it started) by its leader's pid. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}
