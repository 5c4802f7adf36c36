import { repoPayload } from '../testing/payload.fixtures';
import { hubDelivery, memoryLogger, post } from '../testing/delivery.fixtures';
import { createWebhooksServer, type WebhooksServer } from './webhooks.server';

const SECRET = 'custom-headers-secret';

/**
 * Issue 27 item 3: a webhook may carry custom headers (Authorization, X-Tenant, …) next to the
 * secret and the signature. The receiver accepts such a delivery and hands the headers to the handler.
 */
describe('standalone receiver: custom headers of a webhook', () => {
  let server: WebhooksServer;
  let base: string;

  beforeAll(async () => {
    server = createWebhooksServer({ secret: SECRET, port: 0, host: '127.0.0.1', logger: memoryLogger() });
    server.add(function seen(_payload, ctx) {
      return {
        authorization: ctx.headers['authorization'] ?? null,
        tenant: ctx.headers['x-tenant'] ?? null,
        traceparent: ctx.headers['traceparent'] ?? null,
        webhookId: ctx.webhookId ?? null,
      };
    });
    base = (await server.listen()).url;
  });
  afterAll(() => server.close());

  it('accepts a signed delivery with custom headers and shows them to the handler', async () => {
    const delivery = hubDelivery(repoPayload(), { secret: SECRET, msgId: 'msg_custom_1' });
    const res = await post(`${base}/webhooks/seen`, {
      ...delivery,
      headers: { ...delivery.headers, Authorization: 'Bearer abc', 'X-Tenant': 'acme' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      authorization: 'Bearer abc',
      tenant: 'acme',
      traceparent: null,
      webhookId: 'msg_custom_1',
    });
  });

  it('accepts a delivery carrying the trace context (traceparent, decision 0504) and shows it to the handler', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const delivery = hubDelivery(repoPayload(), { secret: SECRET, msgId: 'msg_traced_1' });
    const res = await post(`${base}/webhooks/seen`, {
      ...delivery,
      headers: { ...delivery.headers, traceparent, 'X-Tenant': 'acme' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      authorization: null,
      tenant: 'acme',
      traceparent,
      webhookId: 'msg_traced_1',
    });
  });
});
