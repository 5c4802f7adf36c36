import { createServer } from 'node:net';
import { runJob } from '@huggingface/hub';
import {
  createTestDatabase,
  deliverThroughKillNine,
  describeWithInfra,
  discussionEvent,
  hexId,
  http,
  makeUser,
  AuthenticatedNats,
  publishHubEvent,
  queryDatabase,
  type RunningProcess,
  runApp,
  startApp,
  startWebhookCapture,
  type TestDatabase,
  uniqueName,
  waitForHttp,
  waitForStage,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
} from '@hub/testing';

const ADMIN = 'scale-out-admin-token';
const METRICS = 'scale-out-metrics-token';
const SERVICES = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs'];
/** Two replicas of each of these (and of the gateway), one of each killed with kill -9 mid-run. */
const SCALED = ['webhooks', 'notifications', 'jobs', 'gateway'] as const;
type Scaled = (typeof SCALED)[number];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A free port below the kernel's ephemeral range (32768+): ten apps take a while to boot on a
 * busy machine, and a port from listen(0) could meanwhile become some client's local port.
 */
async function bootPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((r) => {
      const srv = createServer().once('error', () => r(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => r(true)));
    });
    if (free) return port;
  }
}

/** Sums the samples of one counter in a Prometheus text exposition. */
function counterSum(text: string, name: string): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/**
 * The distributed hub scaled out as the deployment manifests run it: two replicas each of the
 * gateway, webhooks, notifications and jobs (one of credentials and organizations) as separate
 * built processes against one NATS and one Postgres. Each workload checks that both replicas
 * did part of the work, and survives kill -9 of one replica with nothing lost.
 */
