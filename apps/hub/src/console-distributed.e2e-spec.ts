import {
  AuthenticatedNats,
  consoleScenarios,
  consoleSessionScenarios,
  consoleSignIn,
  createTestDatabase,
  describeWithInfra,
  freePort,
  JOB_CAPS_TEST_ENV,
  makeUser,
  type RunningProcess,
  runApp,
  startApp,
  startWebhookCapture,
  type TestDatabase,
  waitForHttp,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
  withCookie,
} from '@hub/testing';

const ADMIN = 'console-distributed-admin-token';

/**
 * The web console against the distributed hub: every service its own built process over real NATS
 * (with the generated permissions) and Postgres, two gateway replicas serving the console.
 */
describeWithInfra('distributed hub: the web console', () => {
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  let capture: WebhookCapture;
  const procs: RunningProcess[] = [];
  let gateway = '';
  let gateway2 = '';

  beforeAll(async () => {
    nats = await AuthenticatedNats.start();
    [db, capture] = await Promise.all([createTestDatabase(), startWebhookCapture()]);
    const common = {
      DATABASE_URL: db.url,
      HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? 'e2e-console',
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      HUB_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
      ...WEBHOOK_TEST_ENV,
    };
    const services = ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs'];
    for (const app of services) {
      const r = await runApp(app, common, ['migrate']);
      expect({ app, code: r.code, output: r.code === 0 ? '' : r.output }).toEqual({ app, code: 0, output: '' });
    }
    const ports = await Promise.all([...services, 'gateway', 'gateway'].map(() => freePort()));
    services.forEach((app, i) =>
      procs.push(
        startApp(app, {
          ...common,
          ...nats.env(app),
          PORT: String(ports[i]),
          ...(app === 'jobs'
            ? {
                HUB_JOBS_HEARTBEAT_MS: '300',
                HUB_JOBS_SCHEDULER_TICK_MS: '200',
                HUB_JOBS_DOCKER: 'off',
                ...JOB_CAPS_TEST_ENV,
              }
            : {}),
        }),
      ),
    );
    const [pg, pg2] = ports.slice(services.length);
    procs.push(startApp('gateway', { ...common, ...nats.env('gateway'), PORT: String(pg) }));
    procs.push(startApp('gateway', { ...common, ...nats.env('gateway'), PORT: String(pg2) }));
    gateway = `http://127.0.0.1:${pg}`;
    gateway2 = `http://127.0.0.1:${pg2}`;
    // Generous: seven Node processes booting at once on a loaded 2-core machine.
    await Promise.all(ports.map((p) => waitForHttp(`http://127.0.0.1:${p}/health/ready`, 150_000)));
  }, 400_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await capture?.close();
    await db?.drop();
    await nats?.stop();
  });

  it('serves the console on every gateway replica, and a session made on one ends on both at sign-out', async () => {
    for (const base of [gateway, gateway2]) {
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
    }
    const alice = await makeUser({ baseUrl: gateway, adminToken: ADMIN });
    const s = await consoleSignIn(gateway, alice.token);
    expect((await withCookie(gateway2, 'GET', '/api/whoami-v2', s)).status).toBe(200);
    expect((await withCookie(gateway2, 'DELETE', '/api/console/session', s)).status).toBe(204);
    expect((await withCookie(gateway, 'GET', '/api/whoami-v2', s)).status).toBe(401);
  });

  consoleSessionScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN }));
  consoleScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN, capture }));
});
