import { readdirSync, readFileSync } from 'node:fs';
import { runJob } from '@huggingface/hub';
import { type NatsConnection } from 'nats';
import { subject } from '@hub/contracts';
import { JobsRpc } from '@hub/jobs-contract';
import {
  describeWithInfra,
  DistributedHub,
  foreignResourceGroupScenarios,
  freePort,
  JOB_CAPS_TEST_ENV,
  killJobsServiceMidRun,
  jobCapsScenarios,
  jobLogPushScenarios,
  jobSourceReadScenarios,
  jobsBoundsScenarios,
  jobsHfCliScenarios,
  liveStreamsScenarios,
  noAccessScenarios,
  jobsScenarios,
  jobsShapeScenarios,
  makeUser,
  NATS_TEST_ALL_RIGHTS_USER,
  type RunningProcess,
  scheduledJobsScenarios,
  startApp,
  streamCapScenarios,
  waitForStage,
  webhookJobViewScenarios,
} from '@hub/testing';

const ADMIN = 'jobs-distributed-admin-token';

/**
 * The jobs launcher distributed: gateway, credentials, organizations and jobs as separate built
 * processes over real NATS and Postgres; the jobs service is killed mid-run and restarted. Jobs
 * run as host processes here (HUB_JOBS_ENGINE=host); jobs-engine-distributed.e2e-spec.ts runs them
 * in containers.
 */
