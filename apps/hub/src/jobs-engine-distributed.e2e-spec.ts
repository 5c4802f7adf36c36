import { runJob } from '@huggingface/hub';
import {
  describeWithEngine,
  DistributedHub,
  JOB_ADMISSION_TEST_ENV,
  JOB_ENGINE_TEST_ENV,
  jobsAdmissionScenarios,
  jobsExposeScenarios,
  jobsIsolationScenarios,
  jobsScenarios,
  makeUser,
  processesWith,
  TEST_JOB_IMAGE,
  waitForStage,
} from '@hub/testing';

const ADMIN = 'jobs-engine-distributed-admin-token';

/**
 * Jobs in containers of the local engine (issue 25), distributed: gateway, credentials,
 * organizations and jobs as separate built processes over real NATS and Postgres.
 */
describeWithEngine('distributed hub: jobs in containers', () => {
  const hub = new DistributedHub({
    busPrefix: 'e2e',
    adminToken: ADMIN,
    env: { HUB_RATE_LIMIT_PER_MINUTE: '100000', HUB_SECRET_KEY: 'jobs-engine-distributed-secret-key' },
    services: ['credentials', 'organizations', 'jobs'],
    serviceEnv: {
      jobs: {
        HUB_JOBS_ENGINE: 'docker',
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_STALE_MS: '1500',
        ...JOB_ENGINE_TEST_ENV,
        ...JOB_ADMISSION_TEST_ENV,
      },
    },
  });
  let gateway = '';

  beforeAll(async () => {
    await hub.start();
    gateway = hub.gateways[0];
  }, 400_000);

  afterAll(() => hub.stop());

  const target = () => ({ baseUrl: gateway, adminToken: ADMIN });
  // First: it counts the jobs running on the runner, and earlier tests' short jobs may still run.
  jobsAdmissionScenarios(target);
  jobsScenarios(target);
  jobsExposeScenarios(target);
  jobsIsolationScenarios(() => ({ ...target(), databaseUrl: hub.db.url }));

  it('a jobs service killed -9 mid-run and restarted: the job is settled ERROR and its container removed', async () => {
    const t = target();
    const user = await makeUser(t);
    const marker = String(700_000 + Math.floor(Math.random() * 99_999));
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: gateway,
      dockerImage: TEST_JOB_IMAGE,
      flavor: 'cpu-basic',
      command: ['sh', '-c', `sleep ${marker} & sleep ${marker}; wait`],
    });
    await waitForStage(t, user.token, user.name, job.id, ['RUNNING']);
    const seen = Date.now() + 5000;
    while (processesWith(`sleep ${marker}`).length < 2 && Date.now() < seen)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toHaveLength(2);
    const jobs = hub.process('jobs');
    await jobs.stop('SIGKILL');
    // The container outlives its service: nothing but the restarted service removes it.
    expect(processesWith(`sleep ${marker}`)).toHaveLength(2);
    await jobs.restart();
    const settled = await waitForStage(t, user.token, user.name, job.id, ['ERROR', 'COMPLETED', 'CANCELED'], 15_000);
    expect(settled.status.message).toMatch(/jobs service stopped while this job ran; its processes were killed/);
    const gone = Date.now() + 10_000;
    while (processesWith(`sleep ${marker}`).length > 0 && Date.now() < gone)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  }, 240_000);
});
