import { createServer, type Socket } from 'node:net';
import { cpus, networkInterfaces } from 'node:os';
import { cancelJob, getJob, runJob } from '@huggingface/hub';
import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { freePort } from '../processes';
import { TEST_JOB_IMAGE } from '../job-engine';
import { queryDatabase } from '../test-database';
import { type JobTarget, processesWith, readSse, waitForStage } from './jobs-helpers';

export interface EngineJobTarget extends JobTarget {
  databaseUrl: string;
}

/** What a jobs hub under these scenarios is started with: a small memory cap and log budget so the tests reach them. */
export const JOB_ENGINE_TEST_ENV = {
  HUB_JOBS_MEMORY_LIMIT_MB: '64',
  // The registry of jobsImageScenarios, on loopback (decision 0623).
  HUB_JOBS_ALLOWED_REGISTRIES: '127.0.0.2',
  HUB_JOBS_LOG_MAX_BYTES: '65536',
};

const sh = (script: string): string[] => ['sh', '-c', script];
/** This machine's IPv4 addresses but loopback, as they are now (engines' bridges come and go). */
const hostAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a?.address as string);
const logLines = async (t: JobTarget, token: string, ns: string, id: string): Promise<string[]> =>
  (await readSse(`${t.baseUrl}/api/jobs/${ns}/${id}/logs`, token)).data.map(
    (d) => (JSON.parse(d) as { data: string }).data,
  );
const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};

/**
 * Isolation of jobs run by a container engine (issue 25): from each other, from the hub's
 * services, from the machine; lifetimes, memory, and the log budget while a job runs.
 */
