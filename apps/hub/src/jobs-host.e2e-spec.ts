import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJob } from '@huggingface/hub';
import { JobsRpc } from '@hub/jobs-contract';
import {
  describeWithInfra,
  jobLogPushScenarios,
  jobsBurstScenarios,
  makeUser,
  processesWith,
  readSse,
  waitForStage,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-host-admin-token';

/**
 * Host mode (HUB_JOBS_ENGINE=host, decision 0621): jobs run on this machine, each in a bubblewrap
 * sandbox. What one job must not reach: another job (its environment, files, processes), the
 * hub's bus and database, the gateway, the hub's data directory; and nothing it starts outlives it.
 */
describeWithInfra('all-in-one hub: jobs in host mode (bubblewrap)', () => {
  let t: TestHub;
  const dataDir = mkdtempSync(join(tmpdir(), 'hub-host-data-'));
  const workDir = mkdtempSync(join(tmpdir(), 'hub-host-work-'));
  const target = (): { baseUrl: string; adminToken: string } => ({ baseUrl: t.baseUrl, adminToken: ADMIN });
  /** A cpu-basic job of `alpine:3` run as `user` through the public client (host mode ignores the image). */
  const runAs = (
    user: { name: string; token: string },
    job: Omit<Parameters<typeof runJob>[0], 'namespace' | 'accessToken' | 'hubUrl' | 'dockerImage' | 'flavor'>,
  ): ReturnType<typeof runJob> =>
    runJob({
      ...job,
      namespace: user.name,
      accessToken: user.token,
      hubUrl: t.baseUrl,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
    } as Parameters<typeof runJob>[0]);
  const logLines = async (ns: string, token: string, id: string): Promise<string[]> =>
    (await readSse(`${t.baseUrl}/api/jobs/${ns}/${id}/logs`, token)).data.map(
      (d) => (JSON.parse(d) as { data: string }).data,
    );

  beforeAll(async () => {
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        HUB_JOBS_ENGINE: 'host',
        HUB_DATA_DIR: dataDir,
        HUB_JOBS_WORK_DIR: workDir,
        HUB_JOBS_MEMORY_LIMIT_MB: '128',
        HUB_JOBS_TMP_SIZE_MB: '32',
        HUB_JOBS_LOG_MAX_BYTES: '65536',
      },
      { listen: true },
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it("a job cannot read another job's environment or files, nor signal it, nor reach NATS, Postgres, the gateway or the data directory", async () => {
    const victim = await makeUser(target());
    const attacker = await makeUser(target());
    const secret = `victim-secret-${Date.now()}`;
    const running = await runAs(victim, {
      secrets: { VICTIM_SECRET: secret },
      command: ['sh', '-c', 'id -u; echo "$VICTIM_SECRET" > mine.txt; sleep 4; cat mine.txt; echo alive'],
    });
    await waitForStage(target(), victim.token, victim.name, running.id, ['RUNNING']);
    const gatewayPort = new URL(t.baseUrl).port;
    const probe = [
      'id -u',
      // Every environment it can see, and every file named like the victim's.
      `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done | grep -c "${secret}"`,
      'find / -path /proc -prune -o -name mine.txt -print 2>/dev/null; echo find-done',
      `perl -MIO::Socket::INET -e 'for $p (4222, 5432, ${gatewayPort}) { print "port $p: ", (IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $p, Timeout => 2) ? "open" : "closed"), "\\n" }'`,
      `test -e ${dataDir} && echo data-visible || echo data-hidden`,
      `test -e ${workDir} && echo work-visible || echo work-hidden`,
      // Everything it may signal (in its own pid namespace: only itself).
      'kill -9 -1 2>/dev/null && echo signalled-some || echo signalled-none',
    ].join('; ');
    const attack = await runAs(attacker, {
      command: ['sh', '-c', probe],
    });
    await waitForStage(target(), attacker.token, attacker.name, attack.id, ['COMPLETED', 'ERROR']);
    const seen = await logLines(attacker.name, attacker.token, attack.id);
    expect(seen.slice(1)).toEqual([
      '0',
      'find-done',
      'port 4222: closed',
      'port 5432: closed',
      `port ${gatewayPort}: closed`,
      'data-hidden',
      'work-hidden',
      'signalled-none',
    ]);
    const done = await waitForStage(target(), victim.token, victim.name, running.id, ['COMPLETED', 'ERROR']);
    expect(done.status.stage).toBe('COMPLETED');
    const victimLines = await logLines(victim.name, victim.token, running.id);
    expect(victimLines.slice(1)).toEqual([secret, 'alive']);
    // Each job ran as a host uid of its own, not root (the hub runs as root here).
    if (process.getuid?.() === 0) {
      expect(victimLines[0]).not.toBe('0');
      expect(seen[0]).not.toBe('0');
      expect(seen[0]).not.toBe(victimLines[0]);
    }
  });

  it('a double-forked detached child is gone when its job ends', async () => {
    const user = await makeUser(target());
    const marker = `33.${Date.now() % 100_000}`;
    const started = Date.now();
    const job = await runAs(user, {
      command: ['sh', '-c', `(setsid sleep ${marker} > /dev/null 2>&1 &); echo started`],
    });
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status.stage).toBe('COMPLETED');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect(await logLines(user.name, user.token, job.id)).toEqual(['started']);
  });

  it("a job writing past its disk size gets ENOSPC in its home and /tmp, cannot write anywhere else, and nothing lands on the host's disk", async () => {
    const user = await makeUser(target());
    const write = (path: string): string =>
      `dd if=/dev/zero of=${path} bs=1M count=100 2>&1 | grep -o 'No space left on device' | head -n 1; echo "${path} $(du -k ${path} | cut -f1)"`;
    const job = await runAs(user, {
      command: [
        'sh',
        '-c',
        [
          write('big'),
          write('/tmp/big'),
          'for p in /big /dev/big /usr/big; do echo x 2>/dev/null > $p && echo "$p written" || echo "$p refused"; done',
          'echo written; sleep 3',
        ].join('; '),
      ],
    });
    // While it runs: the runs' folder on the host stays (nearly) empty, its home being a tmpfs.
    let hostKb = 0;
    const du = setInterval(() => {
      const kb = Number(spawnSync('du', ['-sk', workDir], { encoding: 'utf8' }).stdout.split('\t')[0]) || 0;
      hostKb = Math.max(hostKb, kb);
    }, 100);
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']).finally(() =>
      clearInterval(du),
    );
    expect(done.status.stage).toBe('COMPLETED');
    expect(hostKb).toBeLessThan(1024);
    const seen = await logLines(user.name, user.token, job.id);
    const mib32 = String(32 * 1024);
    expect(seen).toEqual([
      'No space left on device',
      `big ${mib32}`,
      'No space left on device',
      `/tmp/big ${mib32}`,
      '/big refused',
      '/dev/big refused',
      '/usr/big refused',
      'written',
    ]);
  });

  it('a 30 MB log flood is cut in the spawn helper: the newest lines and the last one kept within budget, a marker naming the total dropped', async () => {
    const user = await makeUser(target());
    const job = await runAs(user, {
      command: ['sh', '-c', `yes ${'x'.repeat(99)} | head -n 300000; echo last-line`],
    });
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR'], 120_000);
    expect(done.status.stage).toBe('COMPLETED');
    const lines = await logLines(user.name, user.token, job.id);
    expect(lines[lines.length - 1]).toBe('last-line');
    expect(lines.reduce((sum, l) => sum + Buffer.byteLength(l), 0)).toBeLessThanOrEqual(65536);
    const markers = lines.filter((l) => l.startsWith('[hub] '));
    const total = /\((\d+) lines, [\d.]+ MB dropped so far\)$/.exec(markers[markers.length - 1] ?? '');
    expect(Number(total?.[1])).toBeGreaterThan(270_000);
    // Read at HUB_JOBS_LOG_READ_BYTES (4 MiB/s): about 8 s.
  }, 120_000);

  it("a job allocating past its memory is killed by the OOM killer and ends ERROR saying so; the hub's memory is untouched", async () => {
    const user = await makeUser(target());
    const job = await runAs(user, {
      // The case too: a shell string doubled without end (RLIMIT_AS alone let it run to the timeout).
      command: [
        'sh',
        '-c',
        `perl -e '$x = "a" x (400 * 1024 * 1024); print "allocated\\n"'; s=x; while :; do s="$s$s"; done`,
      ],
      timeoutSeconds: 600,
    });
    const done = await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toBe('Job failed: ran out of memory: killed at its limit of 128 MiB');
    expect(await logLines(user.name, user.token, job.id)).not.toContain('allocated');
  });

  // Issue 41: launches overlap and none is lost.
  jobsBurstScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  // The log stream's reads of the stored log: the in-process broker's requests on jobs.job.logs.
  jobLogPushScenarios(target, async () => {
    if (t.hub.mode.kind !== 'in-process') throw new Error('an all-in-one hub without NATS');
    const broker = t.hub.mode.broker;
    const dispatch = broker.dispatch.bind(broker);
    const counter = {
      reads: 0,
      close: async () => {
        broker.dispatch = dispatch;
      },
    };
    broker.dispatch = (subject, message) => {
      if (subject === JobsRpc.Logs.subject) counter.reads++;
      return dispatch(subject, message);
    };
    return counter;
  });
});
