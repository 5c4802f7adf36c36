import { randomBytes } from 'node:crypto';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser } from '../hub-factory';
import { type SmtpCapture } from '../smtp-capture';

export interface CredentialsScenarioTarget extends HubTarget {
  smtp: SmtpCapture;
}

const fakeToken = (): string => `hf_${randomBytes(17).toString('hex').slice(0, 34)}`;

function expectError(res: { status: number; headers: Headers; body: unknown }, status: number, message?: RegExp): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: expect.any(String) } });
  expect(res.headers.get('x-error-message')).toBeTruthy();
  if (message) expect((res.body as { error: string }).error).toMatch(message);
}

/**
 * The credentials endpoints as a user meets them, run against any running hub: the all-in-one
 * process and the distributed gateway + services over NATS share this suite.
 */
export function credentialsScenarios(target: () => CredentialsScenarioTarget): void {
  describe('whoami', () => {
    it('answers the user, orgs and token for a valid token, with a request id', async () => {
      const t = target();
      const user = await makeUser(t);
      const org = await makeOrg(t, 'team', [user.name]);
      const res = await http<Record<string, unknown>>(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.body).toMatchObject({
        type: 'user',
        id: user.id,
        name: user.name,
        email: `${user.name}@example.com`,
        orgs: [{ type: 'org', id: org.id, name: org.name, roleInOrg: 'admin', plan: 'team' }],
        auth: {
          type: 'access_token',
          accessToken: { role: 'write', displayName: expect.any(String), createdAt: expect.any(String) },
        },
      });
    });

    it('shows an organization joined after an earlier whoami (no stale cache)', async () => {
      const t = target();
      const user = await makeUser(t);
      const first = await http<{ orgs: unknown[] }>(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
      expect(first.body.orgs).toEqual([]);
      const owner = await makeUser(t);
      const org = await makeOrg(t, 'free', [owner.name]);
      await addMember(t, org.name, user.name, 'contributor');
      const second = await http<{ orgs: unknown[] }>(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token });
      expect(second.body.orgs).toEqual([
        expect.objectContaining({ name: org.name, roleInOrg: 'contributor', plan: 'free' }),
      ]);
    });

    it('401s without a token or with an unknown one', async () => {
      const t = target();
      expectError(await http(t.baseUrl, 'GET', '/api/whoami-v2'), 401, /Bearer/);
      expectError(await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: fakeToken() }), 401);
    });
  });

  describe('POST /api/credentials/revoke', () => {
    it('revokes at once, mails the owner once, and a repeat changes nothing', async () => {
      const t = target();
      const user = await makeUser(t);
      const second = await makeToken(t, user.name);
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
      const before = t.smtp.mails.filter((m) => m.to.includes(`${user.name}@example.com`)).length;

      const res = await http(t.baseUrl, 'POST', '/api/credentials/revoke', {
        body: { credentials: [user.token, second.token, fakeToken()] },
      });
      expect(res.status).toBe(202);
      expectError(await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token }), 401);
      expectError(await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: second.token }), 401);

      const again = await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [user.token] } });
      expect(again.status).toBe(202);
      await t.smtp.waitFor(before + 1);
      await new Promise((r) => setTimeout(r, 1500));
      const mails = t.smtp.mails.filter((m) => m.to.includes(`${user.name}@example.com`));
      expect(mails).toHaveLength(before + 1);
      expect(mails[mails.length - 1]?.subject).toMatch(/revoked/);
      expect(mails[mails.length - 1]?.raw).not.toContain(user.token);
    });

    it('answers 202 for tokens that never existed, needing no authentication', async () => {
      const t = target();
      const res = await http(t.baseUrl, 'POST', '/api/credentials/revoke', {
        body: { credentials: [fakeToken(), 'not-even-a-token'] },
      });
      expect(res.status).toBe(202);
    });

    it('400s on 1,001 credentials, a 201-character one, none, or no list', async () => {
      const t = target();
      const many = Array.from({ length: 1001 }, fakeToken);
      expectError(
        await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: many } }),
        400,
        /credentials/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: ['x'.repeat(201)] } }),
        400,
        /200/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [] } }),
        400,
        /at least 1/,
      );
      expectError(await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: {} }), 400, /credentials/);
      expectError(
        await http(t.baseUrl, 'POST', '/api/credentials/revoke', {
          rawBody: '{oops',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        /JSON/,
      );
      expect(
        (await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: ['x'.repeat(200)] } })).status,
      ).toBe(202);
    });
  });

  describe('organization token revocation', () => {
    it("cuts a second admin's token off from the Enterprise org only", async () => {
      const t = target();
      const owner = await makeUser(t, 'write', 'owner');
      const second = await makeUser(t, 'write', 'admin2');
      const org = await makeOrg(t, 'enterprise', [owner.name, second.name]);
      expect(
        (await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token: second.token })).status,
      ).toBe(200);

      const res = await http<Record<string, unknown>>(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/revoke`,
        {
          token: owner.token,
          body: { token: second.token },
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tokenId: second.tokenId, organization: org.name });

      expectError(
        await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token: second.token }),
        403,
        /revoked by the organization/,
      );
      expectError(
        await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/settings/tokens/revoke`, {
          token: second.token,
          body: { token: owner.token },
        }),
        403,
        /revoked by the organization/,
      );
      const who = await http<{ name: string }>(t.baseUrl, 'GET', '/api/whoami-v2', { token: second.token });
      expect(who.status).toBe(200);
      expect(who.body.name).toBe(second.name);
    });

    it('revokes by token id too, and refuses your own token', async () => {
      const t = target();
      const owner = await makeUser(t, 'write', 'owner');
      const member = await makeUser(t, 'read', 'member');
      const org = await makeOrg(t, 'enterprise_plus', [owner.name]);
      await addMember(t, org.name, member.name, 'read');
      const res = await http(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/${member.tokenId}/revoke`,
        { token: owner.token },
      );
      expect(res.status).toBe(200);
      expectError(
        await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token: member.token }),
        403,
        /revoked/,
      );
      expectError(
        await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/settings/tokens/revoke`, {
          token: owner.token,
          body: { token: owner.token },
        }),
        403,
        /your own token/,
      );
    });

    it('403s a non-admin, a non-member and a non-Enterprise org; 404s an unknown org or token', async () => {
      const t = target();
      const owner = await makeUser(t, 'write', 'owner');
      const writer = await makeUser(t, 'write', 'writer');
      const stranger = await makeUser(t, 'write', 'stranger');
      const enterprise = await makeOrg(t, 'enterprise', [owner.name]);
      await addMember(t, enterprise.name, writer.name, 'write');
      const team = await makeOrg(t, 'team', [owner.name]);
      await addMember(t, team.name, writer.name, 'write');
      const path = (org: string): string => `/api/organizations/${org}/settings/tokens/revoke`;

      expectError(
        await http(t.baseUrl, 'POST', path(enterprise.name), { token: writer.token, body: { token: owner.token } }),
        403,
        /admin role/,
      );
      expectError(
        await http(t.baseUrl, 'POST', path(enterprise.name), { token: stranger.token, body: { token: writer.token } }),
        403,
        /not a member/,
      );
      expectError(
        await http(t.baseUrl, 'POST', path(team.name), { token: owner.token, body: { token: writer.token } }),
        403,
        /Enterprise plan/,
      );
      expectError(
        await http(t.baseUrl, 'POST', path('no-such-org-x1'), { token: owner.token, body: { token: writer.token } }),
        404,
      );
      expectError(
        await http(t.baseUrl, 'POST', path(enterprise.name), { token: owner.token, body: { token: fakeToken() } }),
        404,
      );
      expectError(
        await http(t.baseUrl, 'POST', path(enterprise.name), { token: owner.token, body: { token: stranger.token } }),
        404,
        /No member/,
      );
      expectError(
        await http(t.baseUrl, 'POST', path(enterprise.name), {
          token: owner.token,
          body: { token: 'ghp_wrongprefix' },
        }),
        400,
        /hf_/,
      );
      // The writer's token was never revoked anywhere.
      expect(
        (await http(t.baseUrl, 'GET', `/api/organizations/${team.name}/members`, { token: writer.token })).status,
      ).toBe(200);
    });
  });

  describe('token roles and the admin API', () => {
    it('a read token can read but not change anything', async () => {
      const t = target();
      const owner = await makeUser(t, 'read', 'reader');
      const other = await makeUser(t);
      const org = await makeOrg(t, 'enterprise', [owner.name]);
      await addMember(t, org.name, other.name, 'read');
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: owner.token })).status).toBe(200);
      expectError(
        await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/settings/tokens/revoke`, {
          token: owner.token,
          body: { token: other.token },
        }),
        403,
        /read role/,
      );
    });

    it('the admin API needs the admin token and names conflicts', async () => {
      const t = target();
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', { body: { name: 'x1', email: 'x1@example.com' } }),
        401,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: 'wrong-admin-token-value',
          body: { name: 'x1', email: 'x1@example.com' },
        }),
        401,
      );
      const user = await makeUser(t);
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name: user.name, email: 'a@example.com' },
        }),
        409,
        /already exists/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/users', {
          token: t.adminToken,
          body: { name: 'bad name!', email: 'nope' },
        }),
        400,
        /name/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/organizations', {
          token: t.adminToken,
          body: { name: 'o-x', plan: 'gold', admins: [user.name] },
        }),
        400,
        /plan/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/organizations', {
          token: t.adminToken,
          body: { name: 'o-y', plan: 'team', admins: ['ghost-user-1'] },
        }),
        404,
        /ghost-user-1/,
      );
      expectError(
        await http(t.baseUrl, 'POST', '/admin/repos', {
          token: t.adminToken,
          body: { name: 'no-slash', type: 'model', private: false, storage: 1 },
        }),
        400,
        /owner\/name/,
      );
    });
  });
}
