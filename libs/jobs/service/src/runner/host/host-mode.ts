import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** Where bubblewrap is looked for (the service's own PATH is not the jobs'). */
const BWRAP_DIRS = ['/usr/bin', '/usr/local/bin', '/bin'];

/** What a host-mode job's status says when bubblewrap is missing. */
export const BWRAP_MISSING =
  "host mode runs each job sandboxed with bubblewrap, which is not installed: install Debian's bubblewrap package (apt-get install bubblewrap), or a Docker or Podman engine";

/** The bwrap executable, or null when this machine has none. */
export function findBwrap(dirs: readonly string[] = BWRAP_DIRS): string | null {
  for (const dir of dirs) {
    const file = join(dir, 'bwrap');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

export class HostModeRefusedError extends Error {}

/**
 * A distributed jobs service (its own process, for many users) runs jobs on its machine only when
 * told to: without a container engine it refuses to start unless HUB_JOBS_ENGINE=host. The
 * all-in-one hub (`npm start` on a laptop) falls back to host mode by itself, and says so.
 */
export function assertDistributedRunner(options: { runner: string; engine: string; engineFound: boolean }): void {
  if (options.runner !== 'local' || options.engine === 'host' || options.engineFound) return;
  throw new HostModeRefusedError(
    `no container engine found (HUB_JOBS_ENGINE=${options.engine}): start Docker or Podman for the jobs service, ` +
      'or set HUB_JOBS_ENGINE=host to run jobs on this machine, each sandboxed with bubblewrap (no network, see the jobs README)',
  );
}

/** Whether this bwrap can size a tmpfs (`--size`, bubblewrap 0.5 and later): the job's disk cap. */
export function bwrapSizesTmpfs(bwrap: string): boolean {
  try {
    return /--size\b/.test(execFileSync(bwrap, ['--help'], { encoding: 'utf8', stdio: 'pipe' }));
  } catch {
    return false;
  }
}

/**
 * Why a host-mode job's memory or disk could not be capped here (decision 0626), or null when
 * both can: a cgroup of its own (`cgroupsMissing` says why there is none) and sized tmpfs.
 */
export function uncappedReason(o: { cgroupsMissing: string | null; sizedTmpfs: boolean }): string | null {
  const missing = [
    ...(o.cgroupsMissing
      ? [`memory (${o.cgroupsMissing}: run the service as root, or in a cgroup delegated to its user)`]
      : []),
    ...(o.sizedTmpfs ? [] : ['disk (this bubblewrap has no --size: install bubblewrap 0.5 or later)']),
  ];
  if (missing.length === 0) return null;
  return (
    `host mode cannot cap a job's ${missing.join(', nor ')}; ` +
    'jobs are refused until that is fixed, or until HUB_JOBS_HOST_LIMITS=best-effort says to run them without those caps'
  );
}
