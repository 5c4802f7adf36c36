import { http } from '../http-client';
import { makeToken, makeUser } from '../hub-factory';
import { type JobTarget, waitForStage } from './jobs-helpers';

type Json = Record<string, unknown>;
const sh = (script: string): string[] => ['sh', '-c', script];

/**
 * What the `hf` CLI (huggingface_hub) sends and reads, issue 37: `hf jobs ps`' repeated stage
 * filter, the job object's avatars and absent times, and `hf jobs scheduled labels` / a new
 * schedule. Every answer is checked against the OpenAPI document by `http`.
 */
export function jobsHfCliScenarios(target: () => JobTarget): void {
  it('hf jobs ps: ?stage=RUNNING&stage=SCHEDULING lists the jobs in either stage; a bad stage is a 400 naming it', async () => {
    const t = target();
    const user = await makeUser(t);
    const run = async (script: string) =>
      (
        await http<Json>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
          token: user.token,
          body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: sh(script), arguments: [], environment: {} },
        })
      ).body['id'] as string;
    const done = await run('exit 0');
    const long = await run('sleep 60');
    await waitForStage(t, user.token, user.name, done, ['COMPLETED']);
    await waitForStage(t, user.token, user.name, long, ['RUNNING']);
    const active = await http<Json[]>(t.baseUrl, 'GET', `/api/jobs/${user.name}?stage=RUNNING&stage=SCHEDULING`, {
      token: user.token,
    });
    expect(active.status).toBe(200);
    expect(active.body.map((j) => j['id'])).toEqual([long]);
    const one = await http<Json[]>(t.baseUrl, 'GET', `/api/jobs/${user.name}?stage=COMPLETED`, { token: user.token });
    expect(one.body.map((j) => j['id'])).toEqual([done]);
    const both = await http<Json[]>(t.baseUrl, 'GET', `/api/jobs/${user.name}?stage=COMPLETED&stage=RUNNING`, {
      token: user.token,
    });
    expect(both.body.map((j) => j['id'])).toEqual([long, done]);
    const bad = await http<{ error: string }>(t.baseUrl, 'GET', `/api/jobs/${user.name}?stage=RUNNING&stage=running`, {
      token: user.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/stage must be one of COMPLETED, CANCELED, ERROR, DELETED, RUNNING, SCHEDULING/);
    await http(t.baseUrl, 'POST', `/api/jobs/${user.name}/${long}/cancel`, { token: user.token });
  });

  it('the job object: owner and user initiator carry avatarUrl; startedAt and finishedAt are absent until they happen', async () => {
    const t = target();
    const user = await makeUser(t);
    const created = await http<Json>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: sh('sleep 2') },
    });
    expect(created.status).toBe(200);
    const avatar = expect.stringMatching(new RegExp(`^https?://.+/avatars/${user.name}\\.svg$`));
    expect(created.body).toMatchObject({
      owner: { id: user.id, name: user.name, type: 'user', avatarUrl: avatar },
      initiator: { type: 'user', id: user.id, name: user.name, avatarUrl: avatar },
    });
    expect(created.body).not.toHaveProperty('finishedAt');
    if ((created.body['status'] as Json)['stage'] === 'SCHEDULING')
      expect(created.body).not.toHaveProperty('startedAt');
    const id = created.body['id'] as string;
    const running = await waitForStage(t, user.token, user.name, id, ['RUNNING', 'COMPLETED']);
    if (running.status.stage === 'RUNNING') {
      expect(running.startedAt).toEqual(expect.any(String));
      expect(running).not.toHaveProperty('finishedAt');
    }
    await waitForStage(t, user.token, user.name, id, ['COMPLETED']);
    const ended = await http<Json>(t.baseUrl, 'GET', `/api/jobs/${user.name}/${id}`, { token: user.token });
    expect(ended.body).toMatchObject({ startedAt: expect.any(String), finishedAt: expect.any(String) });
    const listed = await http<Json[]>(t.baseUrl, 'GET', `/api/jobs/${user.name}`, { token: user.token });
    expect(listed.body[0]).toMatchObject({ owner: { avatarUrl: avatar }, initiator: { avatarUrl: avatar } });
  });

  it('hf jobs scheduled labels and a new schedule: PUT .../labels {labels}, POST .../schedule {schedule}, same bounds and roles', async () => {
    const t = target();
    const user = await makeUser(t);
    const base = `/api/scheduled-jobs/${user.name}`;
    const created = await http<Json>(t.baseUrl, 'POST', base, {
      token: user.token,
      body: {
        schedule: '@yearly',
        suspend: true,
        jobSpec: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'], labels: { team: 'a' } },
      },
    });
    expect(created.status).toBe(200);
    const id = created.body['id'] as string;

    const labelled = await http<Json>(t.baseUrl, 'PUT', `${base}/${id}/labels`, {
      token: user.token,
      body: { labels: { env: 'prod', team: 'ml' } },
    });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toMatchObject({ id, schedule: '@yearly', jobSpec: { labels: { env: 'prod', team: 'ml' } } });
    const got = await http<Json>(t.baseUrl, 'GET', `${base}/${id}`, { token: user.token });
    expect((got.body['jobSpec'] as Json)['labels']).toEqual({ env: 'prod', team: 'ml' });
    // `hf jobs scheduled labels <id> --clear` sends an empty map.
    const cleared = await http<Json>(t.baseUrl, 'PUT', `${base}/${id}/labels`, {
      token: user.token,
      body: { labels: {} },
    });
    expect((cleared.body['jobSpec'] as Json)['labels']).toEqual({});
    const badLabel = await http<{ error: string }>(t.baseUrl, 'PUT', `${base}/${id}/labels`, {
      token: user.token,
      body: { labels: { 'bad key!': 'x' } },
    });
    expect(badLabel.status).toBe(400);
    expect(badLabel.body.error).toMatch(/labels/);

    const rescheduled = await http<Json>(t.baseUrl, 'POST', `${base}/${id}/schedule`, {
      token: user.token,
      body: { schedule: '0 9 * * 1' },
    });
    expect(rescheduled.status).toBe(200);
    expect(rescheduled.body).toMatchObject({ id, schedule: '0 9 * * 1', suspend: true });
    await http(t.baseUrl, 'POST', `${base}/${id}/resume`, { token: user.token });
    const next = (await http<Json>(t.baseUrl, 'GET', `${base}/${id}`, { token: user.token })).body['status'] as Json;
    const at = new Date(next['nextJobRunAt'] as string);
    expect([at.getUTCDay(), at.getUTCHours(), at.getUTCMinutes()]).toEqual([1, 9, 0]);
    for (const [schedule, message] of [
      ['61 * * * *', /minute/],
      ['* * * * * *', /HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS/],
      ['', /schedule/],
    ] as const) {
      const bad = await http<{ error: string }>(t.baseUrl, 'POST', `${base}/${id}/schedule`, {
        token: user.token,
        body: { schedule },
      });
      expect({ schedule, status: bad.status }).toEqual({ schedule, status: 400 });
      expect(bad.body.error).toMatch(message);
    }
    expect((await http<Json>(t.baseUrl, 'GET', `${base}/${id}`, { token: user.token })).body['schedule']).toBe(
      '0 9 * * 1',
    );

    const reader = await makeToken(t, user.name, 'read');
    for (const [method, path, body] of [
      ['PUT', `${base}/${id}/labels`, { labels: {} }],
      ['POST', `${base}/${id}/schedule`, { schedule: '@daily' }],
    ] as const) {
      expect((await http(t.baseUrl, method, path, { token: reader.token, body })).status).toBe(403);
      const missing = await http(t.baseUrl, method, path.replace(id, 'f'.repeat(24)), { token: user.token, body });
      expect(missing.status).toBe(404);
      const stranger = await makeUser(t);
      expect((await http(t.baseUrl, method, path, { token: stranger.token, body })).status).toBe(404);
    }
    // A run started now carries the labels the schedule has then.
    await http(t.baseUrl, 'PUT', `${base}/${id}/labels`, { token: user.token, body: { labels: { run: 'now' } } });
    const run = await http<Json>(t.baseUrl, 'POST', `${base}/${id}/run`, { token: user.token });
    expect(run.body['labels']).toEqual({ run: 'now' });
    await http(t.baseUrl, 'DELETE', `${base}/${id}`, { token: user.token });
  });
}
