import { request } from 'node:http';
import { cancelJob } from '@huggingface/hub';
import { http } from '../http-client';
import { makeToken, makeUser } from '../hub-factory';
import { TEST_JOB_IMAGE } from '../job-engine';
import { type JobTarget, waitForStage } from './jobs-helpers';

/** One request to the gateway with a chosen Host header (fetch does not let a caller set it). */
function viaHost(
  baseUrl: string,
  host: string,
  token?: string,
  method = 'GET',
  path = '/index.html',
  extra: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { host, ...extra, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** `expose` on the local engine (issue 25): `<job_id>--<port>.{jobs_domain}` through the gateway, by Host. */
export function jobsExposeScenarios(target: () => JobTarget): void {
  it('serves an exposed port through the gateway by Host: a read token of the namespace, or anyone for portsPublic', async () => {
    const t = target();
    const owner = await makeUser(t);
    const reader = await makeUser(t, 'read');
    const ownerRead = await makeToken(t, owner.name, 'read');
    const stranger = await makeUser(t);
    // POST by hand: the client's runJob does not send `expose`.
    const created = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${owner.name}`, {
      token: owner.token,
      body: {
        dockerImage: TEST_JOB_IMAGE,
        flavor: 'cpu-basic',
        expose: { ports: [8080, 8081], portsPublic: [8081] },
        command: [
          'sh',
          '-c',
          [
            'mkdir -p p/cgi-bin q/cgi-bin',
            'echo private-page > p/index.html',
            'echo public-page > q/index.html',
            // What the job's server receives of the caller's headers, on either port.
            "echo '#!/bin/sh' > p/cgi-bin/h",
            `echo 'printf "Content-Type: text/plain\\r\\n\\r\\n"' >> p/cgi-bin/h`,
            `echo 'echo "auth:$HTTP_AUTHORIZATION cookie:$HTTP_COOKIE csrf:$HTTP_X_CSRF_TOKEN other:$HTTP_X_OTHER"' >> p/cgi-bin/h`,
            'chmod +x p/cgi-bin/h',
            'cp p/cgi-bin/h q/cgi-bin/h',
            'httpd -p 8081 -h q',
            'exec httpd -f -p 8080 -h p',
          ].join('; '),
        ],
      },
    });
    expect(created.status).toBe(200);
    const job = created.body;
    try {
      await waitForStage(t, owner.token, owner.name, job.id, ['RUNNING']);
      const host = (port: number) => `${job.id}--${port}.jobs.localhost`;
      // The server in the job may take a moment to listen.
      let first = await viaHost(t.baseUrl, host(8080), owner.token);
      for (let i = 0; first.status === 502 && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 100));
        first = await viaHost(t.baseUrl, host(8080), owner.token);
      }
      expect(first).toMatchObject({ status: 200, body: 'private-page\n' });
      expect(await viaHost(t.baseUrl, `${host(8080).toUpperCase()}:443`, owner.token)).toMatchObject({
        status: 200,
        body: 'private-page\n',
      });
      // The caller's credentials (token, cookies, the console's CSRF header) reach no job, on a private or a public port.
      const sent = { cookie: 'hub_session=s3cret; other=1', 'x-csrf-token': 'csrf-s3cret', 'x-other': 'kept' };
      for (const port of [8080, 8081])
        expect(await viaHost(t.baseUrl, host(port), owner.token, 'GET', '/cgi-bin/h', sent)).toMatchObject({
          status: 200,
          body: 'auth: cookie: csrf: other:kept\n',
        });
      expect((await viaHost(t.baseUrl, host(8080))).status).toBe(401);
      expect((await viaHost(t.baseUrl, host(8080), stranger.token)).status).toBe(404);
      // A read token of the job's namespace is enough, for any method; one of another namespace is not.
      expect(await viaHost(t.baseUrl, host(8080), ownerRead.token)).toMatchObject({
        status: 200,
        body: 'private-page\n',
      });
      expect((await viaHost(t.baseUrl, host(8080), ownerRead.token, 'POST')).status).not.toBe(403);
      expect((await viaHost(t.baseUrl, host(8080), reader.token)).status).toBe(404);
      expect(await viaHost(t.baseUrl, host(8081))).toMatchObject({ status: 200, body: 'public-page\n' });
      expect((await viaHost(t.baseUrl, host(8082), owner.token)).status).toBe(404);
      // The API itself still answers on the gateway's own host.
      const whoami = await viaHost(t.baseUrl, new URL(t.baseUrl).host, owner.token, 'GET', '/api/whoami-v2');
      expect({ status: whoami.status, name: (JSON.parse(whoami.body) as { name?: string }).name }).toEqual({
        status: 200,
        name: owner.name,
      });
    } finally {
      await cancelJob({ namespace: owner.name, jobId: job.id, accessToken: owner.token, hubUrl: t.baseUrl });
    }
    await waitForStage(t, owner.token, owner.name, job.id, ['CANCELED']);
    const after = await viaHost(t.baseUrl, `${job.id}--8081.jobs.localhost`);
    expect(after.status).toBe(503);
  });
}
