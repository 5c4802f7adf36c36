import { randomBytes } from 'node:crypto';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser, uniqueName } from '../hub-factory';

export interface HardeningTarget extends HubTarget {
  /** Every gateway replica of the hub (the all-in-one hub has one: baseUrl). */
  gateways: string[];
}

type Res = { status: number; headers: Headers; body: unknown };

function expectError(res: Res, status: number, message?: RegExp): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: expect.any(String) } });
  expect(res.headers.get('x-error-message')).toBeTruthy();
  expect(res.headers.get('x-request-id')).toBeTruthy();
  if (message) expect((res.body as { error: string }).error).toMatch(message);
}

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const fakeToken = (): string => `hf_${randomBytes(17).toString('hex').slice(0, 34)}`;

/**
 * The security probe's findings (issue 7) as a user meets them, against any running hub with
 * ordinary settings: the all-in-one process and the distributed gateways share this suite.
 */
export function hardeningScenarios(target: () => HardeningTarget): void {
  describe('a revoked token fails on every replica once the 202 is back', () => {
    it('holds over 100 races of 30 concurrent whoamis against the revocation', async () => {
      const t = target();
      const failures: string[] = [];
      for (let trial = 0; trial < 100; trial++) {
        const user = await makeUser(t, 'read', 'race');
        // Fresh token: every one of these misses the cache and verifies by RPC, racing the revocation.
        const racing = Array.from({ length: 30 }, (_, i) =>
          http(t.gateways[i % t.gateways.length] as string, 'GET', '/api/whoami-v2', { token: user.token }),
        );
        await sleep(3);
        const revoked = await http(t.gateways[0] as string, 'POST', '/api/credentials/revoke', {
          body: { credentials: [user.token] },
        });
        expect(revoked.status).toBe(202);
        await Promise.all(racing);
        for (const g of t.gateways) {
          const after = await http(g, 'GET', '/api/whoami-v2', { token: user.token });
          if (after.status !== 401) failures.push(`trial ${trial}: ${g} answered ${after.status}`);
        }
      }
      expect(failures).toEqual([]);
    }, 300_000);
  });

  describe('request bodies', () => {
    it('400s JSON nested 2,000 deep on every JSON route, the public revoke included', async () => {
      const t = target();
      const user = await makeUser(t, 'write', 'deep');
      const org = await makeOrg(t, 'enterprise', [user.name]);
      const body = `{"credentials":${nested(2000)}}`;
      const headers = { 'content-type': 'application/json' };
      expectError(
        await http(t.baseUrl, 'POST', '/api/credentials/revoke', { rawBody: body, headers }),
        400,
        /deeper than 32 levels/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', { token: t.adminToken, rawBody: body, headers }),
        400,
        /deeper than/,
      );
      expectError(
        await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/settings/tokens/revoke`, {
          token: user.token,
          rawBody: body,
          headers,
        }),
        400,
        /deeper than/,
      );
      // Brackets inside strings are text, not depth.
      expect(
        (await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [`hf_${'['.repeat(150)}`] } }))
          .status,
      ).toBe(202);
    });

    it('names what is wrong with the list, its items, or a __proto__ key', async () => {
      const t = target();
      const revoke = (rawBody: string): Promise<Res> =>
        http(t.baseUrl, 'POST', '/api/credentials/revoke', {
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
      expectError(await revoke('{"credentials":"hf_x"}'), 400, /^credentials must be an array of strings$/);
      expectError(
        await revoke('{"credentials":[1,2]}'),
        400,
        /^credentials must be an array of strings; item 0 is number$/,
      );
      expectError(await revoke('{"credentials":["hf_x",null]}'), 400, /item 1 is null/);
      expectError(
        await revoke('{"credentials":["hf_x"],"__proto__":{"admin":true}}'),
        400,
        /must not contain a "__proto__" key/,
      );
      expectError(await revoke('{"credentials":'), 400, /not valid JSON/);
    });

    it('400s a NUL byte or another control character in a full name or a display name', async () => {
      const t = target();
      const name = uniqueName('nul');
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name, email: `${name}@example.com`, fullname: 'Eve\u0000' },
        }),
        400,
        /fullname must not contain a NUL character/,
      );
      const user = await makeUser(t, 'write', 'nul');
      expectError(
        await http(t.baseUrl, 'POST', `/admin/users/${user.name}/tokens`, {
          token: t.adminToken,
          body: { role: 'read', displayName: 'ci\u0000token' },
        }),
        400,
        /displayName must not contain a NUL character/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/organizations', {
          token: t.adminToken,
          body: { name: uniqueName('nul'), fullname: 'Acme\nInc', plan: 'team', admins: [user.name] },
        }),
        400,
        /fullname must not contain control characters/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name, email: `${name}@example.com`, fullname: 42 },
        }),
        400,
        /^fullname must be a string$/,
      );
    });
  });

  describe('organization token revocation', () => {
    it("answers an outsider's live token exactly as a token that does not exist", async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'eadmin');
      const outsider = await makeUser(t, 'write', 'outsider');
      const org = await makeOrg(t, 'enterprise', [admin.name]);
      const path = `/api/organizations/${org.name}/settings/tokens/revoke`;
      const live = await http(t.baseUrl, 'POST', path, { token: admin.token, body: { token: outsider.token } });
      const unknown = await http(t.baseUrl, 'POST', path, { token: admin.token, body: { token: fakeToken() } });
      expectError(live, 404);
      expect(live.body).toEqual(unknown.body);
      expect(live.headers.get('x-error-message')).toBe(unknown.headers.get('x-error-message'));
      const byId = await http(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/${outsider.tokenId}/revoke`,
        { token: admin.token },
      );
      const byUnknownId = await http(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/${'0'.repeat(24)}/revoke`,
        { token: admin.token },
      );
      expect({ status: byId.status, body: byId.body }).toEqual({ status: byUnknownId.status, body: byUnknownId.body });
      // The outsider's token was left alone.
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: outsider.token })).status).toBe(200);
    });

    it('gives token ids that do not follow one another', async () => {
      const t = target();
      const user = await makeUser(t, 'write', 'ids');
      const ids = [user.tokenId];
      for (let i = 0; i < 5; i++) ids.push((await makeToken(t, user.name)).id);
      // ObjectId-style ids made a second apart share their first 8+ characters; random ones do not.
      const neighboursSharing = ids.slice(1).filter((id, i) => id.slice(0, 6) === ids[i]?.slice(0, 6));
      expect(neighboursSharing).toEqual([]);
    });

    it('still revokes a member token by id with one call', async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'eadmin');
      const member = await makeUser(t, 'read', 'member');
      const org = await makeOrg(t, 'enterprise', [admin.name]);
      await addMember(t, org.name, member.name, 'read');
      const res = await http(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/${member.tokenId}/revoke`,
        { token: admin.token },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tokenId: member.tokenId, organization: org.name });
    });
  });

  describe('one case-insensitive name space for users and organizations; unique e-mails', () => {
    it('refuses Alice beside alice, an organization named like a user, a user named like an organization, and a shared e-mail', async () => {
      const t = target();
      const base = uniqueName('name');
      const created = await http(t.baseUrl, 'POST', '/admin/users', {
        token: t.adminToken,
        body: { name: base, email: `${base}@example.com` },
      });
      expect(created.status).toBe(201);
      const upper = base.toUpperCase();
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name: upper, email: `other-${base}@example.com` },
        }),
        409,
        /named .* already exists/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/organizations', {
          token: t.adminToken,
          body: { name: upper, plan: 'team', admins: [base] },
        }),
        409,
        /already exists/,
      );
      const org = await makeOrg(t, 'team', [base]);
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name: org.name.toUpperCase(), email: `third-${base}@example.com` },
        }),
        409,
        /already exists/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name: `${base}-2`, email: `${base.toUpperCase()}@EXAMPLE.COM` },
        }),
        409,
        /e-mail .* already exists/,
      );
      // A refused organization leaves its name free.
      const freed = uniqueName('free');
      expectError(
        await http(t.baseUrl, 'POST', '/admin/organizations', {
          token: t.adminToken,
          body: { name: freed, plan: 'team', admins: ['ghost-user-9'] },
        }),
        404,
      );
      expect(
        (
          await http(t.baseUrl, 'POST', '/admin/users', {
            token: t.adminToken,
            body: { name: freed, email: `${freed}@example.com` },
          })
        ).status,
      ).toBe(201);
    });
  });

  describe('errors and headers', () => {
    it('answers errors Fastify raises first in our shape with both headers', async () => {
      const t = target();
      const user = await makeUser(t, 'read', 'edge');
      const badUrl = await http(t.baseUrl, 'GET', '/api/organizations/%E0%A4%A/members', { token: user.token });
      expectError(badUrl, 400, /not a valid URL/);
      const long = await http(t.baseUrl, 'GET', `/api/organizations/${'a'.repeat(150)}/members`, { token: user.token });
      expectError(long, 414, /longer than 100 characters/);
      expect(badUrl.headers.get('x-content-type-options')).toBe('nosniff');
      // Raised by Node's HTTP parser, before Fastify sees the request.
      const huge = await http(t.baseUrl, 'GET', '/api/whoami-v2', { headers: { 'x-padding': 'a'.repeat(20_000) } });
      expectError(huge, 431, /headers are too large/);
    });

    it('sends nosniff, no-store and a frame policy everywhere, WWW-Authenticate on 401, a CSP on /docs', async () => {
      const t = target();
      const user = await makeUser(t, 'read', 'hdr');
      const ok = await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
      const unauthorized = await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: fakeToken() });
      const missing = await http(t.baseUrl, 'GET', '/api/whoami-v2');
      const notFound = await http(t.baseUrl, 'GET', '/no/such/route');
      for (const r of [ok, unauthorized, missing, notFound]) {
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
        expect(r.headers.get('x-frame-options')).toBe('DENY');
        expect(r.headers.get('x-request-id')).toBeTruthy();
      }
      expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const token = await http<{ token: string }>(t.baseUrl, 'POST', `/admin/users/${user.name}/tokens`, {
        token: t.adminToken,
        body: { role: 'read' },
      });
      expect(token.body.token).toMatch(/^hf_/);
      expect(token.headers.get('cache-control')).toBe('no-store');
      const docs = await http<string>(t.baseUrl, 'GET', '/docs');
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(docs.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    });

    it('does not serve /metrics publicly on the API port', async () => {
      const t = target();
      for (const g of t.gateways) {
        const res = await http<string>(g, 'GET', '/metrics');
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain('hub_http_requests_total');
      }
    });
  });
}
