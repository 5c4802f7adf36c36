import {
  AUDIT_STREAM_TEST_ENV,
  consoleScenarios,
  consoleSessionScenarios,
  consoleSignIn,
  describeWithInfra,
  DistributedHub,
  JOB_CAPS_TEST_ENV,
  makeUser,
  startWebhookCapture,
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
  let capture: WebhookCapture;
  const hub = new DistributedHub({
    busPrefix: 'e2e-console',
    adminToken: ADMIN,
    env: {
      HUB_RATE_LIMIT_PER_MINUTE: '100000',
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000',
      ...WEBHOOK_TEST_ENV,
      // Audit log streams (their credentials are sealed) to a receiver on loopback, flushed quickly.
      HUB_SECRET_KEY: 'console-distributed-secret-key',
      HUB_AUDIT_STREAM_ALLOWED_NETWORKS: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_ALLOWED_NETWORKS,
      HUB_AUDIT_STREAM_FLUSH_MS: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_FLUSH_MS,
      HUB_AUDIT_STREAM_FAILING_AFTER_S: AUDIT_STREAM_TEST_ENV.HUB_AUDIT_STREAM_FAILING_AFTER_S,
      // A failing delivery runs its whole retry schedule (the deliveries page shows "retries used up").
      HUB_WEBHOOK_SUSPEND_AFTER_FAILURES: '0',
    },
    services: ['credentials', 'organizations', 'notifications', 'webhooks', 'jobs'],
    serviceEnv: { jobs: { HUB_JOBS_HEARTBEAT_MS: '300', HUB_JOBS_SCHEDULER_TICK_MS: '200', ...JOB_CAPS_TEST_ENV } },
    // The second replica has no website set (HUB_WEBSITE_URL empty): its console links nowhere (decision 0808).
    gateways: [{}, { HUB_WEBSITE_URL: '' }],
  });
  let gateway = '';
  let gateway2 = '';

  beforeAll(async () => {
    capture = await startWebhookCapture();
    await hub.start();
    [gateway, gateway2] = hub.gateways;
  }, 360_000);

  afterAll(async () => {
    await hub.stop();
    await capture?.close();
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
  consoleScenarios(() => ({
    baseUrl: gateway,
    adminToken: ADMIN,
    capture,
    // The default: the public hub's website.
    website: 'https://huggingface.co',
    noLinks: { baseUrl: gateway2, adminToken: ADMIN },
  }));
});
