import {
  createTestDatabase, deliverThroughKillNine, describeWithInfra, freePort, NATS_URL_FOR_TESTS, type RunningProcess, runApp, startApp, startWebhookCapture,
  type TestDatabase, waitForHttp, WEBHOOK_TEST_ENV, type WebhookCapture, webhooksScenarios,
} from '@hub/testing';

const ADMIN = 'webhooks-distributed-admin-token';

/**
 * Webhooks in the distributed mode: gateway, credentials, organizations and two webhooks replicas
 * as separate processes over real NATS and Postgres, with a real receiver on loopback.
 */
describeWithInfra('distributed hub: webhooks', () => {
  let db: TestDatabase;
  let capture: WebhookCapture;
  const procs: RunningProcess[] = [];
  const replicas: RunningProcess[] = [];
  let gateway = '';

  beforeAll(async () => {
    [db, capture] = await Promise.all([createTestDatabase(), startWebhookCapture()]);
    const common = {
      DATABASE_URL: db.url, NATS_URL: NATS_URL_FOR_TESTS, HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? 'e2e-webhooks',
      HUB_ADMIN_TOKEN: ADMIN, HOST: '127.0.0.1', HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '100000', HUB_RATE_LIMIT_PER_MINUTE: '1000000',
      ...WEBHOOK_TEST_ENV, HUB_WEBHOOK_LEASE_MS: '3000', HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: '100000',
    };
    for (const app of ['credentials', 'organizations', 'webhooks']) {
      const r = await runApp(app, common, ['migrate']);
      expect({ app, code: r.code, output: r.code === 0 ? '' : r.output }).toEqual({ app, code: 0, output: '' });
    }
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const [pc, po, pw1, pw2, pg] = ports;
    procs.push(startApp('credentials', { ...common, PORT: String(pc) }));
    procs.push(startApp('organizations', { ...common, PORT: String(po) }));
    replicas.push(startApp('webhooks', { ...common, PORT: String(pw1) }), startApp('webhooks', { ...common, PORT: String(pw2) }));
    procs.push(...replicas);
    procs.push(startApp('gateway', { ...common, PORT: String(pg) }));
    gateway = `http://127.0.0.1:${pg}`;
    await Promise.all(ports.map((p) => waitForHttp(`http://127.0.0.1:${p}/health/ready`)));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await capture?.close();
    await db?.drop();
  });

  webhooksScenarios(() => ({ baseUrl: gateway, adminToken: ADMIN, capture, databaseUrl: db.url }));

  it('kill -9 of one of two webhooks replicas in the middle of 2,000 deliveries loses none', async () => {
    const ledger = await deliverThroughKillNine({
      baseUrl: gateway, adminToken: ADMIN, capture,
      killMidway: () => replicas[0].stop('SIGKILL'),
    });
    expect(ledger).toMatchObject({ published: 2000, delivered: 2000, unstableIds: 0 });
  }, 180_000);
});
