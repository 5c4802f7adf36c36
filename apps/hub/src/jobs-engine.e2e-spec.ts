import {
  describeWithEngine,
  JOB_ADMISSION_TEST_ENV,
  JOB_ENGINE_TEST_ENV,
  jobsAdmissionScenarios,
  jobsExposeScenarios,
  jobsImageScenarios,
  jobsIsolationScenarios,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-engine-admin-token';

/** Jobs in containers of the local engine (Docker or Podman), in the all-in-one hub (issue 25). */
describeWithEngine('all-in-one hub: jobs in containers', () => {
  let t: TestHub;

  beforeAll(async () => {
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_ENGINE: 'auto',
        ...JOB_ENGINE_TEST_ENV,
        ...JOB_ADMISSION_TEST_ENV,
      },
      { listen: true },
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  jobsAdmissionScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsExposeScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsImageScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsIsolationScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN, databaseUrl: t.db.url }));
});
