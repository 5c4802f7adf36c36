import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBwrap } from './host-mode';
import { HostRunner, type HostRunnerOptions } from './host-runner';
import { type JobCgroup, JobCgroups } from './job-cgroups';
import { type RunRequest } from '../job-runner';

const bwrap = findBwrap();
const root = process.getuid?.() === 0;
// CI installs bubblewrap and runs as root with cgroups (.ci/run): there these never skip.
const withBwrap = bwrap || process.env.HUB_TEST_REQUIRE_INFRA ? it : it.skip;
const cgroups = root ? JobCgroups.prepare() : 'not root';
const withCgroups = bwrap && typeof cgroups !== 'string' ? it : process.env.HUB_TEST_REQUIRE_INFRA ? it : it.skip;

const request = (jobId: string, command: string[], onLine: (l: string) => void): RunRequest => ({
  jobId,
  attempt: 1,
  flavor: 'cpu-basic',
  command,
  timeoutSeconds: 7,
  env: {},
  secrets: {},
  onLine,
});

const runner = (options: Partial<HostRunnerOptions> = {}): HostRunner =>
  new HostRunner({
    workDir: mkdtempSync(join(tmpdir(), 'host-runner-')),
    bwrap,
    uidBase: 1_500_000_000,
    uidCount: 10,
    ...options,
  });

/** Processes (pids) whose command name is the spawn helper's. */
const helpers = (): string[] =>
  readdirSync('/proc').filter((p) => {
    try {
      return /^\d+$/.test(p) && readFileSync(`/proc/${p}/comm`, 'utf8').startsWith('hub-jobs-spawn');
    } catch {
      return false;
    }
  });

describe('HostRunner (a job in a bubblewrap sandbox, started through the spawn helper)', () => {
  withBwrap(
    'the job runs under its limits, set inside the sandbox before the command (CPU seconds, processes); a missing command exits 127 saying so',
    async () => {
      const r = runner();
      try {
        const lines: string[] = [];
        const run = await r.start(
          request('limits', ['sh', '-c', 'ulimit -t; ulimit -Ht; ulimit -p 2>/dev/null || ulimit -u'], (l) =>
            lines.push(l),
          ),
        );
        expect(await run.done).toEqual({ code: 0, signal: null });
        // 7 s × the flavor's 2 vCPUs; processes only when the job has a uid of its own (root).
        expect(lines).toEqual(root ? ['14', '14', '512'] : ['14', '14', expect.any(String)]);
        const missing: string[] = [];
        const gone = await r.start(request('missing', ['no-such-command-here'], (l) => missing.push(l)));
        expect(await gone.done).toEqual({ code: 127, signal: null });
        expect(missing.join('\n')).toMatch(/no-such-command-here: not found/);
      } finally {
        await r.close();
      }
    },
  );

  withCgroups('as root: every process of the job is in its cgroup from the start, and the helper is not', async () => {
    const real = cgroups as JobCgroups;
    const made: JobCgroup[] = [];
    const recorded = {
      create: (name: string, limits: Parameters<JobCgroups['create']>[1]) => {
        const c = real.create(name, limits);
        made.push(c);
        return c;
      },
    } as JobCgroups;
    const r = runner({ cgroups: recorded, memoryLimitMb: 256 });
    try {
      let ready!: () => void;
      const started = new Promise<void>((res) => (ready = res));
      const run = await r.start(
        request('cgroup', ['sh', '-c', 'sleep 30 & echo ready; wait'], (l) => l === 'ready' && ready()),
      );
      await started;
      const [cgroup] = made as [JobCgroup];
      for (const procs of cgroup.procs) {
        const pids = readFileSync(procs, 'utf8').split('\n').filter(Boolean);
        // bubblewrap, its init in the job's pid namespace, the shell and its sleep.
        expect(pids).toEqual(expect.arrayContaining([String(run.pid)]));
        expect(pids.length).toBeGreaterThanOrEqual(4);
        expect(pids.filter((p) => helpers().includes(p))).toEqual([]);
      }
      const own = readFileSync('/proc/self/cgroup', 'utf8');
      for (const helper of helpers()) {
        const parent = readFileSync(`/proc/${helper}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
        if (parent === String(process.pid)) expect(readFileSync(`/proc/${helper}/cgroup`, 'utf8')).toBe(own);
      }
      run.kill();
      expect((await run.done).signal).toBe('SIGKILL');
    } finally {
      await r.close();
    }
  });
});
