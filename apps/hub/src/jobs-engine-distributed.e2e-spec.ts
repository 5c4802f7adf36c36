import {
  describeWithEngine,
  DistributedHub,
  JOB_ADMISSION_TEST_ENV,
  JOB_ENGINE_TEST_ENV,
  jobsAdmissionScenarios,
  jobsExposeScenarios,
  jobsImageScenarios,
  jobsIsolationScenarios,
  jobsMetricsScenarios,
  jobsScenarios,
  killJobsServiceMidRun,
  processesWith,
  TEST_JOB_IMAGE,
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
  jobsImageScenarios(target);
  jobsIsolationScenarios(() => ({ ...target(), databaseUrl: hub.db.url }));
  jobsMetricsScenarios(target);

  it('a jobs service killed -9 mid-run and restarted: the job is settled ERROR and its container removed', async () => {
    await killJobsServiceMidRun(target(), hub.process('jobs'), {
      image: TEST_JOB_IMAGE,
      kill: async (jobs, marker) => {
        expect(processesWith(marker)).toHaveLength(2);
        await jobs.stop('SIGKILL');
        // The container outlives its service: nothing but the restarted service removes it.
        expect(processesWith(marker)).toHaveLength(2);
      },
    });
  }, 240_000);
});
