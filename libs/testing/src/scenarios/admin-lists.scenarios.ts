import { http, type HttpAnswer } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser, type TestUser, uniqueName } from '../hub-factory';
import { consoleSignIn, withCookie } from './console-helpers';
import { managedName, scim, USER_SCHEMA } from './scim-helpers';

interface UserRow {
  name: string;
  email: string;
  createdAt: string;
  managedByOrganizationId: string | null;
}
interface TokenRow {
  id: string;
  displayName: string;
  role: string;
  last4: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
interface OrgRow {
  name: string;
  plan: string;
  memberCount: number;
}

/** The path and query of a `Link: <url>; rel="next"` header, to follow it on the same hub. */
function nextOf(res: HttpAnswer<unknown>): string | undefined {
  const m = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '');
  if (!m?.[1]) return undefined;
  const url = new URL(m[1]);
  return `${url.pathname}${url.search}`;
}

/** Every page of a list, following Link headers: the pages' sizes and all their rows. */
async function allPages<T>(t: HubTarget, first: string): Promise<{ sizes: number[]; rows: T[] }> {
  const sizes: number[] = [];
  const rows: T[] = [];
  let path: string | undefined = first;
  while (path) {
    const res: HttpAnswer<T[]> = await http<T[]>(t.baseUrl, 'GET', path, { token: t.adminToken });
    expect(res.status).toBe(200);
    sizes.push(res.body.length);
    rows.push(...res.body);
    path = nextOf(res);
  }
  return { sizes, rows };
}

const expectError = (res: HttpAnswer<unknown>, status: number, message: RegExp): void =>
  expect({ status: res.status, error: (res.body as { error?: string }).error }).toEqual({
    status,
    error: expect.stringMatching(message),
  });

