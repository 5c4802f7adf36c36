// CPU time from /proc for the jobs bench (run.mjs, flood.mjs): a process's, the hub's and its
// helpers', the engine's daemons', and the whole machine's.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) a process has used so far, from /proc/<pid>/stat (Linux); 0 once it is gone. */
export const cpuMs = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
};
/** The live child processes of a process (all its threads'), from /proc. */
export const childrenOf = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
      readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
};
/** The container engine's daemons (dockerd, containerd, podman), by name from /proc: their CPU is the engine's cost per job. */
export const enginePids = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return ['dockerd', 'containerd', 'podman'].includes(readFileSync(`/proc/${d}/comm`, 'utf8').trim());
      } catch {
        return false;
      }
    })
    .map(Number);
export const engineCpu = (pids) => pids.reduce((s, p) => s + cpuMs(p), 0);
/** CPU time every process of the machine has used so far (/proc/stat: user, nice, system, irq, softirq, steal), in ms. */
export const machineCpuMs = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0)) * 10;
};
/**
 * CPU time of the hub's own process and of its long-lived children (the jobs spawn helper), per
 * pid: sampled when no job runs, so the only children are helpers.
 */
export const cpuOf = (pid) => new Map([[pid, cpuMs(pid)], ...childrenOf(pid).map((c) => [c, cpuMs(c)])]);
export const cpuSpent = (hubPid, before, after) => {
  let helpers = 0;
  for (const [pid, ms] of after) if (pid !== hubPid) helpers += ms - (before.get(pid) ?? 0);
  return { hub: after.get(hubPid) - before.get(hubPid), helpers };
};
