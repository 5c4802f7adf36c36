import { JobsRpc } from '@hub/jobs-contract';
import { RpcClient } from '@hub/messaging';
import { runJob } from '@huggingface/hub';
import {
  describeWithEngine,
  describeWithInfra,
  JOB_CAPS_TEST_ENV,
  jobCapsScenarios,
  jobsBoundsScenarios,
  jobsHfCliScenarios,
  jobsMetricsScenarios,
  jobsScenarios,
  jobsShapeScenarios,
  makeUser,
  queryDatabase,
  readSse,
  scheduledJobsScenarios,
  waitForStage,
  webhookJobViewScenarios,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-admin-token-for-tests';

/** The jobs launcher in the all-in-one hub (local runner in containers of the engine, in-process bus, real Postgres). */
describeWithEngine('all-in-one hub: jobs', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub(
      { HUB_ADMIN_TOKEN: ADMIN, HUB_JOBS_HEARTBEAT_MS: '300', HUB_JOBS_SCHEDULER_TICK_MS: '200', ...JOB_CAPS_TEST_ENV },
      { listen: true },
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  jobsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsBoundsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsShapeScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  scheduledJobsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobCapsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsHfCliScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsMetricsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  webhookJobViewScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));

  it('keeps job secrets sealed in the database; the job still reads them in its environment', async () => {
    const target = { baseUrl: t.baseUrl, adminToken: ADMIN };
    const user = await makeUser(target);
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: t.baseUrl,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      secrets: { API_TOKEN: 'plain-secret-8f3a1c' },
      command: ['sh', '-c', 'echo "got:$API_TOKEN"'],
    });
    expect(job.secrets).toEqual({ API_TOKEN: null });
    await waitForStage(target, user.token, user.name, job.id, ['COMPLETED']);
    const [row] = await queryDatabase<{ row: string; secrets: Record<string, string> }>(
      t.db.url,
      `SELECT j::text AS row, secret_values AS secrets FROM jobs.jobs j WHERE id = $1`,
      [job.id],
    );
    expect(row.row).not.toContain('plain-secret-8f3a1c');
    expect(row.secrets['API_TOKEN']).toMatch(/^v1\./);
    const logs = await readSse(`${t.baseUrl}/api/jobs/${user.name}/${job.id}/logs`, user.token);
    expect(logs.data.map((d) => (JSON.parse(d) as { data: string }).data)).toEqual(['got:plain-secret-8f3a1c']);
  });
});

describeWithInfra('all-in-one hub: jobs started by another service (webhooks)', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('jobs.job.create with initiator webhook, no owner and WEBHOOK_* environment runs in the user namespace', async () => {
    const user = await makeUser({ baseUrl: t.baseUrl, adminToken: ADMIN });
    const rpc = t.hub.app.get(RpcClient);
    const job = await rpc.call(
      JobsRpc.Create,
      {
        namespace: user.name,
        initiator: { type: 'webhook', id: '6b0449000000000000000001' },
        spec: {
          dockerImage: 'alpine:3',
          flavor: 'cpu-basic',
          command: ['sh', '-c', 'echo "$WEBHOOK_PAYLOAD"'],
          environment: { AB: 'b' },
        },
        environment: { WEBHOOK_PAYLOAD: '{"event":{"action":"update"}}' },
      },
      { requestId: 'webhook-test' },
    );
    expect(job).toMatchObject({
      owner: { id: user.id, name: user.name, type: 'user' },
      initiator: { type: 'webhook', id: '6b0449000000000000000001' },
    });
    await waitForStage({ baseUrl: t.baseUrl, adminToken: ADMIN }, user.token, user.name, job.id, ['COMPLETED']);
    const logs = await readSse(`${t.baseUrl}/api/jobs/${user.name}/${job.id}/logs`, user.token);
    expect(logs.data.map((d) => (JSON.parse(d) as { data: string }).data)).toEqual(['{"event":{"action":"update"}}']);
  });
});
