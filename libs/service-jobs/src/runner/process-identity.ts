import { readFileSync } from 'node:fs';
import { type ProcessIdentity } from '../jobs/job-runs';

export type { ProcessIdentity };

let cachedBootId: string | undefined;

/** This machine's boot id (Linux); a process of another boot or machine is never ours to kill. */
export function bootId(): string {
  cachedBootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return cachedBootId;
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