export function jobsIsolationScenarios(target: () => EngineJobTarget): void {
  const client = async () => {
    const t = target();
    const user = await makeUser(t);
    return { t, user, ns: user.name, auth: { accessToken: user.token, hubUrl: t.baseUrl } };
  };

  it("a job cannot read another job's environment or files, nor signal it", async () => {
    const { t, user, ns, auth } = await client();
    const secret = `victim-secret-${Date.now()}`;
    const victim = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      secrets: { VICTIM_TOKEN: secret },
      command: sh('echo private > /tmp/victim-file; echo private > victim-work-file; echo ready; sleep 120'),
    });
    try {
      await waitForStage(t, user.token, ns, victim.id, ['RUNNING']);
      await until(
        async () =>
          (
            await queryDatabase(
              t.databaseUrl,
              `SELECT 1 FROM jobs.job_log_chunks WHERE job_id = $1 AND 'ready' = ANY(lines)`,
              [victim.id],
            )
          ).length > 0,
      );
      const attacker = await runJob({
        ...auth,
        namespace: ns,
        dockerImage: TEST_JOB_IMAGE,
        flavor: 'cpu-basic',
        command: sh(
          [
            `echo "env:$(cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${secret})"`,
            `echo "files:$(find / -name 'victim-*' 2>/dev/null | wc -l)"`,
            `for p in /proc/[0-9]*; do grep -q ${secret} $p/environ 2>/dev/null && kill -9 \${p#/proc/} && echo killed; done`,
            'echo "procs:$(ls -d /proc/[0-9]* | wc -l)"',
          ].join('; '),
        ),
      });
      const done = await waitForStage(t, user.token, ns, attacker.id, ['COMPLETED', 'ERROR']);
      const lines = await logLines(t, user.token, ns, attacker.id);
      expect({ stage: done.status.stage, lines: lines.slice(0, 2) }).toEqual({
        stage: 'COMPLETED',
        lines: ['env:0', 'files:0'],
      });
      expect(lines).not.toContain('killed');
      // Its own processes only: sh, the init, the ls pipeline.
      expect(Number(lines[2]?.slice('procs:'.length))).toBeLessThan(6);
      expect((await getJob({ ...auth, namespace: ns, jobId: victim.id })).status.stage).toBe('RUNNING');
    } finally {
      await cancelJob({ ...auth, namespace: ns, jobId: victim.id });
    }
  });

  it("a job cannot connect to the hub's services, this machine or 169.254.169.254", async () => {
    const { t, user, ns, auth } = await client();
    // A service listening on every address of this machine, as a hub service may: nothing may reach it.
    const seen: Socket[] = [];
    const server = createServer((s) => seen.push(s.end()));
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    const port = (server.address() as { port: number }).port;
    // A port nothing here listens on: on an address of this machine it is closed, so an "open"
    // there means the address was routed out of this machine as the job probed it (below).
    const control = await freePort();
    try {
      const hosts = ['127.0.0.1', ...hostAddresses()];
      const gatewayPort = new URL(t.baseUrl).port;
      const targets = [
        ...hosts.flatMap((h) => [port, gatewayPort, 4222, 5432, control].map((p) => `${h}:${p}`)),
        '169.254.169.254:80',
      ];
      const probe = targets
        .map(
          (hp) =>
            `(nc -w 2 ${hp.replace(':', ' ')} </dev/null >/dev/null 2>&1 && echo open ${hp} || echo closed ${hp}) &`,
        )
        .join(' ');
      const job = await runJob({
        ...auth,
        namespace: ns,
        dockerImage: TEST_JOB_IMAGE,
        flavor: 'cpu-basic',
        command: sh(`${probe} wait`),
      });
      await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR'], 30_000);
      const lines = await logLines(t, user.token, ns, job.id);
      // An address gone from this machine while the job probed it (another test's engine bridge,
      // removed with its last container and made again by the next) is routed outward, where this
      // sandbox's network accepts every connection: not this machine, so not a finding. Its
      // control port answering "open" says so; on 127.0.0.1 and every address that stayed here,
      // the control port is closed and every "open" is a finding.
      const hostOf = (l: string): string => l.split(' ')[1]?.split(':')[0] ?? '';
      const routedOut = new Set(
        lines.filter((l) => l.startsWith('open') && l.endsWith(`:${control}`) && hostOf(l) !== '127.0.0.1').map(hostOf),
      );
      const stillHere = new Set(['127.0.0.1', '169.254.169.254', ...hostAddresses()]);
      const reached = lines.filter(
        (l) => l.startsWith('open') && stillHere.has(hostOf(l)) && !routedOut.has(hostOf(l)),
      );
      expect(reached).toEqual([]);
      expect(lines.filter((l) => /^(open|closed) /.test(l))).toHaveLength(targets.length);
      expect(seen).toHaveLength(0);
    } finally {
      server.close();
    }
  });

  it('a detached child is gone when its job ends, and a child holding the output open does not hold the job past its timeout', async () => {
    const { t, user, ns, auth } = await client();
    const marker = String(800_000 + Math.floor(Math.random() * 99_999));
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      command: sh(`setsid sh -c 'sleep ${marker}' </dev/null >/dev/null 2>&1 & sleep 0.5; echo detached`),
    });
    expect((await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR'])).status.stage).toBe('COMPLETED');
    await until(() => processesWith(`sleep ${marker}`).length === 0, 30_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    // A child holding the output open does not hold the job past its timeout either.
    const slow = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      timeoutSeconds: 2,
      command: sh(`setsid sh -c 'sleep ${marker}1' & sleep ${marker}2`),
    });
    const ended = await waitForStage(t, user.token, ns, slow.id, ['COMPLETED', 'ERROR'], 15_000);
    expect(ended.status.message).toMatch(/timed out after 2 seconds/);
    const ran = new Date(ended.finishedAt ?? 0).getTime() - new Date(ended.startedAt ?? 0).getTime();
    expect(ran).toBeGreaterThanOrEqual(2000);
    // Ended by its timeout, not by the child (which sleeps for days): stopping a container takes
    // the engine a moment, longer on a busy machine, so the bound is loose on purpose.
    expect(ran).toBeLessThan(15_000);
    await until(() => processesWith(`sleep ${marker}`).length === 0, 30_000);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('an image that cannot be pulled ends the job ERROR with a message of ours; a flavor the host lacks is a 400', async () => {
    const { t, user, ns, auth } = await client();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'hub-test/no-such-image:1',
      flavor: 'cpu-basic',
      command: ['true'],
    });
    const done = await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR'], 60_000);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toBe(
      'Job failed: could not start: could not pull image hub-test/no-such-image:1 (no such image, or its registry refused or did not answer)',
    );
    const gpu = await http<{ error: string }>(t.baseUrl, 'POST', `/api/jobs/${ns}`, {
      token: user.token,
      body: { dockerImage: TEST_JOB_IMAGE, flavor: 't4-small', command: ['true'] },
    });
    expect(gpu.status).toBe(400);
    expect(gpu.body.error).toMatch(/t4-small needs T4 accelerators; this runner's (docker|podman) engine has none/);
    // cpu-performance: 32 vCPUs and 256 GB, more than this machine (the engine's host) has.
    if (cpus().length < 32) {
      const big = await http<{ error: string }>(t.baseUrl, 'POST', `/api/jobs/${ns}`, {
        token: user.token,
        body: { dockerImage: TEST_JOB_IMAGE, flavor: 'cpu-performance', command: ['true'] },
      });
      expect({ status: big.status, error: big.body.error }).toEqual({
        status: 400,
        error: `flavor cpu-performance needs 32 vCPUs; this runner's ${/podman/.test(gpu.body.error) ? 'podman' : 'docker'} engine has ${cpus().length}`,
      });
    }
  });

  it('a job over its memory is killed and ends ERROR saying so', async () => {
    const { t, user, ns, auth } = await client();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      // dd holds a 256 MB buffer: four times the 64 MiB cap of these tests.
      command: sh('echo start; exec dd if=/dev/zero of=/dev/null bs=256M count=1'),
    });
    const done = await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR'], 30_000);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toMatch(/out of memory.*64 MiB/);
  });

  it('a log flood keeps the stored log within its byte budget while the job runs, newest lines kept', async () => {
    const { t, user, ns, auth } = await client();
    const budget = Number(JOB_ENGINE_TEST_ENV.HUB_JOBS_LOG_MAX_BYTES);
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      // About 20 MB of 100-byte lines (300 times the budget), then a last line.
      command: sh(`yes ${'x'.repeat(99)} | head -n 200000; echo last-line`),
    });
    let most = 0;
    for (;;) {
      const [row] = await queryDatabase<{ bytes: number }>(
        t.databaseUrl,
        `SELECT coalesce(sum(bytes), 0)::int AS bytes FROM jobs.job_log_chunks WHERE job_id = $1`,
        [job.id],
      );
      most = Math.max(most, row.bytes);
      const now = await getJob({ ...auth, namespace: ns, jobId: job.id });
      if (['COMPLETED', 'ERROR'].includes(now.status.stage)) break;
    }
    expect(most).toBeLessThanOrEqual(budget);
    const lines = await logLines(t, user.token, ns, job.id);
    expect(lines[lines.length - 1]).toBe('last-line');
    expect(lines.length).toBeGreaterThan(100);
  });

  it('a 30 MB log flood: the kept log within budget, a marker naming what was dropped, the log table grows by at most the budget and a few MB', async () => {
    const { t, user, ns, auth } = await client();
    const budget = Number(JOB_ENGINE_TEST_ENV.HUB_JOBS_LOG_MAX_BYTES);
    const size = async () =>
      Number(
        (
          await queryDatabase<{ bytes: string }>(
            t.databaseUrl,
            `SELECT pg_total_relation_size('jobs.job_log_chunks') AS bytes`,
          )
        )[0].bytes,
      );
    const before = await size();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      // 300,000 lines of 100 bytes (460 times the budget), then a last line.
      command: sh(`yes ${'x'.repeat(99)} | head -n 300000; echo last-line`),
    });
    const done = await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR'], 120_000);
    expect(done.status.stage).toBe('COMPLETED');
    const [kept] = await queryDatabase<{ bytes: number }>(
      t.databaseUrl,
      `SELECT coalesce(sum(bytes), 0)::int AS bytes FROM jobs.job_log_chunks WHERE job_id = $1`,
      [job.id],
    );
    expect(kept.bytes).toBeLessThanOrEqual(budget);
    // What hf jobs logs shows: the newest lines, the last one kept, and the gaps marked.
    const lines = await logLines(t, user.token, ns, job.id);
    expect(lines[lines.length - 1]).toBe('last-line');
    const markers = lines.filter((l) => l.startsWith('[hub] '));
    expect(markers.length).toBeGreaterThan(0);
    const total = /\((\d+) lines, [\d.]+ MB dropped so far\)$/.exec(markers[markers.length - 1]);
    expect(markers[markers.length - 1]).toMatch(
      /^\[hub\] \d+ lines \([\d.]+ MB\) dropped here: the job logged faster than/,
    );
    // Most of the lines were dropped before the database saw them.
    expect(Number(total?.[1])).toBeGreaterThan(270_000);
    expect((await size()) - before).toBeLessThanOrEqual(budget + 4 * 1024 * 1024);
    // Read at HUB_JOBS_LOG_READ_BYTES (4 MiB/s): about 8 s.
  }, 120_000);
}