describeWithInfra('distributed hub: jobs', () => {
  const hub = new DistributedHub({
    busPrefix: 'e2e',
    adminToken: ADMIN,
    env: {
      HUB_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_SECRET_KEY: 'jobs-distributed-secret-key',
      // Host mode (bubblewrap, and the spawn helper killed below; a distributed jobs service needs it
      // said, decision 0621); jobs-engine-distributed runs containers.
      HUB_JOBS_ENGINE: 'host',
    },
    // webhooks too: a job webhook answers the job it starts, read from the jobs service (issue 37).
    services: ['credentials', 'organizations', 'jobs', 'webhooks'],
    serviceEnv: {
      jobs: {
        HUB_JOBS_HEARTBEAT_MS: '300',
        HUB_JOBS_STALE_MS: '1500',
        HUB_JOBS_SCHEDULER_TICK_MS: '200',
        ...JOB_CAPS_TEST_ENV,
      },
    },
    // A second replica: streams open on one are ended by revocations made through the other.
    gateways: 2,
  });
  let gateway = '';
  let gateway2 = '';

  beforeAll(async () => {
    await hub.start();
    [gateway, gateway2] = hub.gateways;
  }, 400_000);

  afterAll(() => hub.stop());

  jobsScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  // The log stream's reads of the stored log, seen on the bus: every request on jobs.job.logs.
  jobLogPushScenarios(
    () => ({ baseUrl: gateway, adminToken: ADMIN }),
    async () => {
      const nc = await hub.nats.connect(NATS_TEST_ALL_RIGHTS_USER);
      const counter = { reads: 0, close: () => nc.close() };
      nc.subscribe(JobsRpc.Logs.subject, { callback: () => counter.reads++ });
      await nc.flush();
      return counter;
    },
  );
  jobsBoundsScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  jobsShapeScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  scheduledJobsScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  jobCapsScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  jobsHfCliScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  webhookJobViewScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  noAccessScenarios(() => ({ baseUrl: gateway, gateways: [gateway, gateway2], adminToken: ADMIN, jobs: true }));
  liveStreamsScenarios(() => ({ baseUrl: gateway, gateways: [gateway, gateway2], adminToken: ADMIN, jobs: true }));
  streamCapScenarios(() => ({ baseUrl: gateway, gateways: [gateway, gateway2], adminToken: ADMIN, jobs: true }));
  foreignResourceGroupScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  jobSourceReadScenarios(() => ({
    baseUrl: gateway,
    adminToken: ADMIN,
    readJobSpec: async (jobId, reader) =>
      statusOverBus(await hub.nats.connect(NATS_TEST_ALL_RIGHTS_USER), JobsRpc.Spec.subject, { jobId, reader }),
  }));

  it('publishes every stage change on hub.jobs.job.status and the audit events, through the outbox', async () => {
    const nc = await hub.nats.connect(NATS_TEST_ALL_RIGHTS_USER);
    const got: { subject: string; data: Record<string, unknown> }[] = [];
    const sub = nc.subscribe(subject('hub.>'), {
      callback: (_e, m) => got.push({ subject: m.subject, data: JSON.parse(m.string()) as Record<string, unknown> }),
    });
    await nc.flush();
    const t = { baseUrl: gateway, adminToken: ADMIN };
    const user = await makeUser(t);
    const job = await runJob({
      namespace: user.name,
      accessToken: user.token,
      hubUrl: gateway,
      dockerImage: 'alpine:3',
      flavor: 'cpu-basic',
      command: ['true'],
    });
    await waitForStage(t, user.token, user.name, job.id, ['COMPLETED']);
    const deadline = Date.now() + 3000;
    const mine = () =>
      got.filter(
        (g) => g.data['jobId'] === job.id || (g.data['data'] as { jobId?: string } | undefined)?.jobId === job.id,
      );
    while (mine().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    sub.unsubscribe();
    await nc.drain();
    expect(
      mine()
        .filter((g) => g.subject === subject('hub.jobs.job.status'))
        .map((g) => g.data['stage']),
    ).toEqual(['SCHEDULING', 'RUNNING', 'COMPLETED']);
    expect(mine().filter((g) => g.subject === subject('hub.audit.jobs.create'))).toHaveLength(1);
  });

  it('a jobs service with no container engine refuses to start unless HUB_JOBS_ENGINE=host, saying what to set', async () => {
    const refused = startApp('jobs', {
      ...hub.envFor('jobs'),
      PORT: String(await freePort()),
      HUB_JOBS_ENGINE: 'auto',
      // No engine answers there (the docker client is asked, as at every start).
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(-1), 60_000);
      refused.child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    if (code === -1) await refused.stop('SIGKILL');
    expect(code).toBe(1);
    expect(refused.output()).toMatch(/no container engine found.*HUB_JOBS_ENGINE=host/s);
  });

  /** Stops the jobs service mid-run with `kill` and restarts it: the job is settled as ERROR and its processes are gone. */
  async function killMidRun(kill: (jobs: RunningProcess) => Promise<void>): Promise<void> {
    const settled = await killJobsServiceMidRun({ baseUrl: gateway, adminToken: ADMIN }, hub.process('jobs'), {
      image: 'alpine:3',
      kill: (jobs) => kill(jobs.proc),
    });
    expect(settled.status.stage).toBe('ERROR');
  }

  it('a jobs service killed -9 mid-run and restarted: its processes are gone (its spawn helper kills them) and the job is settled as ERROR', async () => {
    await killMidRun((jobs) => jobs.stop('SIGKILL'));
  }, 240_000);

  it('a jobs service and its spawn helper both killed -9 mid-run: the restarted service kills the orphaned process group from the stored handle', async () => {
    await killMidRun(async (jobs) => {
      // The jobs service's only children are its spawn helpers (job processes are the helpers' children).
      const pid = jobs.child.pid ?? 0;
      const helpers = readdirSync(`/proc/${pid}/task`).flatMap((t) =>
        readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
      if (helpers.length === 0) throw new Error('no spawn helper');
      // Stopped first, so none can see its service go and kill the runs itself.
      for (const helper of helpers) process.kill(helper, 'SIGSTOP');
      await jobs.stop('SIGKILL');
      for (const helper of helpers) process.kill(helper, 'SIGKILL');
    });
  }, 240_000);
});

/** One RPC over NATS as a service sends it (`{ctx, data}` in, `{result}` or `{error: {status}}` out): the answer's status. */
async function statusOverBus(nc: NatsConnection, subjectName: string, data: unknown): Promise<number> {
  try {
    const reply = await nc.request(subjectName, JSON.stringify({ ctx: { requestId: 'jobs-distributed-spec' }, data }), {
      timeout: 10_000,
    });
    return (JSON.parse(reply.string()) as { error?: { status: number } }).error?.status ?? 200;
  } finally {
    await nc.close();
  }
}
