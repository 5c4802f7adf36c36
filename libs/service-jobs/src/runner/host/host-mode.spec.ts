import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDistributedRunner, BWRAP_MISSING, findBwrap, HostModeRefusedError } from './host-mode';
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
});