describeWithInfra('scale-out: two replicas per service, one killed with kill -9 mid-run', () => {
  // The bus as deployed: users and permissions per app, generated (decision 0013).
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  let capture: WebhookCapture;
  let common: Record<string, string> = {};
  const procs: RunningProcess[] = [];
  const replicas = {} as Record<Scaled, { proc: RunningProcess; url: string }[]>;
  const gateway = (i: number): string => replicas.gateway[i % 2].url;

  const launch = async (
    app: string,
    env: Record<string, string> = {},
  ): Promise<{ proc: RunningProcess; url: string }> => {
    const port = await bootPort();
    const proc = startApp(app, { ...common, ...nats.env(app), ...env, PORT: String(port) });
    procs.push(proc);
    return { proc, url: `http://127.0.0.1:${port}` };
  };

  beforeAll(async () => {
    nats = await AuthenticatedNats.start();
    [db, capture] = await Promise.all([createTestDatabase(), startWebhookCapture()]);
    common = {
      DATABASE_URL: db.url,
      HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? 'e2e-scale',
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      HUB_RATE_LIMIT_PER_MINUTE: '1000000',
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_METRICS_TOKEN: METRICS,
      // Jobs run in host mode unless CI names an engine (a distributed jobs service refuses to start without one, decision 0621).
      HUB_JOBS_ENGINE: process.env['HUB_JOBS_ENGINE'] ?? 'host',
      ...WEBHOOK_TEST_ENV,
      HUB_WEBHOOK_LEASE_MS: '3000',
      HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: '100000',
      HUB_JOBS_HEARTBEAT_MS: '300',
      HUB_JOBS_STALE_MS: '1500',
      HUB_JOBS_SCHEDULER_TICK_MS: '500',
    };
    // The one-shot migrations, side by side as the compose stack and the k8s Job run them
    // (each service owns its schema), before any replica starts.
    const migrations = await Promise.all(
      SERVICES.map(async (app) => ({ app, ...(await runApp(app, common, ['migrate'])) })),
    );
    expect(migrations.map(({ app, code, output }) => ({ app, code, output: code === 0 ? '' : output }))).toEqual(
      SERVICES.map((app) => ({ app, code: 0, output: '' })),
    );
    const single = await Promise.all([launch('credentials'), launch('organizations')]);
    for (const app of SCALED) {
      // Notifications log each applied event at debug level: the per-replica count.
      const env: Record<string, string> = app === 'notifications' ? { LOG_LEVEL: 'debug' } : {};
      replicas[app] = [await launch(app, env), await launch(app, env)];
    }
    const all = [...single, ...SCALED.flatMap((app) => replicas[app])];
    await Promise.all(
      all.map((r) =>
        waitForHttp(`${r.url}/health/ready`, 300_000).catch((err: Error) => {
          throw new Error(`${err.message}; its output:\n${r.proc.output().slice(-3000)}`);
        }),
      ),
    );
  }, 420_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await capture?.close();
    await db?.drop();
    await nats?.stop();
  });

  const metrics = async (url: string): Promise<string> => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS}` } });
    return res.ok ? res.text() : '';
  };

  it('webhooks: 1,000 deliveries shared by both replicas, none lost when one is killed', async () => {
    const attempts: number[] = [];
    const ledger = await deliverThroughKillNine(
      {
        baseUrl: gateway(0),
        adminToken: ADMIN,
        capture,
        killMidway: async () => {
          for (const r of replicas.webhooks)
            attempts.push(counterSum(await metrics(r.url), 'hub_webhook_attempts_total'));
          await replicas.webhooks[0].proc.stop('SIGKILL');
        },
      },
      1000,
      90_000,
    );
    expect(ledger).toMatchObject({ published: 1000, delivered: 1000, unstableIds: 0 });
    // Both replicas had delivered part of the first quarter before the kill.
    expect(attempts).toHaveLength(2);
    expect(attempts.every((n) => n > 0)).toBe(true);
  }, 150_000);

  it('notifications: 300 events shared by both replicas, each in the inbox exactly once after one is killed', async () => {
    const [alice, bob] = [
      await makeUser({ baseUrl: gateway(0), adminToken: ADMIN }),
      await makeUser({ baseUrl: gateway(1), adminToken: ADMIN }),
    ];
    const repo = `${alice.name}/${uniqueName('scale')}`;
    const count = 300;
    const inbox = async (): Promise<number> =>
      (await http<{ count: { all: number } }>(gateway(1), 'GET', '/api/notifications', { token: bob.token })).body.count
        .all;
    const applied = (i: number): number =>
      (replicas.notifications[i].proc.output().match(/"msg":"hub event applied"/g) ?? []).length;
    let killed = false;
    const killing = (async () => {
      while ((await inbox()) < count / 4) await sleep(20);
      await replicas.notifications[0].proc.stop('SIGKILL');
      killed = true;
    })();
    for (let i = 0; i < count; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          publishHubEvent(
            { baseUrl: gateway(i / 25), adminToken: ADMIN },
            'hub.events.discussion.create',
            discussionEvent({ actor: alice, repo, discussionId: hexId(), num: i + j + 1, mentions: [bob] }),
          ),
        ),
      );
    }
    await killing;
    expect(killed).toBe(true);
    // Messages the killed replica held unacknowledged come back after the consumer's ack wait (30 s).
    // The inbox is the measure: one notification per event, none lost, none twice. (The replicas'
    // "applied" log lines only show that both took a share: a process killed with -9 loses the tail
    // of its buffered log, so their sum can fall short of what it really committed.)
    const deadline = Date.now() + 90_000;
    while ((await inbox()) < count && Date.now() < deadline) await sleep(200);
    await sleep(500);
    expect(await inbox()).toBe(count);
    expect([applied(0), applied(1)].every((n) => n > 0)).toBe(true);
  }, 150_000);

  it('jobs: 12 jobs run on both replicas; after one is killed every job reaches a terminal stage', async () => {
    const t = { baseUrl: gateway(0), adminToken: ADMIN };
    const user = await makeUser(t);
    const jobs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        runJob({
          namespace: user.name,
          accessToken: user.token,
          hubUrl: gateway(i),
          dockerImage: 'alpine:3',
          flavor: 'cpu-basic',
          command: ['sh', '-c', 'sleep 3'],
        }),
      ),
    );
    const ids = jobs.map((j) => j.id);
    const runners = async (): Promise<string[]> =>
      (
        await queryDatabase<{ runner: string }>(
          db.url,
          'SELECT DISTINCT runner FROM jobs.jobs WHERE id = ANY($1) AND runner IS NOT NULL',
          [ids],
        )
      ).map((r) => r.runner);
    const deadline = Date.now() + 20_000;
    while ((await runners()).length < 2 && Date.now() < deadline) await sleep(50);
    expect(await runners()).toHaveLength(2);
    await replicas.jobs[0].proc.stop('SIGKILL');
    const settled = await Promise.all(
      ids.map((id) => waitForStage(t, user.token, user.name, id, ['COMPLETED', 'ERROR', 'CANCELED'], 30_000)),
    );
    // @huggingface/hub types `stage` with the Spaces stages only; jobs answer the spec's JobStage.
    const stages: string[] = settled.map((j) => j.status.stage);
    // The survivor completes its own; the killed replica's jobs are settled as ERROR, never left RUNNING.
    expect(stages.filter((s) => s === 'COMPLETED').length).toBeGreaterThan(0);
    expect(stages.filter((s) => s === 'ERROR').length).toBeGreaterThan(0);
    expect(
      settled
        .filter((j) => j.status.stage === 'ERROR')
        .every((j) => /jobs service stopped/.test(j.status.message ?? '')),
    ).toBe(true);
  }, 150_000);

  it('both gateways answered part of the traffic', async () => {
    const served = await Promise.all(
      replicas.gateway.map(async (g) => counterSum(await metrics(g.url), 'hub_http_requests_total')),
    );
    expect(served.every((n) => n > 10)).toBe(true);
  });
});
