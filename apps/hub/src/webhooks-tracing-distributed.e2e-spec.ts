import {
  AuthenticatedNats,
  createTestDatabase,
  deliverTraced,
  describeWithInfra,
  expectDeliveryChain,
  freePort,
  type OtlpCollector,
  type RunningProcess,
  runApp,
  spansOf,
  startApp,
  startOtlpCollector,
  startWebhookCapture,
  type TestDatabase,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
} from '@hub/testing';

const ADMIN = 'webhooks-tracing-distributed-admin-token';

/**
 * Traces in the distributed mode (decision 0504): gateway, credentials, organizations and webhooks
 * as separate processes exporting OTLP/JSON to a stand-in collector; one delivery's spans link up
 * across the RPC to organizations and the NATS event to webhooks.
 */
describeWithInfra('distributed hub: webhook delivery traces', () => {
  let nats: AuthenticatedNats;
  let db: TestDatabase;
  let capture: WebhookCapture;
  let collector: OtlpCollector;
  const procs: RunningProcess[] = [];
  let gateway = '';

  beforeAll(async () => {
    nats = await AuthenticatedNats.start();
    [db, capture, collector] = await Promise.all([createTestDatabase(), startWebhookCapture(), startOtlpCollector()]);
    const common = {
      DATABASE_URL: db.url,
      HUB_BUS_PREFIX: process.env['HUB_BUS_PREFIX'] ?? 'e2e-traces',
      HUB_ADMIN_TOKEN: ADMIN,
      HOST: '127.0.0.1',
      ...WEBHOOK_TEST_ENV,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    for (const app of ['credentials', 'organizations', 'webhooks']) {
      const r = await runApp(app, common, ['migrate']);
      expect({ app, code: r.code, output: r.code === 0 ? '' : r.output }).toEqual({ app, code: 0, output: '' });
    }
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    ['credentials', 'organizations', 'webhooks', 'gateway'].forEach((app, i) =>
      procs.push(startApp(app, { ...common, ...nats.env(app), PORT: String(ports[i]) })),
    );
    gateway = `http://127.0.0.1:${ports[3]}`;
    // Generous: four Node processes booting at once on a loaded 2-core machine; an app that exits shows its output.
    await Promise.all(procs.map((p, i) => p.waitForReady(`http://127.0.0.1:${ports[i]}/health/ready`, 170_000)));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await capture?.close();
    await collector?.close();
    await db?.drop();
    await nats?.stop();
  });

  it('the trace crosses the RPC and the bus: gateway → organizations → webhooks intake → attempt → outcome', async () => {
    const d = await deliverTraced({
      baseUrl: gateway,
      adminToken: ADMIN,
      capture,
      databaseUrl: db.url,
      scrapeMetrics: async () => [],
    });
    const spans = await spansOf(async () => collector.spans(), d.traceId);
    expectDeliveryChain(spans, d);
    const services = new Map(spans.map((s) => [s.name, s.service]));
    expect(services.get('POST /admin/events')).toBe('gateway');
    expect(services.get('webhooks.intake')).toBe('webhooks');
    expect(spans.some((s) => s.service === 'organizations' && s.name.startsWith('rpc '))).toBe(true);
  });
});
