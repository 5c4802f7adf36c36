import { request as httpRequest } from 'node:http';
import { omit, repoPayload } from '../testing/payload.fixtures';
import { errorMessage, hubDelivery, memoryLogger, post } from '../testing/delivery.fixtures';
import { WebhookRegistrationError } from '../core/receiver.errors';
import { createWebhooksServer, type WebhooksServer } from './webhooks.server';

const SECRET = 'routes-secret';
const authorised = (body: string) => ({
  headers: { 'X-Webhook-Secret': SECRET, 'Content-Type': 'application/json' },
  body,
});

/** Routing, bodies, payload validation and handler outcomes, over real HTTP. */
describe('standalone receiver: requests', () => {
  let server: WebhooksServer;
  let base: string;
  const logger = memoryLogger();
  let failNext = false;

  beforeAll(async () => {
    server = createWebhooksServer({ secret: SECRET, port: 0, host: '127.0.0.1', logger, maxBodyBytes: 64 * 1024 });
    server.add(function modelUpdated(payload) {
      return { route: 'modelUpdated', action: payload.event.action };
    });
    server.add(
      (payload) => {
        if (failNext) {
          failNext = false;
          throw new Error('boom: cannot reach the training cluster');
        }
        return { route: 'second', type: payload.repo.type };
      },
      { name: 'retrain' },
    );
    server.add(function quiet() {
      return undefined;
    });
    const listening = await server.listen();
    expect(listening.port).toBeGreaterThan(0);
    base = listening.url;
  });
  afterAll(() => server.close());

  it('serves several handlers, each on its own route', async () => {
    const first = await post(`${base}/webhooks/modelUpdated`, hubDelivery(repoPayload(), { secret: SECRET }));
    const second = await post(`${base}/webhooks/retrain`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(await first.json()).toEqual({ route: 'modelUpdated', action: 'update' });
    expect(await second.json()).toEqual({ route: 'second', type: 'model' });
    expect(server.routes).toEqual(['/webhooks/modelUpdated', '/webhooks/retrain', '/webhooks/quiet']);
  });

  it('answers {} when the handler returns nothing', async () => {
    const res = await post(`${base}/webhooks/quiet`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('2');
    expect(await res.text()).toBe('{}');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await post(`${base}/webhooks/quiet`, authorised('{"event": '));
    expect(res.status).toBe(400);
    expect(await errorMessage(res)).toMatch(/^Request body is not valid JSON: /);
  });

  it('answers 400 naming repo.type when it is missing', async () => {
    const res = await post(
      `${base}/webhooks/quiet`,
      authorised(JSON.stringify({ ...repoPayload(), repo: omit(repoPayload().repo, 'type') })),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'repo.type must be one of dataset, model, space, bucket, kernel' });
  });

  it('answers 400 naming event.action when it is not a string', async () => {
    const res = await post(
      `${base}/webhooks/quiet`,
      authorised(JSON.stringify({ ...repoPayload(), event: { action: 1, scope: 'repo' } })),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'event.action must be a string' });
  });

  it('answers 405 with Allow: POST for another method on a route', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${base}/webhooks/modelUpdated`, { method, headers: { 'X-Webhook-Secret': SECRET } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toEqual({ error: `Method ${method} not allowed; use POST.` });
    }
  });

  it('answers 404 for an unknown handler and for any other path', async () => {
    const unknown = await post(`${base}/webhooks/nope`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No webhook handler named "nope".' });
    const other = await fetch(`${base}/api/settings/webhooks`);
    expect(other.status).toBe(404);
    expect(await errorMessage(other)).toMatch(/^Nothing at \/api\/settings\/webhooks/);
  });

  it('answers 413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ ...repoPayload(), padding: 'x'.repeat(100 * 1024) });
    const declared = await post(`${base}/webhooks/quiet`, authorised(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'Request body is larger than 65536 bytes.' });
    const streamed = await chunkedPost(`${base}/webhooks/quiet`, big);
    expect(streamed).toEqual({ status: 413, body: '{"error":"Request body is larger than 65536 bytes."}' });
  });

  it('answers 500 with an errorId when the handler throws, logs the error with that id, and keeps serving', async () => {
    failNext = true;
    const failed = await post(`${base}/webhooks/retrain`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(failed.status).toBe(500);
    const body = (await failed.json()) as { error: string; errorId: string };
    expect(body).toEqual({ error: 'Handler failed', errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(body)).not.toContain('training cluster');
    const logged = logger.lines.find((line) => line.level === 'error' && line.message.includes(body.errorId));
    expect(logged?.message).toBe(`Webhook handler "retrain" failed (errorId ${body.errorId})`);
    expect(String(logged?.error)).toContain('cannot reach the training cluster');

    const next = await post(`${base}/webhooks/retrain`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(next.status).toBe(200);
  });

  it('shrugs off a client that disconnects mid-body: no error logged, next request served', async () => {
    const errorsBefore = logger.lines.filter((line) => line.level === 'error').length;
    await new Promise<void>((done) => {
      const req = httpRequest(`${base}/webhooks/quiet`, {
        method: 'POST',
        headers: { 'X-Webhook-Secret': SECRET, 'Content-Length': '5000' },
      });
      req.on('error', () => done());
      req.write('{"event":', () => setTimeout(() => req.destroy(), 50));
    });
    const next = await post(`${base}/webhooks/quiet`, hubDelivery(repoPayload(), { secret: SECRET }));
    expect(next.status).toBe(200);
    expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(errorsBefore);
  });

  it('checks the secret before reading the body: an unauthenticated huge body is still 401', async () => {
    const res = await fetch(`${base}/webhooks/quiet`, { method: 'POST', body: 'x'.repeat(200 * 1024) });
    expect(res.status).toBe(401);
  });
});

describe('standalone receiver: registration and lifecycle', () => {
  it('throws at registration for a duplicate name or an anonymous function', () => {
    const server = createWebhooksServer({ logger: memoryLogger() });
    server.add(function hook() {
      return 1;
    });
    expect(() => server.add(() => 2, { name: 'hook' })).toThrow(WebhookRegistrationError);
    expect(() => server.add(() => 3)).toThrow(/Anonymous webhook handler/);
  });

  it('listens on an ephemeral port, then frees it on close', async () => {
    const server = createWebhooksServer({ port: 0, host: '127.0.0.1', logger: memoryLogger() });
    const { port, address, url } = await server.listen();
    expect(address).toBe('127.0.0.1');
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url}/`)).status).toBe(200);
    await server.close();
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it('rejects listen() on a port in use, and can listen again once it is free', async () => {
    const first = createWebhooksServer({ port: 0, host: '127.0.0.1', logger: memoryLogger() });
    const { port } = await first.listen();
    const second = createWebhooksServer({ port, host: '127.0.0.1', logger: memoryLogger() });
    await expect(second.listen()).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await first.close();
    await expect(second.listen()).resolves.toMatchObject({ port });
    await second.close();
  });
});

/** Transfer-Encoding: chunked, so the server cannot refuse on Content-Length alone. */
function chunkedPost(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'X-Webhook-Secret': SECRET, 'Transfer-Encoding': 'chunked' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192));
    req.end();
  });
}
