import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerTracing, type Tracing } from '@hub/observability';
import {
  deliverTraced,
  describeWithInfra,
  expectDeliveryChain,
  http,
  makeUser,
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

  it("a user's API call starts a trace of its own, with the caller's traceparent as a link (decision 0506)", async () => {
    const user = await makeUser({ baseUrl: t.baseUrl, adminToken: ADMIN }, 'write', 'traced');
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await http(t.baseUrl, 'GET', '/api/settings/webhooks', {
      token: user.token,
      headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    });
    expect(res.status).toBe(200);
    let span: ReturnType<InMemorySpanExporter['getFinishedSpans']>[number] | undefined;
    const deadline = Date.now() + 10_000;
    while (!span && Date.now() < deadline) {
      span = exporter
        .getFinishedSpans()
        .find((s) => s.name === 'GET /api/settings/webhooks' && s.links.some((l) => l.context.spanId === callerSpan));
      if (!span) await new Promise((r) => setTimeout(r, 50));
    }
    expect(span).toBeDefined();
    expect(span?.spanContext().traceId).not.toBe(callerTrace);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.links.map((l) => l.context.traceId)).toEqual([callerTrace]);
  });
});