/** The admin API's lists (users, a user's tokens, organizations) that the console's Operator screen shows. */
export function adminListsScenarios(target: () => HubTarget): void {
  describe('admin API: lists of users, tokens and organizations', () => {
    let t: HubTarget;
    let user: TestUser;

    beforeAll(async () => {
      t = target();
      user = await makeUser(t, 'write', 'lister');
    });

    it('lists users by name, pages them by Link headers and filters by name, e-mail or full name', async () => {
      const prefix = uniqueName('lst');
      for (const n of ['c', 'a', 'b'])
        expect(
          (
            await http(t.baseUrl, 'POST', '/admin/users', {
              token: t.adminToken,
              body: {
                name: `${prefix}-${n}`,
                email: `${prefix}-${n}@Example.com`,
                fullname: `Person ${n.toUpperCase()}`,
              },
            })
          ).status,
        ).toBe(201);
      const paged = await allPages<UserRow>(t, `/admin/users?search=${prefix.toUpperCase()}&limit=2`);
      expect(paged.sizes).toEqual([2, 1]);
      expect(paged.rows.map((u) => u.name)).toEqual([`${prefix}-a`, `${prefix}-b`, `${prefix}-c`]);
      expect(paged.rows[0]).toMatchObject({ email: `${prefix}-a@Example.com`, managedByOrganizationId: null });
      // By e-mail, any case.
      const byMail = await http<UserRow[]>(t.baseUrl, 'GET', `/admin/users?search=${prefix}-B@EXAMPLE`, {
        token: t.adminToken,
      });
      expect(byMail.body.map((u) => u.name)).toEqual([`${prefix}-b`]);
      // Without a filter every user is there, the first page at most the default 50.
      const first = await http<UserRow[]>(t.baseUrl, 'GET', '/admin/users', { token: t.adminToken });
      expect(first.status).toBe(200);
      expect(first.body.length).toBeGreaterThan(0);
      expect(first.body.length).toBeLessThanOrEqual(50);
      const names = first.body.map((u) => u.name);
      expect([...names].sort()).toEqual(names.slice().sort());
      expect(
        (await http<UserRow[]>(t.baseUrl, 'GET', `/admin/users?search=${prefix}-zzz`, { token: t.adminToken })).body,
      ).toEqual([]);
    });

    it('says which organization manages an account its SCIM made', async () => {
      const owner = await makeUser(t, 'write', 'scim-owner');
      const org = await makeOrg(t, 'enterprise_plus', [owner.name], 'lists');
      const userName = uniqueName('ada');
      const made = await scim(t, owner.token, 'POST', org.name, '/Users', {
        schemas: [USER_SCHEMA],
        userName,
        emails: [{ value: `${userName}@corp.example`, primary: true }],
      });
      expect(made.status).toBe(201);
      const hubName = managedName(userName, org.name);
      const listed = await http<UserRow[]>(t.baseUrl, 'GET', `/admin/users?search=${hubName}`, { token: t.adminToken });
      expect(listed.body).toEqual([expect.objectContaining({ name: hubName, managedByOrganizationId: org.id })]);
    });

    it("lists a user's tokens newest first with role, dates and revocation, never a value or a hash", async () => {
      const owner = await makeUser(t, 'write', 'tokens');
      const read = await makeToken(t, owner.name, 'read');
      const named = await http<{ token: string; id: string }>(t.baseUrl, 'POST', `/admin/users/${owner.name}/tokens`, {
        token: t.adminToken,
        body: { role: 'write', displayName: 'CI deploy' },
      });
      // Used once (last used is set), and one revoked as leaked.
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: owner.token })).status).toBe(200);
      expect(
        (await http(t.baseUrl, 'POST', '/api/credentials/revoke', { body: { credentials: [read.token] } })).status,
      ).toBe(202);

      const paged = await allPages<TokenRow>(t, `/admin/users/${owner.name}/tokens?limit=2`);
      expect(paged.sizes).toEqual([2, 1]);
      expect(paged.rows.map((r) => r.id)).toEqual([named.body.id, read.id, owner.tokenId]);
      const [ci, leaked, first] = paged.rows;
      expect(ci).toMatchObject({ displayName: 'CI deploy', role: 'write', revokedAt: null, lastUsedAt: null });
      expect(ci?.last4).toBe(named.body.token.slice(-4));
      expect(leaked).toMatchObject({ role: 'read', revokedAt: expect.any(String) });
      expect(first).toMatchObject({ role: 'write', revokedAt: null, lastUsedAt: expect.any(String) });
      const text = JSON.stringify(paged.rows);
      for (const raw of [owner.token, read.token, named.body.token]) expect(text).not.toContain(raw.slice(3, -4));
      expect(text).not.toMatch(/[0-9a-f]{64}/);
      for (const row of paged.rows) expect(Object.keys(row)).not.toContain('token');

      const search = await http<TokenRow[]>(t.baseUrl, 'GET', `/admin/users/${owner.name}/tokens?search=ci%20DEP`, {
        token: t.adminToken,
      });
      expect(search.body.map((r) => r.id)).toEqual([named.body.id]);
      expectError(
        await http(t.baseUrl, 'GET', `/admin/users/${uniqueName('nobody')}/tokens`, { token: t.adminToken }),
        404,
        /not found/,
      );
    });

    it('lists organizations by name with their member counts, paged and filtered', async () => {
      const prefix = uniqueName('orgs');
      const [a, b] = await Promise.all([makeUser(t), makeUser(t)]);
      for (const n of ['y', 'x'])
        expect(
          (
            await http(t.baseUrl, 'POST', '/admin/organizations', {
              token: t.adminToken,
              body: { name: `${prefix}-${n}`, plan: 'team', admins: [a.name] },
            })
          ).status,
        ).toBe(201);
      await addMember(t, `${prefix}-x`, b.name, 'read');
      const paged = await allPages<OrgRow>(t, `/admin/organizations?search=${prefix}&limit=1`);
      expect(paged.sizes).toEqual([1, 1]);
      expect(paged.rows).toEqual([
        expect.objectContaining({ name: `${prefix}-x`, plan: 'team', memberCount: 2 }),
        expect.objectContaining({ name: `${prefix}-y`, plan: 'team', memberCount: 1 }),
      ]);
    });

    it('answers 403 to a user token or a user session, 401 to no token, and names a bad paging parameter (400)', async () => {
      const lists = ['/admin/users', `/admin/users/${user.name}/tokens`, '/admin/organizations'];
      const session = await consoleSignIn(t.baseUrl, user.token);
      for (const path of lists) {
        expectError(await http(t.baseUrl, 'GET', path, { token: user.token }), 403, /admin token/);
        expect((await withCookie(t.baseUrl, 'GET', path, session)).status).toBe(403);
        expectError(await http(t.baseUrl, 'GET', path), 401, /admin Bearer token/);
        expectError(await http(t.baseUrl, 'GET', path, { token: 'not-the-admin-token' }), 401, /Invalid admin token/);
        for (const [query, message] of [
          ['limit=0', /limit must be at least 1/],
          ['limit=101', /limit must be at most 100/],
          ['limit=ten', /limit must be an integer/],
          ['limit=1.5', /limit must be an integer/],
          ['cursor=%2F..%2F', /cursor must be the one given in the Link header/],
          [`search=${'x'.repeat(101)}`, /search must be 1\.\.100 characters/],
        ] as const)
          expectError(await http(t.baseUrl, 'GET', `${path}?${query}`, { token: t.adminToken }), 400, message);
      }
      // A token list's cursor is a token id.
      expectError(
        await http(t.baseUrl, 'GET', `/admin/users/${user.name}/tokens?cursor=${user.name}`, { token: t.adminToken }),
        400,
        /cursor must be the one given/,
      );
      // The user's token still works where it belongs: the 403 cost it nothing.
      expect((await http(t.baseUrl, 'GET', '/api/whoami-v2', { token: user.token })).status).toBe(200);
    });
  });
}
