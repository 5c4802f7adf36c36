import { readFileSync } from 'node:fs';

const TICKS_PER_SEC = 100;
const PAGE_SIZE = 4096;

export interface ProcSample {
  cpuTicks: number;
  rssBytes: number;
  at: number;
}

/**
 * CPU ticks and resident memory of one process from /proc (Linux); null when it is gone.
 * Synchronous: a /proc read takes microseconds, where fs/promises' open, stat, read and close
 * cost more than the read (1.8 ms of service CPU per job in the bench:jobs profile, decision 0613).
 */
export function readProc(pid: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuTicks = Number(f[11]) + Number(f[12]);
    const rssBytes = Number(f[21]) * PAGE_SIZE;
    return { cpuTicks, rssBytes, at: Date.now() };
  } catch {
    return null;
  }
}

export function cpuPercent(prev: ProcSample | undefined, now: ProcSample): number {
  if (!prev || now.at <= prev.at) return 0;
  return Math.round(((now.cpuTicks - prev.cpuTicks) / TICKS_PER_SEC / ((now.at - prev.at) / 1000)) * 1000) / 10;
}
