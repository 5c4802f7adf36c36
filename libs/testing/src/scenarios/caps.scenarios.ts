import { http } from '../http-client';
import { makeUser, type TestUser } from '../hub-factory';
import { type JobTarget, waitForStage } from './jobs-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

/**
 * Caps on what one user or namespace may hold (issue 22, decision 0015), small so a test reaches
 * them. Every run mode's jobs hub gets these; the webhook cap is in WEBHOOK_TEST_ENV.
 */
export const JOB_CAPS_TEST_ENV = {
  HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE: '5',
  HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE: '5',
  HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS: '2',
};
export const WEBHOOKS_MAX_PER_USER = 30;

type Body = Record<string, unknown>;
/** More than a cap, at once: the check must hold while they race. */
const PARALLEL_PAST_THE_CAP = 20;

/** The count of each status, and what the first answers of any other status than 200 and 409 said. */
function statuses(answers: { status: number; body: unknown }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of answers) out[a.status] = ((out[a.status] as number | undefined) ?? 0) + 1;
  const others = answers.filter((a) => a.status !== 200 && a.status !== 409);
  if (others.length) out['others'] = others.slice(0, 3).map((a) => `${a.status} ${JSON.stringify(a.body)}`);
  return out;
}

export function webhookCapScenarios(target: () => WebhooksScenarioTarget): void {
  it(`refuses a user's webhook past HUB_WEBHOOKS_MAX_PER_USER (${WEBHOOKS_MAX_PER_USER} here) with a 409 naming it, however many are created at once`, async () => {
    const t = target();
    const user = await makeUser(t, 'write', 'hooks');
    const create = (i: number) =>
      http<{ webhook: { id: string }; error?: string }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: user.token,
        body: { watched: [{ type: 'user', name: user.name }], domains: ['repo'], url: t.capture.url(`/cap-${i}`) },
      });
    const answers = await Promise.all(
      Array.from({ length: WEBHOOKS_MAX_PER_USER + PARALLEL_PAST_THE_CAP }, (_, i) => create(i)),
    );
    expect(statuses(answers)).toEqual({ 200: WEBHOOKS_MAX_PER_USER, 409: PARALLEL_PAST_THE_CAP });
    expect(answers.find((a) => a.status === 409)?.body.error).toBe(
      `You have ${WEBHOOKS_MAX_PER_USER} webhooks: the limit is ${WEBHOOKS_MAX_PER_USER} (HUB_WEBHOOKS_MAX_PER_USER); delete one to create another`,
    );
    const list = await http<Body[]>(t.baseUrl, 'GET', '/api/settings/webhooks', { token: user.token });
    expect(list.body).toHaveLength(WEBHOOKS_MAX_PER_USER);
    // Room again once one is deleted.
    const first = answers.find((a) => a.status === 200)?.body.webhook.id ?? '';
    expect((await http(t.baseUrl, 'DELETE', `/api/settings/webhooks/${first}`, { token: user.token })).status).toBe(
      200,
    );
    expect((await create(999)).status).toBe(200);
    expect((await create(1000)).status).toBe(409);
  });
}

