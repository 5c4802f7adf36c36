import fc from 'fast-check';
import { type FastifyInstance } from 'fastify';
import { assertInjectedResponse, describeWithInfra } from '@hub/testing';
import { startTestHub, type TestHub } from './testing/test-hub';

const ADMIN = 'fuzz-admin-token-for-the-tests';
const KEYS = [
  'credentials',
  'token',
  'name',
  'email',
  'fullname',
  'role',
  'displayName',
  'plan',
  'admins',
  'user',
  'subject',
  'payload',
  'type',
  'private',
  'storage',
];

/** Random bodies: any JSON, or objects with the fields our DTOs expect holding anything. */
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...KEYS), fc.jsonValue(), { maxKeys: 6 }),
  fc.string(),
);
const segment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.constantFrom('demo-org', 'no-such-org', '..', '%00', 'a'.repeat(300)),
);
const query = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 3 });

/**
 * Property: whatever a client sends to this endpoints, the answer is never a 5xx, and
 * every error is `{"error": "<message>"}`.
 */
describeWithInfra('bad input never gets a 5xx', () => {
  let t: TestHub;
  let fastify: FastifyInstance;
  let userToken = '';

  beforeAll(async () => {
    t = await startTestHub({
      HUB_ADMIN_TOKEN: ADMIN,
      HUB_RATE_LIMIT_PER_MINUTE: '10000000',
      HUB_REVOKE_RATE_LIMIT_PER_MINUTE: '10000000',
    });
    fastify = t.fastify;
    const inject = (url: string, payload: object) =>
      fastify.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${ADMIN}` } });
    await inject('/admin/users', { name: 'fuzzer', email: 'fuzzer@example.com' });
    userToken = (await inject('/admin/users/fuzzer/tokens', { role: 'write' })).json<{ token: string }>().token;
    await inject('/admin/organizations', { name: 'demo-org', plan: 'enterprise', admins: ['fuzzer'] });
  });

  afterAll(() => t?.close());

  async function send(method: 'GET' | 'POST', url: string, token: string | null, payload?: unknown): Promise<void> {
    const headers: Record<string, string> = {};
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let raw: string | undefined;
    if (payload !== undefined) {
      raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
      headers['content-type'] = 'application/json';
    }
    const res = await fastify.inject({ method, url, payload: raw, headers });
    // Whatever came back, it is an answer the OpenAPI document declares, in its schema.
    await assertInjectedResponse(fastify, { method, url }, res);
    if (res.statusCode >= 500)
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body} (body ${raw})`);
    if (res.statusCode >= 400) {
      const parsed = res.json<{ error?: unknown }>();
      if (typeof parsed.error !== 'string' || parsed.error.length === 0)
        throw new Error(`${method} ${url}: error body ${res.body}`);
    }
  }

  const qs = (q: Record<string, string>): string =>
    Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : '';
  const runs = { numRuns: 150 };

  it('GET /api/whoami-v2 with any Authorization and query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.string({ maxLength: 250 })), query, async (auth, q) => {
        await send('GET', `/api/whoami-v2${qs(q)}`, auth);
      }),
      runs,
    );
  });

  it('POST /api/credentials/revoke with any body', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => send('POST', '/api/credentials/revoke', null, b)),
      runs,
    );
  });

  it('the organization endpoints with any name, token id and body', async () => {
    await fc.assert(
      fc.asyncProperty(segment, segment, body, async (name, tokenId, b) => {
        const org = encodeURIComponent(name);
        await send('POST', `/api/organizations/${org}/settings/tokens/revoke`, userToken, b);
        await send(
          'POST',
          `/api/organizations/${org}/settings/tokens/${encodeURIComponent(tokenId)}/revoke`,
          userToken,
          b,
        );
        await send('GET', `/api/organizations/${org}/members`, userToken);
        await send('POST', `/api/organizations/demo-org/settings/tokens/revoke`, userToken, b);
      }),
      runs,
    );
  });

  it('the admin API with any path name and body', async () => {
    await fc.assert(
      fc.asyncProperty(segment, body, async (name, b) => {
        const n = encodeURIComponent(name);
        for (const url of [
          '/admin/users',
          `/admin/users/${n}/tokens`,
          '/admin/organizations',
          `/admin/organizations/${n}/members`,
          '/admin/repos',
          '/admin/events',
        ]) {
          await send('POST', url, ADMIN, b);
        }
      }),
      runs,
    );
  });
});
