// What bench/jobs/bare.ts and minimal.ts share: host mode's sandbox as the hub builds it by
// default, and the machine's CPU clock.
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { type SandboxSpec } from '../../libs/jobs/service/src/runner/host/bwrap-args';

/** The hub's defaults (jobs.config.ts): HUB_JOBS_TMP_SIZE_MB, HUB_JOBS_HOST_UID_BASE. */
export const TMP_SIZE_MB = Number(process.env.HUB_JOBS_TMP_SIZE_MB ?? 512);
export const UID_BASE = 1_500_000_000;

export const systemDir: SandboxSpec['systemDir'] = (path) => {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return 'absent';
  return st.isSymbolicLink() ? { link: readlinkSync(path) } : st.isDirectory() ? 'dir' : 'absent';
};

/** CPU time every process of the machine has used so far (/proc/stat: user, nice, system, irq, softirq, steal), in ms. */
export function machineCpuMs(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}
