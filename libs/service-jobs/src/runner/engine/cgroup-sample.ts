import { readFileSync } from 'node:fs';
import { type ProcSample } from '../proc-sample';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * CPU and memory of a whole container from its cgroup (all its processes, not just its init),
 * found through its init's /proc/<pid>/cgroup: cgroup v1 (memory.usage_in_bytes minus the page
 * cache, cpuacct.usage) or v2 (memory.current minus file pages, cpu.stat usage_usec). Null when
 * it is gone or not readable here (another machine's engine).
 */
export function readCgroup(pid: number): ProcSample | null {
  const lines = read(`/proc/${pid}/cgroup`)?.split('\n') ?? [];
  const v1 = (controller: string): string | undefined =>
    lines.find((l) => l.split(':')[1]?.split(',').includes(controller))?.split(':')[2];
  const memory = v1('memory');
  const cpu = v1('cpuacct');
  if (memory && cpu) {
    const usage = Number(read(`/sys/fs/cgroup/memory${memory}/memory.usage_in_bytes`));
    const cache = Number(
      /^total_cache (\d+)/m.exec(read(`/sys/fs/cgroup/memory${memory}/memory.stat`) ?? '')?.[1] ?? 0,
    );
    const ns = Number(read(`/sys/fs/cgroup/cpuacct${cpu}/cpuacct.usage`));
    if (!Number.isFinite(usage) || !Number.isFinite(ns)) return null;
    return { cpuTicks: ns / 1e7, rssBytes: Math.max(0, usage - cache), at: Date.now() };
  }
  const unified = lines.find((l) => l.startsWith('0::'))?.slice(3);
  if (!unified) return null;
  const current = Number(read(`/sys/fs/cgroup${unified}/memory.current`));
  const file = Number(/^file (\d+)/m.exec(read(`/sys/fs/cgroup${unified}/memory.stat`) ?? '')?.[1] ?? 0);
  const usec = Number(/^usage_usec (\d+)/m.exec(read(`/sys/fs/cgroup${unified}/cpu.stat`) ?? '')?.[1]);
  if (!Number.isFinite(current) || !Number.isFinite(usec)) return null;
  return { cpuTicks: usec / 1e4, rssBytes: Math.max(0, current - file), at: Date.now() };
}
