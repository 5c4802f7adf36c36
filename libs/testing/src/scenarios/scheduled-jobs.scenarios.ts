import {
  createScheduledJob,
  deleteScheduledJob,
  getScheduledJob,
  listJobs,
  listScheduledJobs,
  resumeScheduledJob,
  runScheduledJob,
  suspendScheduledJob,
} from '@huggingface/hub';
import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { openApiCheckedFetch } from '../openapi';
import { type JobTarget, waitForStage } from './jobs-helpers';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Scheduled jobs through `@huggingface/hub` (a 6-field cron with seconds keeps the test short). */
export function scheduledJobsScenarios(target: () => JobTarget): void {
  it('a schedule fires jobs, stops while suspended, fires again when resumed, runs now, and is deleted', async () => {
    const t = target();
    const user = await makeUser(t);
    const auth = {
      accessToken: user.token,
      hubUrl: t.baseUrl,
      fetch: openApiCheckedFetch(t.baseUrl),
      namespace: user.name,
    };
    const fired = async (): Promise<string[]> =>
      (await listJobs(auth))
        .filter((j) => (j.initiator as { type?: string } | undefined)?.type === 'scheduled-job')
        .map((j) => j.id);
    const s = await createScheduledJob({
      ...auth,
      schedule: '*/2 * * * * *',
      concurrency: true,
      jobSpec: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['echo', 'tick'] },
    });
    expect(s).toMatchObject({ schedule: '*/2 * * * * *', suspend: false, concurrency: true });
    const deadline = Date.now() + 10_000;
    while ((await fired()).length < 2 && Date.now() < deadline) await sleep(100);
    expect((await fired()).length).toBeGreaterThanOrEqual(2);
    const job = (await listJobs(auth)).find(
      (j) => (j.initiator as { type?: string } | undefined)?.type === 'scheduled-job',
    );
    expect(job?.initiator).toMatchObject({ type: 'scheduled-job', id: s.id });

    await suspendScheduledJob({ ...auth, jobId: s.id });
    expect((await getScheduledJob({ ...auth, jobId: s.id })).suspend).toBe(true);
    await sleep(300);
    const whileSuspended = (await fired()).length;
    await sleep(2500);
    expect((await fired()).length).toBe(whileSuspended);

    await resumeScheduledJob({ ...auth, jobId: s.id });
    const resumed = Date.now() + 10_000;
    while ((await fired()).length <= whileSuspended && Date.now() < resumed) await sleep(100);
    expect((await fired()).length).toBeGreaterThan(whileSuspended);
    await suspendScheduledJob({ ...auth, jobId: s.id });

    const now = await runScheduledJob({ ...auth, jobId: s.id });
    expect(now?.initiator).toMatchObject({ type: 'scheduled-job', id: s.id });
    expect((await listScheduledJobs(auth)).map((x) => x.id)).toEqual([s.id]);
    await deleteScheduledJob({ ...auth, jobId: s.id });
    expect(
      (await http(t.baseUrl, 'GET', `/api/scheduled-jobs/${user.name}/${s.id}`, { token: user.token })).status,
    ).toBe(404);
  });

  it('with concurrency off, run now answers 409 while the previous run is going; a bad schedule is a 400', async () => {
    const t = target();
    const user = await makeUser(t);
    const auth = { accessToken: user.token, hubUrl: t.baseUrl, namespace: user.name };
    const s = await createScheduledJob({
      ...auth,
      schedule: '@yearly',
      suspend: true,
      jobSpec: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sleep', '30'] },
    });
    const first = await runScheduledJob({ ...auth, jobId: s.id });
    expect(first).not.toBeNull();
    expect(await runScheduledJob({ ...auth, jobId: s.id })).toBeNull();
    await http(t.baseUrl, 'POST', `/api/jobs/${user.name}/${first?.id ?? ''}/cancel`, { token: user.token });
    await waitForStage(t, user.token, user.name, first?.id ?? '', ['CANCELED']);
    expect(await runScheduledJob({ ...auth, jobId: s.id })).not.toBeNull();
    const bad = await http<{ error: string }>(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
      token: user.token,
      body: { schedule: '61 * * * *', jobSpec: { dockerImage: 'a', flavor: 'cpu-basic', command: ['true'] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/minute/);
    const badSpec = await http<{ error: string }>(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
      token: user.token,
      body: { schedule: '@daily', jobSpec: { dockerImage: 'a', flavor: 'nope', command: ['true'] } },
    });
    expect(badSpec.status).toBe(400);
    expect(badSpec.body.error).toMatch(/flavor/);
  });

  it('a schedule in a named zone fires on the clock of that zone: 09:00 New York is 14:00 UTC in winter, 13:00 in summer', async () => {
    const t = target();
    const user = await makeUser(t);
    const auth = { accessToken: user.token, hubUrl: t.baseUrl, namespace: user.name };
    const jobSpec = { dockerImage: 'alpine:3', flavor: 'cpu-basic' as const, command: ['true'] };
    const s = await createScheduledJob({
      ...auth,
      schedule: 'CRON_TZ=America/New_York 0 9 * * *',
      suspend: false,
      jobSpec,
    });
    expect(s.schedule).toBe('CRON_TZ=America/New_York 0 9 * * *');
    const got = await http<{ status: { nextJobRunAt: string } }>(
      t.baseUrl,
      'GET',
      `/api/scheduled-jobs/${user.name}/${s.id}`,
      { token: user.token },
    );
    const next = new Date(got.body.status.nextJobRunAt);
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' })
      .formatToParts(next)
      .find((p) => p.type === 'timeZoneName')?.value;
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([offset === 'GMT-4' ? 13 : 14, 0]);
    await deleteScheduledJob({ ...auth, jobId: s.id });
  });
}
