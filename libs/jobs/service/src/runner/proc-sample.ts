import { readFileSync, readlinkSync } from 'node:fs';

const TICKS_PER_SEC = 100;
const PAGE_SIZE = 4096;

export interface ProcSample {
  cpuTicks: number;
  rssBytes: number;
  at: number;
  /** Bytes received and sent by the run's own network since it began; absent when it has none of its own. */
  net?: { rx: number; tx: number };
  /** The memory the run may use, when the runner reads its limit (a container's). */
  memoryLimitBytes?: number;
}

const netNs = (pid: number | 'self'): string | null => {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
};

/** Received and sent bytes of every interface but loopback, from a `/proc/<pid>/net/dev` text. */
export function netDevTotals(text: string): { rx: number; tx: number } {
  let rx = 0;
  let tx = 0;
  for (const line of text.split('\n').slice(2)) {
    const [name, rest] = line.split(':');
    if (!rest || name.trim() === 'lo') continue;
    const f = rest.trim().split(/\s+/).map(Number);
    rx += f[0] || 0;
    tx += f[8] || 0;
  }
  return { rx, tx };
}

/** The traffic of `pid`'s network namespace, when it has its own (a shared one is this service's traffic). */
function readNet(pid: number): { rx: number; tx: number } | undefined {
  const ns = netNs(pid);
  if (!ns || ns === netNs('self')) return undefined;
  try {
    return netDevTotals(readFileSync(`/proc/${pid}/net/dev`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * CPU ticks, resident memory and (with a network of its own) traffic of one process from /proc
 * (Linux); null when it is gone. Synchronous: a /proc read takes microseconds, where fs/promises'
 * open, stat, read and close cost more than the read (1.8 ms of service CPU per job in the
 * bench:jobs profile, decision 0613).
 */
export function readProc(pid: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuTicks = Number(f[11]) + Number(f[12]);
    const rssBytes = Number(f[21]) * PAGE_SIZE;
    const net = readNet(pid);
    return { cpuTicks, rssBytes, at: Date.now(), ...(net ? { net } : {}) };
  } catch {
    return null;
  }
}

export function cpuPercent(prev: ProcSample | undefined, now: ProcSample): number {
  if (!prev || now.at <= prev.at) return 0;
  return Math.round(((now.cpuTicks - prev.cpuTicks) / TICKS_PER_SEC / ((now.at - prev.at) / 1000)) * 1000) / 10;
}

/** Bytes per second received and sent between two samples; 0 where either lacks the counters. */
export function netRates(prev: ProcSample | undefined, now: ProcSample): { rx: number; tx: number } {
  if (!prev?.net || !now.net || now.at <= prev.at) return { rx: 0, tx: 0 };
  const secs = (now.at - prev.at) / 1000;
  return {
    rx: Math.max(0, Math.round((now.net.rx - prev.net.rx) / secs)),
    tx: Math.max(0, Math.round((now.net.tx - prev.net.tx) / secs)),
  };
}