export function jobCapsScenarios(target: () => JobTarget): void {
  const maxActive = Number(JOB_CAPS_TEST_ENV.HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE);
  const maxScheduled = Number(JOB_CAPS_TEST_ENV.HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE);
  const minInterval = Number(JOB_CAPS_TEST_ENV.HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS);
  const spec = { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sleep', '60'] };

  it(`refuses a job past HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE (${maxActive} here) with a 409 naming it, however many are created at once; room again once one ends`, async () => {
    const t = target();
    const user = await makeUser(t);
    const run = () =>
      http<{ id: string; error?: string }>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
        token: user.token,
        body: spec,
      });
    const answers = await Promise.all(Array.from({ length: maxActive + PARALLEL_PAST_THE_CAP }, () => run()));
    const started = answers.filter((a) => a.status === 200).map((a) => a.body.id);
    try {
      expect(statuses(answers)).toEqual({ 200: maxActive, 409: PARALLEL_PAST_THE_CAP });
      expect(answers.find((a) => a.status === 409)?.body.error).toBe(
        `${user.name} has ${maxActive} active jobs: the limit is ${maxActive} (HUB_JOBS_MAX_ACTIVE_PER_NAMESPACE); wait for one to finish or cancel one`,
      );
      const dup = await http(t.baseUrl, 'POST', `/api/jobs/${user.name}/${started[0]}/duplicate`, {
        token: user.token,
      });
      expect(dup.status).toBe(409);
      expect(
        (await http(t.baseUrl, 'POST', `/api/jobs/${user.name}/${started[0]}/cancel`, { token: user.token })).status,
      ).toBe(200);
      await waitForStage(t, user.token, user.name, started[0], ['CANCELED']);
      const again = await run();
      expect(again.status).toBe(200);
      started.push(again.body.id);
    } finally {
      for (const id of started)
        await http(t.baseUrl, 'POST', `/api/jobs/${user.name}/${id}/cancel`, { token: user.token });
    }
  });

  it(`refuses a scheduled job past HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE (${maxScheduled} here) with a 409 naming it, however many are created at once`, async () => {
    const t = target();
    const user = await makeUser(t);
    const create = () =>
      http<{ id: string; error?: string }>(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
        token: user.token,
        body: { schedule: '@daily', suspend: true, jobSpec: spec },
      });
    const answers = await Promise.all(Array.from({ length: maxScheduled + PARALLEL_PAST_THE_CAP }, () => create()));
    expect(statuses(answers)).toEqual({ 200: maxScheduled, 409: PARALLEL_PAST_THE_CAP });
    expect(answers.find((a) => a.status === 409)?.body.error).toBe(
      `${user.name} has ${maxScheduled} scheduled jobs: the limit is ${maxScheduled} (HUB_SCHEDULED_JOBS_MAX_PER_NAMESPACE); delete one to create another`,
    );
    const list = await http<Body[]>(t.baseUrl, 'GET', `/api/scheduled-jobs/${user.name}`, { token: user.token });
    expect(list.body).toHaveLength(maxScheduled);
  });

  it.each([
    [
      'fires more often than HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS',
      '* * * * * *',
      `schedule "* * * * * *" fires 1 s apart; the shortest interval allowed is ${minInterval} s (HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS)`,
    ],
    [
      'fires that often only at times',
      '0,1 * * * * *',
      `schedule "0,1 * * * * *" fires 1 s apart; the shortest interval allowed is ${minInterval} s (HUB_SCHEDULED_JOBS_MIN_INTERVAL_SECONDS)`,
    ],
    ['never fires', '0 0 30 2 *', 'schedule "0 0 30 2 *" never fires'],
    [
      'cannot be read',
      '*/999999999999 * * * *',
      'schedule: Syntax error, steps cannot be greater than maximum value of part (60)',
    ],
    [
      'names no time zone',
      'CRON_TZ=Mars/Base 0 * * * *',
      'schedule: "Mars/Base" is not a time zone (an IANA name such as Europe/Paris)',
    ],
  ])('refuses a schedule that %s with a 400 naming schedule', async (_what, schedule, error) => {
    const t = target();
    const user: TestUser = await makeUser(t);
    const res = await http<{ error: string }>(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
      token: user.token,
      body: { schedule, suspend: true, jobSpec: spec },
    });
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error });
    expect(
      (await http<Body[]>(t.baseUrl, 'GET', `/api/scheduled-jobs/${user.name}`, { token: user.token })).body,
    ).toEqual([]);
    // At the minimum itself it is taken.
    const ok = await http(t.baseUrl, 'POST', `/api/scheduled-jobs/${user.name}`, {
      token: user.token,
      body: { schedule: `*/${minInterval} * * * * *`, suspend: true, jobSpec: spec },
    });
    expect(ok.status).toBe(200);
  });
}
