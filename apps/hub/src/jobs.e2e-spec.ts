import { describeWithInfra, jobsBoundsScenarios, jobsScenarios, scheduledJobsScenarios } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-admin-token-for-tests';

/** The jobs launcher in the all-in-one hub (local runner, in-process bus, real Postgres). */
describeWithInfra('all-in-one hub: jobs', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN, HUB_JOBS_HEARTBEAT_MS: '300', HUB_JOBS_SCHEDULER_TICK_MS: '200' }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  jobsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsBoundsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  scheduledJobsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
});
