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
    expect(await res.json()).toEqual({ authorization: 'Bearer abc', tenant: 'acme', webhookId: 'msg_custom_1' });
  });
});
