import {
  deliverTraced,
  describeWithInfra,
  DistributedHub,
  expectDeliveryChain,
  type OtlpCollector,
  spansOf,
  startOtlpCollector,
  startWebhookCapture,
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
  let capture: WebhookCapture;
  let collector: OtlpCollector;
  const hub = new DistributedHub({
    busPrefix: 'e2e-traces',
    adminToken: ADMIN,
    env: () => ({
      ...WEBHOOK_TEST_ENV,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    }),
    services: ['credentials', 'organizations', 'webhooks'],
  });

  beforeAll(async () => {
    [capture, collector] = await Promise.all([startWebhookCapture(), startOtlpCollector()]);
    await hub.start();
  }, 360_000);

  afterAll(async () => {
    await hub.stop();
    await capture?.close();
    await collector?.close();
  });

  it('the trace crosses the RPC and the bus: gateway → organizations → webhooks intake → attempt → outcome', async () => {
    const d = await deliverTraced({
      baseUrl: hub.gateways[0],
      adminToken: ADMIN,
      capture,
      databaseUrl: hub.db.url,
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
