import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** What test-k8s.sh passes to the *.k8s-spec.ts files (the gateway pod's URL, the admin token, the node). */
export const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this through npm run test:k8s (k8s/local/test-k8s.sh)`);
  return v;
};

export interface KubeList<T> {
  items: T[];
}

/** `kubectl … -o json`, parsed. */
export const kubectl = <T>(...args: string[]): T =>
  JSON.parse(execFileSync('kubectl', [...args, '-o', 'json'], { encoding: 'utf8' })) as T;

/** The names of the objects of `kind` in hub-jobs labelled with the hub's job id. */
export const namesOf = (kind: string, jobId: string): string[] =>
  kubectl<KubeList<{ metadata: { name: string } }>>(
    '-n',
    'hub-jobs',
    'get',
    kind,
    '-l',
    `hub.jobs/job-id=${jobId}`,
  ).items.map((o) => o.metadata.name);

/** Polls `probe` every 500 ms until it holds (its last value is returned either way: the caller asserts it). */
export async function until<T>(probe: () => T, holds: (v: T) => boolean, ms = 180_000): Promise<T> {
  const deadline = Date.now() + ms;
  let v = probe();
  while (!holds(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    v = probe();
  }
  return v;
}

/** The host pid of a container's first process (pid 1 in its namespace), found by its id in the processes' cgroups. */
export function hostPidOf(containerId: string): number {
  const id = containerId.replace(/^[a-z]+:\/\//, '');
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${p}/cgroup`, 'utf8').includes(id)) continue;
      if (/^NSpid:\s+\d+\s+1$/m.test(readFileSync(`/proc/${p}/status`, 'utf8'))) return Number(p);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no process of container ${id} found`);
}
