import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { cancelJob, runJob } from '@huggingface/hub';
import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget, readSse, waitForStage } from './jobs-helpers';

/** The registry host the engine suites allow (JOB_ENGINE_TEST_ENV): on loopback, where only the tests listen. */
const JOB_TEST_ALLOWED_REGISTRY = '127.0.0.2';

/** A TCP listener counting its connections; `banner` is written to each (what a non-registry service would say). */
async function listen(host: string, banner = ''): Promise<{ server: Server; port: number; count: () => number }> {
  let count = 0;
  const server = createServer((s) => {
    count++;
    s.on('error', () => undefined).end(banner);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  return { server, port: (server.address() as { port: number }).port, count: () => count };
}

/**
 * `dockerImage` from strangers (issue 35, decision 0623): refused by the reference grammar and the
 * allowed-registries rule before anything is sent anywhere; what a registry answers never reaches
 * the job's status; no IPv6 path from a job to this machine.
 */
export function jobsImageScenarios(target: () => JobTarget): void {
  const create = async (token: string, ns: string, dockerImage: string) =>
    http<{ error: string }>(target().baseUrl, 'POST', `/api/jobs/${ns}`, {
      token,
      body: { flavor: 'cpu-basic', dockerImage, command: ['id'] },
    });

  it('a dockerImage outside the reference grammar is a 400 naming the field, nothing is sent, and the hub answers after', async () => {
    const t = target();
    const user = await makeUser(t);
    const ssrf = await listen('127.0.0.1');
    try {
      for (const image of ['../../etc/passwd', `../../127.0.0.1:${ssrf.port}/q?x=1&y=`, 'Alpine:3', 'a//b']) {
        const res = await create(user.token, user.name, image);
        expect({ image, status: res.status }).toEqual({ image, status: 400 });
        expect(res.body.error).toMatch(/^dockerImage must be an image reference/);
      }
      const whoami = await http<{ name: string }>(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
      expect({ status: whoami.status, name: whoami.body.name }).toEqual({ status: 200, name: user.name });
      expect(ssrf.count()).toBe(0);
    } finally {
      ssrf.server.close();
    }
  });

  it("a registry on loopback or one of the hub's names, or an image id, is a 400; a scheduled job's too", async () => {
    const t = target();
    const user = await makeUser(t);
    const ssrf = await listen('127.0.0.1');
    try {
      const refused: [string, RegExp][] = [
        [
          `127.0.0.1:${ssrf.port}/nats/probe:x`,
          /^dockerImage is refused: registry 127\.0\.0\.1:\d+ is an internal address/,
        ],
        [
          `localhost:${ssrf.port}/pg/probe:x`,
          /^dockerImage is refused: registry localhost:\d+ is one of this hub's own names/,
        ],
        ['169.254.169.254/latest/meta-data:x', /^dockerImage is refused: registry 169\.254\.169\.254 is an internal/],
        [`[::1]:${ssrf.port}/probe:x`, /^dockerImage is refused: registry \[::1\]:\d+ is an internal address/],
        [`sha256:${'a'.repeat(64)}`, /^dockerImage must be an image reference .*not an image id/],
      ];
      for (const [image, error] of refused) {
        const res = await create(user.token, user.name, image);
        expect({ image, status: res.status }).toEqual({ image, status: 400 });
        expect(res.body.error).toMatch(error);
        expect(res.body.error).toMatch(/HUB_JOBS_ALLOWED_REGISTRIES|image id/);
      }
      const scheduled = await http<{ error: string }>(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
        token: user.token,
        body: {
          schedule: '@hourly',
          jobSpec: { flavor: 'cpu-basic', dockerImage: `127.0.0.1:${ssrf.port}/x:1`, command: ['id'] },
        },
      });
      expect(scheduled.status).toBe(400);
      expect(scheduled.body.error).toMatch(/^jobSpec\.dockerImage is refused: registry 127\.0\.0\.1:\d+/);
      expect(ssrf.count()).toBe(0);
    } finally {
      ssrf.server.close();
    }
  });

  it("an allowed registry that answers junk ends the job ERROR with our message, never the registry's text", async () => {
    const t = target();
    const user = await makeUser(t);
    const secret = `BANNER-${Date.now()}`;
    const registry = await listen(JOB_TEST_ALLOWED_REGISTRY, `INFO {"server_id":"${secret}","version":"2.10"}\r\n`);
    try {
      const image = `${JOB_TEST_ALLOWED_REGISTRY}:${registry.port}/probe/x:1`;
      const job = await runJob({
        namespace: user.name,
        accessToken: user.token,
        hubUrl: t.baseUrl,
        dockerImage: image,
        flavor: 'cpu-basic',
        command: ['id'],
      });
      const done = await waitForStage(t, user.token, user.name, job.id, ['COMPLETED', 'ERROR'], 60_000);
      expect({ stage: done.status.stage, message: done.status.message }).toEqual({
        stage: 'ERROR',
        message: `Job failed: could not start: could not pull image ${image} (no such image, or its registry refused or did not answer)`,
      });
      // The engine did ask it: the allowed list let it through.
      expect(registry.count()).toBeGreaterThan(0);
    } finally {
      registry.server.close();
    }
  });

  it('a job cannot connect to this machine over IPv6, on a link-local or a global address', async () => {
    const t = target();
    const user = await makeUser(t);
    const auth = { namespace: user.name, accessToken: user.token, hubUrl: t.baseUrl };
    const host = await listen('::');
    // An engine may make the jobs bridge (and its link-local address) only while a container is on
    // it: a job holds it while this machine's addresses are read.
    const holder = await runJob({
      ...auth,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      command: ['sleep', '120'],
    });
    try {
      await waitForStage(t, user.token, user.name, holder.id, ['RUNNING']);
      const addresses = Object.values(networkInterfaces())
        .flat()
        .filter((a) => a && a.family === 'IPv6' && !a.internal)
        .map((a) => (a?.address.startsWith('fe80:') ? `${a.address}%eth0` : (a?.address as string)));
      const probe = addresses
        .map((a) => `(nc -w 2 ${a} ${host.port} </dev/null >/dev/null 2>&1 && echo open ${a} || echo closed ${a}) &`)
        .join(' ');
      const job = await runJob({
        ...auth,
        dockerImage: TEST_JOB_IMAGE,
        flavor: 'cpu-basic',
        command: ['sh', '-c', `${probe} wait; echo probed`],
      });
      const done = await waitForStage(t, user.token, user.name, job.id, ['COMPLETED', 'ERROR'], 30_000);
      const lines = (await readSse(`${t.baseUrl}/api/jobs/${user.name}/${job.id}/logs`, user.token)).data.map(
        (d) => (JSON.parse(d) as { data: string }).data,
      );
      expect({ stage: done.status.stage, open: lines.filter((l) => l.startsWith('open')) }).toEqual({
        stage: 'COMPLETED',
        open: [],
      });
      expect(lines.filter((l) => l.startsWith('closed'))).toHaveLength(addresses.length);
      expect(host.count()).toBe(0);
    } finally {
      await cancelJob({ ...auth, jobId: holder.id });
      host.server.close();
    }
  });
}
