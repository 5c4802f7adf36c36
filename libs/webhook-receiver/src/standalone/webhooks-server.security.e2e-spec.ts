import { discussionCommentPayload, repoPayload } from '../testing/payload.fixtures';
import { errorMessage, hubDelivery, memoryLogger, post } from '../testing/delivery.fixtures';
import type { WebhookPayload } from '../payload/webhook-payload.types';
import { createWebhooksServer, type WebhooksServer } from './webhooks.server';

const SECRET = 'my-webhook-secret';

/** Secret header, Standard Webhooks signatures and replay protection, over real HTTP. */
describe('standalone receiver: who may deliver', () => {
  let server: WebhooksServer;
  let base: string;
  const calls: { payload: WebhookPayload; webhookId?: string }[] = [];
  const logger = memoryLogger();

  beforeAll(async () => {
    server = createWebhooksServer({ secret: SECRET, port: 0, host: '127.0.0.1', logger });
    server.add(async function onRepoEvent(payload, context) {
      calls.push({ payload, webhookId: context.webhookId });
      return { handled: payload.event.scope, repo: payload.repo.name };
    });
    base = (await server.listen()).url;
  });
  afterAll(() => server.close());
  beforeEach(() => (calls.length = 0));

  const url = () => `${base}/webhooks/onRepoEvent`;

  it('accepts a delivery built as the hub sends it (secret header + signature) and answers the handler JSON', async () => {
    const res = await post(url(), hubDelivery(discussionCommentPayload(), { secret: SECRET, msgId: 'msg_accept' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ handled: 'discussion.comment', repo: 'alice/tiny-model' });
    expect(calls).toEqual([{ payload: discussionCommentPayload(), webhookId: 'msg_accept' }]);
  });

  it('accepts the secret header alone (signature headers are optional)', async () => {
    const res = await post(url(), hubDelivery(repoPayload(), { secret: SECRET, sign: false }));
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it('answers 401 with the exact body when x-webhook-secret is missing', async () => {
    const res = await post(url(), hubDelivery(repoPayload(), { signingSecret: SECRET }));
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('{"error":"x-webhook-secret header not set."}');
    expect(calls).toHaveLength(0);
  });

  it('answers 403 with the exact body when x-webhook-secret is wrong', async () => {
    const res = await post(url(), hubDelivery(repoPayload(), { secret: 'not-the-secret', sign: false }));
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('{"error":"Invalid webhook secret."}');
    expect(calls).toHaveLength(0);
  });

  it('answers 401 when the signature was made with another secret', async () => {
    const res = await post(url(), { ...hubDelivery(repoPayload(), { secret: SECRET, signingSecret: 'attacker' }) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'No valid v1 signature in webhook-signature.' });
    expect(calls).toHaveLength(0);
  });

  it('answers 401 when the body was changed after signing', async () => {
    const delivery = hubDelivery(repoPayload(), { secret: SECRET });
    const tampered = delivery.body.replace('alice/tiny-model', 'mallory/tiny-model');
    const res = await post(url(), { ...delivery, body: tampered });
    expect(res.status).toBe(401);
    expect(calls).toHaveLength(0);
  });

  it('answers 401 for a stale timestamp (signed 10 minutes ago), naming the tolerance', async () => {
    const res = await post(url(), hubDelivery(repoPayload(), { secret: SECRET, date: new Date(Date.now() - 600_000) }));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "webhook-timestamp is more than 300 seconds away from the receiver's clock.",
    });
    expect(calls).toHaveLength(0);
  });

  it('answers 401 when only some Standard Webhooks headers are present', async () => {
    const { headers, body } = hubDelivery(repoPayload(), { secret: SECRET });
    delete headers['webhook-signature'];
    const res = await post(url(), { headers, body });
    expect(res.status).toBe(401);
    expect(await errorMessage(res)).toMatch(/^webhook-signature header not set/);
  });

  it('answers a replayed webhook-id with 200 without calling the handler again', async () => {
    const first = hubDelivery(repoPayload(), { secret: SECRET, msgId: 'msg_replayed' });
    expect((await post(url(), first)).status).toBe(200);
    const again = await post(url(), first);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true });
    // Same id, freshly signed (as a hub retry is): still a duplicate.
    expect((await post(url(), hubDelivery(repoPayload(), { secret: SECRET, msgId: 'msg_replayed' }))).status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it('runs the handler again for a retried id whose first attempt failed', async () => {
    const flaky = createWebhooksServer({ secret: SECRET, port: 0, host: '127.0.0.1', logger: memoryLogger() });
    let attempts = 0;
    flaky.add(
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('database down');
        return { attempts };
      },
      { name: 'flaky' },
    );
    const { url: flakyBase } = await flaky.listen();
    try {
      const delivery = hubDelivery(repoPayload(), { secret: SECRET, msgId: 'msg_retry' });
      expect((await post(`${flakyBase}/webhooks/flaky`, delivery)).status).toBe(500);
      const retry = await post(`${flakyBase}/webhooks/flaky`, delivery);
      expect(retry.status).toBe(200);
      expect(await retry.json()).toEqual({ attempts: 2 });
    } finally {
      await flaky.close();
    }
  });

  it('does not warn about open routes when a secret is set', () => {
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});

describe('standalone receiver: secret configuration', () => {
  const saved = process.env['WEBHOOK_SECRET'];
  afterEach(() => {
    if (saved === undefined) delete process.env['WEBHOOK_SECRET'];
    else process.env['WEBHOOK_SECRET'] = saved;
  });

  it('without a secret, accepts everyone (even signed or wrong-secret requests) and warns at start', async () => {
    delete process.env['WEBHOOK_SECRET'];
    const logger = memoryLogger();
    const server = createWebhooksServer({ port: 0, host: '127.0.0.1', logger });
    server.add(() => ({ ok: true }), { name: 'open' });
    const { url } = await server.listen();
    try {
      for (const delivery of [
        hubDelivery(),
        hubDelivery(repoPayload(), { secret: 'anything' }),
        hubDelivery(repoPayload(), { signingSecret: 'x' }),
      ]) {
        const res = await post(`${url}/webhooks/open`, delivery);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ ok: true });
      }
      expect(logger.lines).toContainEqual(
        expect.objectContaining({ level: 'warn', message: expect.stringMatching(/No webhook secret configured/) }),
      );
    } finally {
      await server.close();
    }
  });

  it('reads the secret from WEBHOOK_SECRET when the option is not given', async () => {
    process.env['WEBHOOK_SECRET'] = 'from-env';
    const server = createWebhooksServer({ port: 0, host: '127.0.0.1', logger: memoryLogger() });
    server.add(() => undefined, { name: 'env' });
    const { url } = await server.listen();
    try {
      expect((await post(`${url}/webhooks/env`, hubDelivery())).status).toBe(401);
      expect((await post(`${url}/webhooks/env`, hubDelivery(repoPayload(), { secret: 'from-env' }))).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
