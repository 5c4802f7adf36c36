import { runJob } from '@huggingface/hub';
import {
  AuthenticatedNats,
  createTestDatabase,
  describeWithEngine,
  freePort,
  JOB_ADMISSION_TEST_ENV,
  JOB_ENGINE_TEST_ENV,
  jobsAdmissionScenarios,
  jobsExposeScenarios,
  jobsIsolationScenarios,
  jobsScenarios,
  makeUser,
  processesWith,
  type RunningProcess,
  runApp,
  startApp,
  TEST_JOB_IMAGE,
  type TestDatabase,
  waitForHttp,
  waitForStage,
} from '@hub/testing';

const ADMIN = 'jobs-engine-distributed-admin-token';

/**
 * Jobs in containers of the local engine (issue 25), distributed: gateway, credentials,
 * organizations and jobs as separate built processes over real NATS and Postgres.
 */
describeWithEngine('distributed hub: jobs in containers', () => {
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  const procs: RunningProcess[] = [];
  let gateway = '';
  let common: Record<string, string> = {};
  let jobsEnv: Record<string, string> = {};

  beforeAll(async () => {
    nats = await AuthenticatedNats.start();
    db = await createTestDatabase();
    common = {
      DATABASE_URL: db.url,
      HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? 'e2e',
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      HUB_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_SECRET_KEY: 'jobs-engine-distributed-secret-key',
    };
    for (const app of ['credentials', 'organizations', 'jobs']) {
      const r = await runApp(app, common, ['migrate']);
      expect({ app, code: r.code, output: r.code === 0 ? '' : r.output }).toEqual({ app, code: 0, output: '' });
    }
    const [pc, po, pj, pg] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    jobsEnv = {
      ...common,
      ...nats.env('jobs'),
      PORT: String(pj),
      HUB_JOBS_ENGINE: 'docker',
      HUB_JOBS_HEARTBEAT_MS: '300',
      HUB_JOBS_STALE_MS: '1500',
      ...JOB_ENGINE_TEST_ENV,
      ...JOB_ADMISSION_TEST_ENV,
    };
    procs.push(startApp('credentials', { ...common, ...nats.env('credentials'), PORT: String(pc) }));
    procs.push(startApp('organizations', { ...common, ...nats.env('organizations'), PORT: String(po) }));
    procs.push(startApp('jobs', jobsEnv));
    procs.push(startApp('gateway', { ...common, ...nats.env('gateway'), PORT: String(pg) }));
    gateway = `http://127.0.0.1:${pg}`;
    await Promise.all([pc, po, pj, pg].map((p) => waitForHttp(`http://127.0.0.1:${p}/health/ready`, 150_000)));
  }, 400_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await db?.drop();
    await nats?.stop();
  });

  const target = () => ({ baseUrl: gateway, adminToken: ADMIN });
  // First: it counts the jobs running on the runner, and earlier tests' short jobs may still run.
  jobsAdmissionScenarios(target);
  jobsScenarios(target);
  jobsExposeScenarios(target);
  jobsIsolationScenarios(() => ({ ...target(), databaseUrl: db.url }));

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
    const jobs = procs.find((p) => p.child.spawnargs.some((a) => a.includes('apps/jobs/')));
    if (!jobs) throw new Error('no jobs process');
    await jobs.stop('SIGKILL');
    procs.splice(procs.indexOf(jobs), 1);
    // The container outlives its service: nothing but the restarted service removes it.
    expect(processesWith(`sleep ${marker}`)).toHaveLength(2);
    procs.push(startApp('jobs', jobsEnv));
    await waitForHttp(`http://127.0.0.1:${jobsEnv['PORT']}/health/ready`, 150_000);
    const settled = await waitForStage(t, user.token, user.name, job.id, ['ERROR', 'COMPLETED', 'CANCELED'], 15_000);
    expect(settled.status.message).toMatch(/jobs service stopped while this job ran; its processes were killed/);
    const gone = Date.now() + 10_000;
    while (processesWith(`sleep ${marker}`).length > 0 && Date.now() < gone)
      await new Promise((r) => setTimeout(r, 50));
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  }, 240_000);
});
