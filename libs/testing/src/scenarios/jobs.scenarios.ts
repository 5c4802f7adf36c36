import {
  cancelJob,
  duplicateJob,
  getJob,
  listJobHardware,
  listJobs,
  runJob,
  streamJobEvents,
  streamJobLogs,
  streamJobMetrics,
} from '@huggingface/hub';
import { http } from '../http-client';
import { makeOrg, makeUser } from '../hub-factory';
import { openApiCheckedFetch } from '../openapi';
import { type JobTarget, processesWith, readSse, waitForStage } from './jobs-helpers';

const sh = (script: string): string[] => ['sh', '-c', script];

/**
 * The jobs launcher as `@huggingface/hub` users meet it (issue 11), against any running hub with
 * the local runner: the all-in-one process and the distributed gateway + jobs service share it.
 */
export function jobsScenarios(target: () => JobTarget): void {
  const client = async () => {
    const t = target();
    const user = await makeUser(t);
    return {
      t,
      user,
      ns: user.name,
      auth: { accessToken: user.token, hubUrl: t.baseUrl, fetch: openApiCheckedFetch(t.baseUrl) },
    };
  };

  it('runs a job that prints lines: RUNNING, then COMPLETED, and the log stream shows the lines in order', async () => {
    const { t, user, ns, auth } = await client();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: sh('for i in 1 2 3 4 5; do echo line-$i; done'),
    });
    expect(job).toMatchObject({
      type: 'job',
      owner: { id: user.id, name: ns, type: 'user' },
      createdBy: { id: user.id, name: ns },
      flavor: 'cpu-basic',
    });
    expect(['SCHEDULING', 'RUNNING', 'COMPLETED']).toContain(job.status.stage);
    const lines: string[] = [];
    for await (const l of streamJobLogs({ namespace: ns, jobId: job.id, accessToken: user.token, hubUrl: t.baseUrl })) {
      lines.push(l.message);
      expect(l.timestamp.getTime()).toBeGreaterThan(0);
    }
    expect(lines).toEqual(['line-1', 'line-2', 'line-3', 'line-4', 'line-5']);
    const done = await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR']);
    expect(done.status).toMatchObject({ stage: 'COMPLETED', failureCount: 0 });
    expect(done.startedAt).toBeTruthy();
    expect(done.finishedAt).toBeTruthy();
    // A finished job's logs are still there, and tail=N gives the last N.
    const tail = await readSse(`${t.baseUrl}/api/jobs/${ns}/${job.id}/logs?tail=2`, user.token);
    expect(tail.contentType).toMatch(/^text\/event-stream/);
    expect(tail.data.map((d) => (JSON.parse(d) as { data: string }).data)).toEqual(['line-4', 'line-5']);
  });

  it('exit 1 ends as ERROR; with attempts: 3 it is retried, failureCount 3', async () => {
    const { t, user, ns, auth } = await client();
    const once = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: sh('echo fail; exit 1'),
    });
    const failed = await waitForStage(t, user.token, ns, once.id, ['COMPLETED', 'ERROR']);
    expect(failed.status).toMatchObject({ stage: 'ERROR', failureCount: 1 });
    expect(failed.status.message).toMatch(/code 1/);
    const thrice = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      attempts: 3,
      command: sh('echo try; exit 1'),
    });
    const retried = await waitForStage(t, user.token, ns, thrice.id, ['COMPLETED', 'ERROR']);
    expect(retried.status).toMatchObject({ stage: 'ERROR', failureCount: 3 });
    expect(retried).toMatchObject({ retry: 2 });
    const logs = await readSse(`${t.baseUrl}/api/jobs/${ns}/${thrice.id}/logs`, user.token);
    expect(logs.data.map((d) => (JSON.parse(d) as { data: string }).data)).toEqual(['try', 'try', 'try']);
  });

  it('a timeout ends the job as ERROR with a message', async () => {
    const { t, user, ns, auth } = await client();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      timeoutSeconds: 1,
      command: sh('sleep 30'),
    });
    const started = Date.now();
    const done = await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR', 'CANCELED']);
    expect(done.status.stage).toBe('ERROR');
    expect(done.status.message).toMatch(/timed out after 1 second/i);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('cancel of a long job kills its children too', async () => {
    const { t, user, ns, auth } = await client();
    const marker = String(900_000 + Math.floor(Math.random() * 99_999));
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: sh(`sleep ${marker} & sleep ${marker} & echo started; wait`),
    });
    await waitForStage(t, user.token, ns, job.id, ['RUNNING']);
    const deadline = Date.now() + 5000;
    while (processesWith(`sleep ${marker}`).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toHaveLength(2);
    const canceled = await cancelJob({ ...auth, namespace: ns, jobId: job.id });
    expect(canceled.status.stage).toBe('CANCELED');
    const gone = Date.now() + 5000;
    while (processesWith(`sleep ${marker}`).length > 0 && Date.now() < gone)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
    expect((await getJob({ ...auth, namespace: ns, jobId: job.id })).status.stage).toBe('CANCELED');
  });

  it("a job sees only its own environment and secrets, never the hub's; secret values are never returned", async () => {
    const { t, user, ns, auth } = await client();
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['env'],
      environment: { MY_SETTING: 'visible' },
      secrets: { MY_SECRET: 's3cr3t-value' },
    });
    expect(JSON.stringify(job)).not.toContain('s3cr3t-value');
    expect((job as unknown as { secrets: unknown }).secrets).toEqual({ MY_SECRET: null });
    await waitForStage(t, user.token, ns, job.id, ['COMPLETED', 'ERROR']);
    const env = (await readSse(`${t.baseUrl}/api/jobs/${ns}/${job.id}/logs`, user.token)).data.map(
      (d) => (JSON.parse(d) as { data: string }).data,
    );
    expect(env).toEqual(expect.arrayContaining(['MY_SETTING=visible', 'MY_SECRET=s3cr3t-value']));
    const names = env.map((l) => l.split('=')[0]);
    for (const leaked of [
      'DATABASE_URL',
      'HUB_ADMIN_TOKEN',
      'NATS_URL',
      'HUB_BUS_PREFIX',
      'NODE_OPTIONS',
      'JEST_WORKER_ID',
    ])
      expect(names).not.toContain(leaked);
    const listed = await listJobs({ ...auth, namespace: ns });
    expect(JSON.stringify(listed)).not.toContain('s3cr3t-value');
  });

  it('lists by stage and label filters, pages by the Link header, and relabels', async () => {
    const { t, user, ns, auth } = await client();
    const ids: string[] = [];
    for (const [i, team] of ['a', 'b', 'a'].entries()) {
      ids.push(
        (
          await runJob({
            ...auth,
            namespace: ns,
            dockerImage: 'alpine:3',
            flavor: 'cpu-basic',
            command: sh(`exit ${i === 1 ? 1 : 0}`),
            labels: { team, n: String(i) },
          })
        ).id,
      );
    }
    for (const id of ids) await waitForStage(t, user.token, ns, id, ['COMPLETED', 'ERROR']);
    expect((await listJobs({ ...auth, namespace: ns })).map((j) => j.id)).toEqual([...ids].reverse());
    const byLabel = await http<{ id: string }[]>(t.baseUrl, 'GET', `/api/jobs/${ns}?label=team=a`, {
      token: user.token,
    });
    expect(byLabel.body.map((j) => j.id)).toEqual([ids[2], ids[0]]);
    const both = await http<{ id: string }[]>(t.baseUrl, 'GET', `/api/jobs/${ns}?label=team=a&label=n=0`, {
      token: user.token,
    });
    expect(both.body.map((j) => j.id)).toEqual([ids[0]]);
    const errors = await http<{ id: string }[]>(t.baseUrl, 'GET', `/api/jobs/${ns}?stage=ERROR`, { token: user.token });
    expect(errors.body.map((j) => j.id)).toEqual([ids[1]]);
    const first = await http<{ id: string }[]>(t.baseUrl, 'GET', `/api/jobs/${ns}?limit=2`, { token: user.token });
    expect(first.body.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeTruthy();
    const second = await http<{ id: string }[]>(
      t.baseUrl,
      'GET',
      new URL(next ?? '').pathname + new URL(next ?? '').search,
      { token: user.token },
    );
    expect(second.body.map((j) => j.id)).toEqual([ids[0]]);
    expect(second.headers.get('link')).toBeNull();
    const relabeled = await http<{ labels: Record<string, string> }>(
      t.baseUrl,
      'PUT',
      `/api/jobs/${ns}/${ids[0]}/labels`,
      { token: user.token, body: { labels: { team: 'c' } } },
    );
    expect(relabeled.status).toBe(200);
    expect(relabeled.body.labels).toEqual({ team: 'c' });
    expect(
      (await http<unknown[]>(t.baseUrl, 'GET', `/api/jobs/${ns}?label=team=c`, { token: user.token })).body,
    ).toHaveLength(1);
  });

  it('reports expose URLs in port order and the ssh URL only with ssh enabled', async () => {
    const { t, user, ns } = await client();
    const body = {
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['true'],
      expose: { ports: [8080, 22, 443], portsPublic: [443] },
      ssh: { enabled: true },
    };
    const res = await http<{ id: string; status: { exposeUrls?: string[]; sshUrl?: string } }>(
      t.baseUrl,
      'POST',
      `/api/jobs/${ns}`,
      { token: user.token, body },
    );
    expect(res.status).toBe(200);
    const id = res.body.id;
    expect(res.body.status.exposeUrls).toEqual([8080, 22, 443].map((p) => `https://${id}--${p}.jobs.localhost`));
    expect(res.body.status.sshUrl).toBe(`ssh://${id}@ssh.jobs.localhost`);
    const plain = await http<{ status: Record<string, unknown> }>(t.baseUrl, 'POST', `/api/jobs/${ns}`, {
      token: user.token,
      body: { ...body, expose: undefined, ssh: { enabled: false } },
    });
    expect(plain.body.status).not.toHaveProperty('exposeUrls');
    expect(plain.body.status).not.toHaveProperty('sshUrl');
  });

  it("another user's namespace and job are 404; an org member may run jobs in the org", async () => {
    const { t, user, ns, auth } = await client();
    const other = await makeUser(t);
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['true'],
    });
    for (const [method, path] of [
      ['GET', `/api/jobs/${ns}`],
      ['GET', `/api/jobs/${ns}/${job.id}`],
      ['POST', `/api/jobs/${ns}/${job.id}/cancel`],
      ['GET', `/api/jobs/${ns}/${job.id}/logs`],
    ]) {
      const res = await http<{ error: string }>(t.baseUrl, method, path, { token: other.token });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.error).toMatch(/not found/i);
    }
    expect((await http(t.baseUrl, 'GET', `/api/jobs/${other.name}/${job.id}`, { token: other.token })).status).toBe(
      404,
    );
    const org = await makeOrg(t, 'team', [user.name]);
    const inOrg = await runJob({
      ...auth,
      namespace: org.name,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['true'],
    });
    expect(inOrg.owner).toEqual({
      id: org.id,
      name: org.name,
      type: 'org',
      avatarUrl: expect.stringMatching(new RegExp(`/avatars/${org.name}\\.svg$`)),
    });
    expect(
      (
        await http(t.baseUrl, 'POST', `/api/jobs/${org.name}`, {
          token: other.token,
          body: { dockerImage: 'a', flavor: 'cpu-basic', command: ['true'] },
        })
      ).status,
    ).toBe(404);
  });

  it('duplicates a job, lists the hardware, and streams stage events and metrics', async () => {
    const { t, user, ns, auth } = await client();
    const hw = await listJobHardware({ hubUrl: t.baseUrl, accessToken: user.token });
    expect(hw.map((h) => h.name)).toEqual(expect.arrayContaining(['cpu-basic', 'a100-large', 'inf2x6']));
    expect(hw).toHaveLength(29);
    const job = await runJob({
      ...auth,
      namespace: ns,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: sh('sleep 2; echo done'),
    });
    const samples: string[] = [];
    for await (const m of streamJobMetrics({
      namespace: ns,
      jobId: job.id,
      accessToken: user.token,
      hubUrl: t.baseUrl,
    }))
      samples.push(m);
    expect(samples.length).toBeGreaterThan(0);
    expect(JSON.parse(samples[0])).toMatchObject({
      cpu_usage_pct: expect.any(Number),
      memory_used_bytes: expect.any(Number),
    });
    const events: string[] = [];
    for await (const e of streamJobEvents({ namespace: ns, jobId: job.id, accessToken: user.token, hubUrl: t.baseUrl }))
      events.push(e);
    expect((JSON.parse(events[events.length - 1]) as { stage: string }).stage).toBe('COMPLETED');
    const copy = await duplicateJob({ ...auth, namespace: ns, jobId: job.id });
    expect(copy.id).not.toBe(job.id);
    expect(copy.command).toEqual(job.command);
    expect((await waitForStage(t, user.token, ns, copy.id, ['COMPLETED', 'ERROR'])).status.stage).toBe('COMPLETED');
  });
}
