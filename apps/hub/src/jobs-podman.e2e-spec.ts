import { existsSync } from 'node:fs';
import {
  describeWithInfra,
  ensureTestJobImage,
  JOB_ENGINE_TEST_ENV,
  jobsExposeScenarios,
  jobsImageScenarios,
  jobsIsolationScenarios,
  jobsMetricsScenarios,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'jobs-podman-admin-token';
const SOCKET = process.env['HUB_TEST_PODMAN_SOCKET'] ?? '/run/podman/podman.sock';
/** Podman's API (`.ci/podman-up.sh`): where it answers, or under HUB_TEST_REQUIRE_INFRA=1 (then it must). */
const withPodman =
  existsSync(SOCKET) || process.env['HUB_TEST_REQUIRE_INFRA'] === '1' ? describeWithInfra : describe.skip;

/** Jobs in Podman containers (its Docker-compatible API), in the all-in-one hub (issue 25). */
withPodman('all-in-one hub: jobs in Podman containers', () => {
  let t: TestHub;

  beforeAll(async () => {
    await ensureTestJobImage(SOCKET);
    t = await startTestHub(
      {
        HUB_ADMIN_TOKEN: ADMIN,
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_ENGINE: 'podman',
        HUB_JOBS_ENGINE_SOCKET: SOCKET,
        ...JOB_ENGINE_TEST_ENV,
      },
      { listen: true },
    );
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  jobsExposeScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsImageScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
  jobsIsolationScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN, databaseUrl: t.db.url }));
  // Podman's compatible stats API gives the same figures (issue 37 item 2).
  jobsMetricsScenarios(() => ({ baseUrl: t.baseUrl, adminToken: ADMIN }));
});
