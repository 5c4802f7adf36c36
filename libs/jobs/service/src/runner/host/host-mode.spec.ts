import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDistributedRunner, BWRAP_MISSING, findBwrap, HostModeRefusedError, uncappedReason } from './host-mode';
import { ownCgroups } from './job-cgroups';
import { HostRunner } from './host-runner';

describe('host mode: bubblewrap and the distributed service', () => {
  it('finds bwrap where it is executable, and says null where it is not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bwrap-find-'));
    expect(findBwrap([dir])).toBeNull();
    writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\n');
    expect(findBwrap([dir])).toBeNull();
    chmodSync(join(dir, 'bwrap'), 0o755);
    expect(findBwrap(['/nonexistent', dir])).toBe(join(dir, 'bwrap'));
  });

  it('without bwrap a run is refused with a message naming the package to install', async () => {
    const runner = new HostRunner({ workDir: tmpdir(), bwrap: null, uidBase: 1_500_000_000, uidCount: 10 });
    const run = await runner.start({
      jobId: 'j1',
      attempt: 1,
      flavor: 'cpu-basic',
      command: ['true'],
      env: {},
      secrets: {},
      onLine: () => undefined,
    });
    expect(await run.done).toEqual({ code: null, signal: null, error: BWRAP_MISSING });
    expect(BWRAP_MISSING).toMatch(/apt-get install bubblewrap/);
  });

  it('a distributed jobs service with no engine refuses to start unless HUB_JOBS_ENGINE=host', () => {
    expect(() => assertDistributedRunner({ runner: 'local', engine: 'auto', engineFound: false })).toThrow(
      HostModeRefusedError,
    );
    expect(() => assertDistributedRunner({ runner: 'local', engine: 'docker', engineFound: false })).toThrow(
      /HUB_JOBS_ENGINE=host/,
    );
    expect(() => assertDistributedRunner({ runner: 'local', engine: 'host', engineFound: false })).not.toThrow();
    expect(() => assertDistributedRunner({ runner: 'local', engine: 'auto', engineFound: true })).not.toThrow();
    expect(() => assertDistributedRunner({ runner: 'kubernetes', engine: 'auto', engineFound: false })).not.toThrow();
  });

  it("finds the service's own cgroups: v1 by its memory and pids hierarchies, v2 by the unified one", () => {
    const v1 = '9:name=systemd:/\n8:pids:/svc\n4:memory:/process_api/abc\n1:cpu,cpuacct:/\n0::/\n';
    expect(ownCgroups(v1)).toEqual({ version: 1, memory: '/process_api/abc', pids: '/svc' });
    expect(ownCgroups('0::/system.slice/hub.service\n')).toEqual({ version: 2, path: '/system.slice/hub.service' });
    expect(ownCgroups('')).toBeNull();
  });

  it('says which cap cannot hold and names the setting that runs jobs anyway; a runner told so refuses runs with it', async () => {
    expect(uncappedReason({ cgroupsMissing: null, sizedTmpfs: true })).toBeNull();
    const both = uncappedReason({ cgroupsMissing: 'EACCES', sizedTmpfs: false }) as string;
    expect(both).toMatch(/memory \(EACCES: run the service as root.*nor disk \(this bubblewrap has no --size/);
    expect(both).toMatch(/HUB_JOBS_HOST_LIMITS=best-effort/);
    const runner = new HostRunner({
      workDir: tmpdir(),
      bwrap: '/usr/bin/bwrap',
      uidBase: 1_500_000_000,
      uidCount: 10,
      uncapped: { reason: both, allowed: false },
    });
    const run = await runner.start({
      jobId: 'j2',
      attempt: 1,
      flavor: 'cpu-basic',
      command: ['true'],
      env: {},
      secrets: {},
      onLine: () => undefined,
    });
    expect(await run.done).toEqual({ code: null, signal: null, error: both });
  });
});
