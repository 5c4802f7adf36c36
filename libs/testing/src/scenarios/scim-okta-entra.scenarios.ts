import { http } from '../http-client';
import { type HubTarget, makeOrg, makeToken, makeUser, type TestUser, uniqueName } from '../hub-factory';
import {
  expectScimError,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  managedName,
  patchOp,
  scim,
  type ScimGroup,
  type ScimList,
  type ScimUser,
  USER_SCHEMA,
} from './scim-helpers';

interface Whoami {
  name: string;
  orgs?: { name: string }[];
}

/**
 * SCIM at Okta's and Entra ID's default settings (issue 26, decision 0421): userName is the
 * e-mail / UPN, the hub account is a new one managed by the organization, an existing hub user is
 * never adopted by a matching name, e-mails may repeat, ETags hold (RFC 7644 3.14).
 */
export function scimOktaEntraScenarios(target: () => HubTarget): void {
  describe('SCIM at Okta and Entra ID defaults', () => {
    let t: HubTarget;
    let owner: TestUser;
    let org: { name: string };
    const call = <T = Record<string, unknown>>(
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): ReturnType<typeof scim<T>> => scim<T>(t, owner.token, method, org.name, path, body, headers);
    const whoami = async (token: string): Promise<Whoami> =>
      (await http<Whoami>(t.baseUrl, 'GET', '/api/whoami-v2', { token })).body;
    const orgsOf = async (token: string): Promise<string[]> => (await whoami(token)).orgs?.map((o) => o.name) ?? [];
    const byUserName = (name: string): ReturnType<typeof call<ScimList<ScimUser>>> =>
      call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}`);
    /** Okta's create at its default mapping (userName = the login, an e-mail address). */
    const oktaCreate = (email: string, extra: Record<string, unknown> = {}): ReturnType<typeof call<ScimUser>> =>
      call<ScimUser>('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ primary: true, value: email, type: 'work' }],
        displayName: 'Ada Lovelace',
        locale: 'en-US',
        externalId: uniqueName('00u'),
        groups: [],
        password: 'xX-1!',
        active: true,
        ...extra,
      });

    beforeAll(async () => {
      t = target();
      owner = await makeUser(t);
      org = await makeOrg(t, 'enterprise_plus', [owner.name]);
    });

    it('never adopts an existing hub user: a userName that is her name or her e-mail makes a new managed account', async () => {
      const victim = await makeUser(t);
      for (const userName of [victim.name, `${victim.name}@example.com`]) {
        const res = await call<ScimUser>('POST', '/Users', {
          schemas: [USER_SCHEMA],
          userName,
          emails: [{ value: `${victim.name}@example.com`, primary: true }],
        });
        expect(res.status).toBe(201);
      }
      // The victim's whoami shows no new organization; the organization's members do not include her.
      expect(await orgsOf(victim.token)).toEqual([]);
      const members = await http<{ user: string }[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, {
        token: owner.token,
      });
      expect(members.body.map((m) => m.user)).not.toContain(victim.name);
      expect(members.body.map((m) => m.user)).toEqual(
        expect.arrayContaining([managedName(victim.name, org.name), `${victim.name.toLowerCase()}-2_${org.name}`]),
      );
      // The accounts made are new ones, managed by this organization.
      const made = await makeToken(t, managedName(victim.name, org.name));
      expect(await whoami(made.token)).toMatchObject({
        name: managedName(victim.name, org.name),
        orgs: [{ name: org.name }],
      });
    });

    it('links an existing hub user only by the operator (admin API), never by SCIM or the org owner', async () => {
      const person = await makeUser(t);
      const link = (token: string, body: Record<string, unknown>): ReturnType<typeof http> =>
        http(t.baseUrl, 'POST', `/admin/organizations/${org.name}/scim/users`, { token, body });
      const upn = `${person.name}@corp.example`;
      expect((await link(owner.token, { user: person.name, userName: upn })).status).toBe(403);
      expect(await orgsOf(person.token)).toEqual([]);
      const linked = await link(t.adminToken, { user: person.name, userName: upn, externalId: 'aad-1' });
      expect(linked.status).toBe(201);
      expect(linked.body).toMatchObject({ userName: upn, externalId: 'aad-1', active: true });
      expect(await orgsOf(person.token)).toEqual([org.name]);
      // The identity provider finds it by userName and manages it from now on; its hub name is its own.
      const found = await byUserName(upn);
      expect(found.body.Resources.map((r) => r.userName)).toEqual([upn]);
      expect(
        (
          await call<ScimUser>(
            'PATCH',
            `/Users/${found.body.Resources[0]?.id ?? ''}`,
            patchOp({ op: 'Replace', path: 'active', value: 'False' }),
          )
        ).body.active,
      ).toBe(false);
      expect(await orgsOf(person.token)).toEqual([]);
      expect((await link(t.adminToken, { user: person.name, userName: `other-${upn}` })).status).toBe(409);
      expect((await link(t.adminToken, { user: uniqueName('nobody'), userName: 'x@y.z' })).status).toBe(404);
    });

    it('Okta SPEC test at its defaults: e-mail userName, lookup, create, duplicate 409, get, PATCH active, PUT', async () => {
      const email = `${uniqueName('Okta.User')}@Example.com`;
      expect((await byUserName(email)).body).toEqual({
        schemas: [LIST_RESPONSE],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });
      const created = await oktaCreate(email);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userName: email, active: true, emails: [{ value: email, primary: true }] });
      expect((await byUserName(email.toLowerCase())).body.Resources.map((r) => r.id)).toEqual([created.body.id]);
      expectScimError(await oktaCreate(email.toUpperCase()), 409, 'uniqueness');
      // The hub name is the part before "@", lower case, "_" and the organization.
      const hubName = managedName(email, org.name);
      const { token } = await makeToken(t, hubName);
      expect(await orgsOf(token)).toEqual([org.name]);

      const off = await call<ScimUser>(
        'PATCH',
        `/Users/${created.body.id}`,
        patchOp({ op: 'replace', value: { active: false } }),
      );
      expect(off.body.active).toBe(false);
      expect(await orgsOf(token)).toEqual([]);
      const put = await call<ScimUser>('PUT', `/Users/${created.body.id}`, {
        ...created.body,
        active: true,
        name: { givenName: 'Augusta', familyName: 'King' },
      });
      expect(put.body).toMatchObject({ active: true, name: { givenName: 'Augusta', familyName: 'King' } });
      expect(await orgsOf(token)).toEqual([org.name]);
    });

    it('Entra ID at its defaults: UPN userName, then a rename by PATCH Replace userName keeps the hub account', async () => {
      const upn = `${uniqueName('adele.vance')}@contoso.onmicrosoft.com`;
      expect((await byUserName(upn)).body.totalResults).toBe(0);
      const created = await call<ScimUser>('POST', '/Users', {
        schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: uniqueName('aad'),
        userName: upn,
        active: true,
        displayName: 'Adele Vance',
        emails: [{ primary: true, type: 'work', value: upn }],
        meta: { resourceType: 'User' },
        name: { formatted: 'Adele Vance', familyName: 'Vance', givenName: 'Adele' },
        roles: [],
      });
      expect(created.status).toBe(201);
      const { token } = await makeToken(t, managedName(upn, org.name));
      const newUpn = `${uniqueName('adele.king')}@contoso.com`;
      const renamed = await call<ScimUser>(
        'PATCH',
        `/Users/${created.body.id}`,
        patchOp({ op: 'Replace', path: 'userName', value: newUpn }),
      );
      expect(renamed.status).toBe(200);
      expect(renamed.body.userName).toBe(newUpn);
      expect((await byUserName(newUpn)).body.Resources.map((r) => r.id)).toEqual([created.body.id]);
      expect((await byUserName(upn)).body.totalResults).toBe(0);
      // Same hub account, same name, still a member.
      expect(await whoami(token)).toMatchObject({ name: managedName(upn, org.name), orgs: [{ name: org.name }] });
      expect(
        (
          await call<ScimUser>(
            'PATCH',
            `/Users/${created.body.id}`,
            patchOp({ op: 'Replace', path: 'active', value: 'False' }),
          )
        ).body.active,
      ).toBe(false);
      // A rename onto another provisioned userName is a uniqueness conflict.
      const other = await call<ScimUser>('POST', '/Users', { userName: `${uniqueName('x')}@contoso.com` });
      expectScimError(
        await call(
          'PATCH',
          `/Users/${other.body.id}`,
          patchOp({ op: 'Replace', path: 'userName', value: newUpn.toUpperCase() }),
        ),
        409,
        'uniqueness',
      );
    });

    it('e-mail addresses do not block provisioning: shared across organizations, within one, and with hub users', async () => {
      const shared = `${uniqueName('shared')}@corp.example`;
      await http(t.baseUrl, 'POST', '/admin/users', {
        token: t.adminToken,
        body: { name: uniqueName('plain'), email: shared },
      });
      const other = await makeOrg(t, 'enterprise_plus', [owner.name]);
      const body = (userName: string): Record<string, unknown> => ({
        userName,
        emails: [{ value: shared, primary: true }],
      });
      expect((await call('POST', '/Users', body(uniqueName('one')))).status).toBe(201);
      expect((await call('POST', '/Users', body(uniqueName('two')))).status).toBe(201);
      expect((await scim(t, owner.token, 'POST', other.name, '/Users', body(shared))).status).toBe(201);
      // The hub's own accounts keep unique e-mails.
      expect(
        (
          await http(t.baseUrl, 'POST', '/admin/users', {
            token: t.adminToken,
            body: { name: uniqueName('plain'), email: shared },
          })
        ).status,
      ).toBe(409);
    });

    it('ETags (RFC 7644 3.14): If-None-Match gives 304, a stale If-Match gives 412 and changes nothing', async () => {
      const u = (await call<ScimUser>('POST', '/Users', { userName: `${uniqueName('etag')}@corp.example` })).body;
      const current = u.meta.version;
      const fresh = await call('GET', `/Users/${u.id}`, undefined, { 'if-none-match': current });
      expect(fresh.status).toBe(304);
      expect(fresh.headers.get('etag')).toBe(current);
      expect((await call('GET', `/Users/${u.id}`, undefined, { 'if-none-match': 'W/"999"' })).status).toBe(200);

      const stale = 'W/"999"';
      expectScimError(
        await call('PATCH', `/Users/${u.id}`, patchOp({ op: 'replace', path: 'active', value: false }), {
          'if-match': stale,
        }),
        412,
      );
      expectScimError(
        await call('PUT', `/Users/${u.id}`, { userName: 'changed@corp.example' }, { 'if-match': stale }),
        412,
      );
      expectScimError(await call('DELETE', `/Users/${u.id}`, undefined, { 'if-match': stale }), 412);
      expect((await call<ScimUser>('GET', `/Users/${u.id}`)).body).toMatchObject({
        userName: u.userName,
        active: true,
        meta: { version: current },
      });
      const ok = await call<ScimUser>(
        'PATCH',
        `/Users/${u.id}`,
        patchOp({ op: 'replace', path: 'active', value: false }),
        { 'if-match': current },
      );
      expect(ok.body).toMatchObject({ active: false, meta: { version: 'W/"2"' } });

      const g = (
        await call<ScimGroup>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: uniqueName('etag-g') })
      ).body;
      expect((await call('GET', `/Groups/${g.id}`, undefined, { 'if-none-match': g.meta.version })).status).toBe(304);
      expectScimError(
        await call('PATCH', `/Groups/${g.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'x' }), {
          'if-match': stale,
        }),
        412,
      );
      expect((await call<ScimGroup>('GET', `/Groups/${g.id}`)).body.displayName).toBe(g.displayName);
    });

    it('filters with the whole RFC 7644 grammar and sorts (sortBy, sortOrder)', async () => {
      const tag = uniqueName('flt');
      const made: ScimUser[] = [];
      for (const [local, given, active] of [
        ['carol', 'Carol', true],
        ['alice', 'Alice', false],
        ['bob', 'Bob', true],
      ] as const) {
        made.push(
          (
            await call<ScimUser>('POST', '/Users', {
              userName: `${local}.${tag}@corp.example`,
              name: { givenName: given, familyName: tag },
              active,
              emails: [
                { value: `${local}.${tag}@corp.example`, primary: true, type: 'work' },
                { value: `${local}.${tag}@home.example`, type: 'home' },
              ],
            })
          ).body,
        );
      }
      const ids = async (filter: string, extra = ''): Promise<string[]> => {
        const res = await call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent(filter)}${extra}`);
        expect(res.status).toBe(200);
        return res.body.Resources.map((r) => r.userName.split('.')[0] ?? '');
      };
      const mine = `name.familyName eq "${tag}"`;
      expect(await ids(`${mine} and userName sw "A"`)).toEqual(['alice']);
      expect(await ids(`${mine} and (userName sw "alice" or userName sw "bob")`, '&sortBy=userName')).toEqual([
        'alice',
        'bob',
      ]);
      expect(await ids(`${mine} and not (active eq true)`)).toEqual(['alice']);
      expect(await ids(`${mine} and userName co "ROL"`)).toEqual(['carol']);
      expect(
        await ids(
          `${mine} and emails[type eq "work" and value ew "@corp.example"]`,
          '&sortBy=userName&sortOrder=descending',
        ),
      ).toEqual(['carol', 'bob', 'alice']);
      expect(await ids(`${mine} and emails.value eq "bob.${tag}@home.example"`)).toEqual(['bob']);
      expect(await ids(`${mine} and externalId pr`)).toEqual([]);
      expect(await ids(`${mine} and meta.created ge "2000-01-01T00:00:00Z"`, '&sortBy=name.givenName')).toEqual([
        'alice',
        'bob',
        'carol',
      ]);
      expectScimError(await call('GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`), 400, 'invalidFilter');
      expectScimError(await call('GET', `/Users?filter=${encodeURIComponent('active gt true')}`), 400, 'invalidFilter');
      expectScimError(await call('GET', '/Users?sortBy=emails'), 400, 'invalidFilter');
      expectScimError(await call('GET', '/Users?sortBy=userName&sortOrder=sideways'), 400, 'invalidValue');
      const g = (
        await call<ScimGroup>('POST', '/Groups', {
          displayName: uniqueName('flt-g'),
          members: [{ value: made[2]?.id }],
        })
      ).body;
      const groups = await call<ScimList<ScimGroup>>(
        'GET',
        `/Groups?filter=${encodeURIComponent(`members[value eq "${made[2]?.id ?? ''}"] and displayName sw "flt-g"`)}`,
      );
      expect(groups.body.Resources.map((r) => r.id)).toEqual([g.id]);
    });

    it('/Schemas and /ServiceProviderConfig say what is kept, filterable, sortable and mutable', async () => {
      const config = await call('GET', '/ServiceProviderConfig');
      expect(config.body).toMatchObject({
        filter: { supported: true },
        sort: { supported: true },
        etag: { supported: true },
        bulk: { supported: false },
      });
      type Attr = { name: string; mutability: string; description: string; subAttributes?: Attr[] };
      const user = (await call<{ description: string; attributes: Attr[] }>('GET', `/Schemas/${USER_SCHEMA}`)).body;
      for (const dropped of ['displayName', 'title', 'phoneNumbers', 'addresses', 'name.formatted', 'emails.type'])
        expect(user.description).toContain(dropped);
      const userName = user.attributes.find((a) => a.name === 'userName');
      expect(userName).toMatchObject({
        mutability: 'readWrite',
        uniqueness: 'server',
        description: expect.stringMatching(/filterable/),
      });
      expect(user.attributes.find((a) => a.name === 'emails')?.description).toMatch(/not sortable/);
    });

    it('/Me answers 501 as RFC 7644 3.11 asks; a trailing slash finds the same resource', async () => {
      expectScimError(await call('GET', '/Me'), 501);
      expectScimError(await call('PATCH', '/Me', patchOp({ op: 'replace', path: 'active', value: false })), 501);
      const u = (await call<ScimUser>('POST', '/Users/', { userName: `${uniqueName('slash')}@corp.example` })).body;
      expect((await call<ScimList<ScimUser>>('GET', '/Users/')).body.Resources.map((r) => r.id)).toContain(u.id);
      expect((await call<ScimUser>('GET', `/Users/${u.id}/`)).body.id).toBe(u.id);
      expect((await call('GET', '/Groups/')).status).toBe(200);
      expect((await call('GET', '/ServiceProviderConfig/')).status).toBe(200);
      expect((await call('DELETE', `/Users/${u.id}/`)).status).toBe(204);
    });
  });
}
