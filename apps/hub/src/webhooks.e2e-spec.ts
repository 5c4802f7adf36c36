import {
  describeWithInfra,
  expectDailyLimit,
  webhookAccessScenarios,
  webhookCapScenarios,
  webhookSsrfScenarios,
  http,
  makeUser,
  readSse,
  repoEvent,
  startWebhookCapture,
  uniqueName,
  waitForStage,
  type WebhookCapture,
  WEBHOOK_TEST_ENV,
  webhooksScenarios,
  webhookExtensionScenarios,
  webhookOptionsScenarios,
  webhookFairnessScenarios,
  streamCapScenarios,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'webhooks-all-in-one-admin-token';
const METRICS = 'webhooks-all-in-one-metrics-token';
/** Small, so the 24 h trigger limit can be reached in a test; no scenario webhook gets more. */
const DAILY_LIMIT = 8;

/** Webhooks in the all-in-one hub (in-process bus, Postgres), with a real receiver on loopback. */
describeWithInfra('all-in-one hub: webhooks', () => {
  let capture: WebhookCapture;
  let t: TestHub;

  beforeAll(async () => {
    capture = await startWebhookCapture();
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        HUB_METRICS_TOKEN: METRICS,
        ...WEBHOOK_TEST_ENV,
        HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: String(DAILY_LIMIT),
        HUB_JOBS_HEARTBEAT_MS: '300',
        LOG_LEVEL: process.env['WH_LOG'] ?? 'fatal',
      },
      { listen: true },
    );
  });

  afterAll(async () => {
    await t?.close();
    await capture?.close();
  });

  const target = () => ({
    baseUrl: t.baseUrl,
    adminToken: ADMIN,
    capture,
    databaseUrl: t.db.url,
    scrapeMetrics: async () => [(await http<string>(t.baseUrl, 'GET', '/metrics', { token: METRICS })).body],
  });
  webhooksScenarios(target);
  webhookCapScenarios(target);
  webhookSsrfScenarios(target);
  webhookAccessScenarios(() => ({ ...target(), jobs: true }));
  webhookExtensionScenarios(target);
  webhookOptionsScenarios(target);
  webhookFairnessScenarios(target);
  streamCapScenarios(() => ({ ...target(), gateways: [t.baseUrl], jobs: true }));

  it(`queues at most HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY (${DAILY_LIMIT} here) deliveries per webhook in 24 h`, async () => {
    await expectDailyLimit(target(), await makeUser(target(), 'write', 'busy'), DAILY_LIMIT);
  });

  describe('job webhooks (the jobs service runs in this process)', () => {
    const jobsOf = async (token: string, ns: string) =>
      (await http<{ id: string; initiator?: { type: string } }[]>(t.baseUrl, 'GET', `/api/jobs/${ns}`, { token })).body;
    const envLines = async (token: string, ns: string, id: string) =>
      (await readSse(`${t.baseUrl}/api/jobs/${ns}/${id}/logs`, token)).data.map(
        (d) => (JSON.parse(d) as { data: string }).data,
      );
    /** Publishes an event for `repo` and waits for the webhook's job; returns its log lines. */
    const triggerJob = async (user: { token: string; name: string }, repo: string, known: number) => {
      await http(t.baseUrl, 'POST', '/admin/events', {
        token: ADMIN,
        body: { subject: 'hub.events.repo.update', payload: repoEvent(repo) },
      });
      const deadline = Date.now() + 20_000;
      let jobs = await jobsOf(user.token, user.name);
      while (jobs.length <= known && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        jobs = await jobsOf(user.token, user.name);
      }
      expect(jobs.length).toBe(known + 1);
      const job = jobs[0];
      expect(job.initiator).toMatchObject({ type: 'webhook' });
      await waitForStage(target(), user.token, user.name, job.id, ['COMPLETED', 'ERROR']);
      return envLines(user.token, user.name, job.id);
    };

    it('starts the job with WEBHOOK_PAYLOAD, WEBHOOK_REPO_ID, WEBHOOK_REPO_TYPE and WEBHOOK_SECRET in its environment', async () => {
      const user = await makeUser(target(), 'write', 'jobhook');
      const repo = `${user.name}/${uniqueName('m')}`;
      const created = await http<{ webhook: { id: string } }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: user.token,
        body: {
          watched: [{ type: 'model', name: repo }],
          domains: ['repo'],
          secret: 'job-hook-secret',
          job: { flavor: 'cpu-basic', dockerImage: 'alpine:3', command: ['env'] },
        },
      });
      expect(created.status).toBe(200);
      const env = await triggerJob(user, repo, 0);
      expect(env).toEqual(
        expect.arrayContaining([
          `WEBHOOK_REPO_ID=${repo}`,
          'WEBHOOK_REPO_TYPE=model',
          'WEBHOOK_SECRET=job-hook-secret',
        ]),
      );
      const payload = JSON.parse(
        env.find((l) => l.startsWith('WEBHOOK_PAYLOAD='))?.slice('WEBHOOK_PAYLOAD='.length) ?? '{}',
      ) as Record<string, Record<string, unknown>>;
      expect(payload).toMatchObject({
        event: { action: 'update' },
        repo: { name: repo, type: 'model' },
        webhook: { id: created.body.webhook.id, version: 3 },
      });
    });

    it("jobSourceId copies a job the owner can read; another user's job or a missing one is a 404", async () => {
      const user = await makeUser(target(), 'write', 'jobsrc');
      const other = await makeUser(target(), 'write', 'jobother');
      const source = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${user.name}`, {
        token: user.token,
        body: { flavor: 'cpu-basic', dockerImage: 'alpine:3', command: ['sh', '-c', 'echo copied-$WEBHOOK_REPO_TYPE'] },
      });
      expect(source.status).toBeLessThan(300);
      await waitForStage(target(), user.token, user.name, source.body.id, ['COMPLETED', 'ERROR']);
      const repo = `${user.name}/${uniqueName('m')}`;
      const body = (jobSourceId: string) => ({
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        jobSourceId,
      });
      const stolen = await http(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: other.token,
        body: body(source.body.id),
      });
      expect({ status: stolen.status, body: stolen.body }).toEqual({
        status: 404,
        body: { error: `Job ${source.body.id} not found` },
      });
      const missing = await http(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: user.token,
        body: body('0123456789abcdef01234567'),
      });
      expect(missing.status).toBe(404);
      const created = await http<{ webhook: { jobSourceId?: string } }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: user.token,
        body: body(source.body.id),
      });
      expect(created.status).toBe(200);
      expect(created.body.webhook.jobSourceId).toBe(source.body.id);
      expect(await triggerJob(user, repo, 1)).toEqual(['copied-model']);
    });
  });
});
