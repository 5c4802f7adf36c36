import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerTracing, type Tracing } from '@hub/observability';
import {
  deliverTraced,
  describeWithInfra,
  expectDeliveryChain,
  spansOf,
  startWebhookCapture,
  type TracedSpan,
  WEBHOOK_TEST_ENV,
  type WebhookCapture,
} from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'webhooks-tracing-admin-token';

/**
 * Traces in the all-in-one hub (decision 0504): an in-memory exporter registered before the hub
 * starts, and one delivery's span chain from the gateway request to the outcome.
 */
describeWithInfra('all-in-one hub: webhook delivery traces', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let capture: WebhookCapture;
  let t: TestHub;

  beforeAll(async () => {
    tracing = registerTracing(new SimpleSpanProcessor(exporter), 'hub-test');
    capture = await startWebhookCapture();
    t = await startTestHub({ HUB_ADMIN_TOKEN: ADMIN, ...WEBHOOK_TEST_ENV }, { listen: true });
  });

  afterAll(async () => {
    await t?.close();
    await capture?.close();
    await tracing?.shutdown();
  });

  it('gateway request → intake → queue and attempt → outcome, and the receiver gets the attempt as traceparent', async () => {
    const d = await deliverTraced({
      baseUrl: t.baseUrl,
      adminToken: ADMIN,
      capture,
      databaseUrl: t.db.url,
      scrapeMetrics: async () => [],
    });
    const spans = await spansOf(
      async () =>
        exporter.getFinishedSpans().map((s): TracedSpan => ({
          name: s.name,
          traceId: s.spanContext().traceId,
          spanId: s.spanContext().spanId,
          parentSpanId: s.parentSpanContext?.spanId,
        })),
      d.traceId,
    );
    expectDeliveryChain(spans, d);
  });
});
