import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser, type TestUser, uniqueName } from '../hub-factory';
import {
  expectScimError,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  scim,
  type ScimGroup,
  type ScimList,
  type ScimUser,
  USER_SCHEMA,
} from './scim-helpers';

/** Every SCIM endpoint (RFC 7644) of an Enterprise Plus organization, its gates and its error shape, through the gateway. */
export function scimScenarios(target: () => HubTarget): void {
  describe('SCIM endpoints', () => {
    let t: HubTarget;
    let owner: TestUser;
    let member: TestUser;
    let org: { name: string };
    const call = <T = Record<string, unknown>>(
      method: string,
      path: string,
      body?: unknown,
      token = owner.token,
    ): ReturnType<typeof scim<T>> => scim<T>(t, token, method, org.name, path, body);
    const newUser = (userName = uniqueName('scim')): Record<string, unknown> => ({
      schemas: [USER_SCHEMA],
      userName,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: `${userName}@corp.example`, primary: true }],
    });

    beforeAll(async () => {
      t = target();
      owner = await makeUser(t);
      member = await makeUser(t);
      org = await makeOrg(t, 'enterprise_plus', [owner.name]);
      await addMember(t, org.name, member.name, 'write');
    });

    it('answers the discovery endpoints (ServiceProviderConfig, ResourceTypes, Schemas) as application/scim+json', async () => {
      const config = await call('GET', '/ServiceProviderConfig');
      expect(config.status).toBe(200);
      expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(config.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 200 },
        bulk: { supported: false },
        etag: { supported: true },
      });
      const types = await call<ScimList<{ id: string; endpoint: string }>>('GET', '/ResourceTypes');
      expect(types.body.Resources.map((r) => [r.id, r.endpoint])).toEqual([
        ['User', '/Users'],
        ['Group', '/Groups'],
      ]);
      expect((await call('GET', '/ResourceTypes/User')).body).toMatchObject({ id: 'User', schema: USER_SCHEMA });
      const schemas = await call<
        ScimList<{ id: string; attributes: { name: string; subAttributes?: { name: string }[] }[] }>
      >('GET', '/Schemas');
      const user = schemas.body.Resources.find((s) => s.id === USER_SCHEMA);
      // Spec 5.7: exactly these attributes (id and externalId are common attributes of every resource).
      expect(user?.attributes.map((a) => a.name)).toEqual(['userName', 'name', 'emails', 'active']);
      expect(user?.attributes[1]?.subAttributes?.map((a) => a.name)).toEqual(['givenName', 'familyName']);
      expect((await call('GET', `/Schemas/${GROUP_SCHEMA}`)).body).toMatchObject({ id: GROUP_SCHEMA });
      expectScimError(await call('GET', '/Schemas/urn:nope'), 404);
    });

    it('is for owners with a write token on Enterprise Plus: everyone else gets a SCIM 401/403/404', async () => {
      const outsider = await makeUser(t);
      const read = await makeToken(t, owner.name, 'read');
      expectScimError(await call('GET', '/Users', undefined, member.token), 403);
      expectScimError(await call('GET', '/Users', undefined, outsider.token), 403);
      expectScimError(await call('GET', '/Users', undefined, read.token), 403);
      expectScimError(await call('POST', '/Users', newUser(), read.token), 403);
      const bad = await call('GET', '/Users', undefined, `hf_${'x'.repeat(34)}`);
      expectScimError(bad, 401);
      expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const none = await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/scim/v2/Users`);
      expectScimError(none, 401);
      const enterprise = await makeOrg(t, 'enterprise', [owner.name]);
      const gated = await scim(t, owner.token, 'GET', enterprise.name, '/Users');
      expectScimError(gated, 403);
      expect((gated.body as { detail: string }).detail).toMatch(/Enterprise Plus/);
      expectScimError(await scim(t, owner.token, 'GET', uniqueName('no-such-org'), '/Users'), 404);
      // Everything else of the organization keeps the hub's own error shape.
      expect(
        (await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token: outsider.token })).body,
      ).toEqual({ error: expect.any(String) });
    });

    it('creates, reads, pages, filters, replaces and deletes users', async () => {
      const body = newUser();
      const created = await call<ScimUser>('POST', '/Users', { ...body, externalId: 'ext-Ada-1' });
      expect(created.status).toBe(201);
      const u = created.body;
      expect(u).toEqual({
        schemas: [USER_SCHEMA],
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        externalId: 'ext-Ada-1',
        userName: body['userName'],
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: `${String(body['userName'])}@corp.example`, primary: true }],
        active: true,
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: expect.stringMatching(new RegExp(`/api/organizations/${org.name}/scim/v2/Users/${u.id}$`)),
          version: 'W/"1"',
        },
      });
      expect(created.headers.get('location')).toBe(u.meta.location);
      expect(created.headers.get('etag')).toBe('W/"1"');
      expect((await call<ScimUser>('GET', `/Users/${u.id}`)).body).toEqual(u);
      expect((await call('GET', `/Users/${u.id}?attributes=userName`)).body).toEqual({
        schemas: [USER_SCHEMA],
        id: u.id,
        userName: u.userName,
      });
      expect(Object.keys((await call('GET', `/Users/${u.id}?excludedAttributes=emails,name`)).body)).not.toContain(
        'emails',
      );

      for (let i = 0; i < 2; i++) expect((await call('POST', '/Users', newUser())).status).toBe(201);
      const page = await call<ScimList<ScimUser>>('GET', '/Users?startIndex=2&count=2');
      expect(page.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 3, startIndex: 2, itemsPerPage: 2 });
      const all = await call<ScimList<ScimUser>>('GET', '/Users');
      expect(page.body.Resources.map((r) => r.id)).toEqual(all.body.Resources.slice(1).map((r) => r.id));
      expect(
        (await call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent('externalId eq "ext-Ada-1"')}`)).body
          .totalResults,
      ).toBe(1);
      // externalId is exact; userName is not.
      expect(
        (await call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent('externalId eq "EXT-ADA-1"')}`))
          .body,
      ).toMatchObject({ totalResults: 0, Resources: [] });
      const both = `UserName eq "${u.userName.toUpperCase()}" and externalId eq "ext-Ada-1"`;
      expect(
        (await call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent(both)}`)).body.Resources.map(
          (r) => r.id,
        ),
      ).toEqual([u.id]);

      const replaced = await call<ScimUser>('PUT', `/Users/${u.id}`, {
        ...body,
        userName: u.userName.toUpperCase(),
        name: { givenName: 'Augusta' },
        nickName: 'ignored',
        title: 'x',
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ name: { givenName: 'Augusta' }, meta: { version: 'W/"2"' } });
      expect(replaced.body).not.toHaveProperty('nickName');
      // Decision 0421: the identity provider may rename; the hub account stays the same.
      const renamed = await call<ScimUser>('PUT', `/Users/${u.id}`, {
        ...body,
        userName: `renamed.${u.userName}@corp.example`,
      });
      expect(renamed.body).toMatchObject({
        id: u.id,
        userName: `renamed.${u.userName}@corp.example`,
        meta: { version: 'W/"3"' },
      });

      expect((await call('DELETE', `/Users/${u.id}`)).status).toBe(204);
      expectScimError(await call('GET', `/Users/${u.id}`), 404);
      expectScimError(await call('GET', '/Users/not-an-id'), 404);
      expectScimError(await call('DELETE', `/Users/${u.id}`), 404);
    });

    it('refuses bad input with SCIM errors naming the problem', async () => {
      const taken = newUser();
      expect((await call('POST', '/Users', taken)).status).toBe(201);
      expectScimError(
        await call('POST', '/Users', { ...taken, userName: String(taken['userName']).toUpperCase() }),
        409,
        'uniqueness',
      );
      expectScimError(
        await call('POST', '/Users', { ...newUser(), userName: 'ada\u0000@corp.example' }),
        400,
        'invalidValue',
      );
      expectScimError(await call('POST', '/Users', { ...newUser(), userName: 'a'.repeat(257) }), 400, 'invalidValue');
      expectScimError(await call('POST', '/Users', { schemas: [USER_SCHEMA] }), 400, 'invalidValue');
      expectScimError(await call('POST', '/Users', { ...newUser(), emails: [] }), 400, 'invalidValue');
      // An e-mail-shaped userName is its own address when emails is empty.
      expect(
        (await call('POST', '/Users', { ...newUser(), userName: `${uniqueName('mail')}@corp.example`, emails: [] }))
          .status,
      ).toBe(201);
      expectScimError(
        await call('GET', `/Users?filter=${encodeURIComponent('userName like "ada"')}`),
        400,
        'invalidFilter',
      );
      expectScimError(await call('GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`), 400, 'invalidFilter');
      expectScimError(
        await call('GET', `/Users?filter=${encodeURIComponent('userName eq "a" or')}`),
        400,
        'invalidFilter',
      );
      const raw = await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/scim/v2/Users`, {
        token: owner.token,
        rawBody: '{"userName": ',
        headers: { 'content-type': 'application/scim+json' },
      });
      expectScimError(raw, 400, 'invalidSyntax');
      const list = (await call<ScimList<ScimUser>>('GET', '/Users')).body.Resources;
      const id = list[0]?.id ?? '';
      expectScimError(
        await call('PATCH', `/Users/${id}`, { Operations: [{ op: 'move', path: 'active', value: false }] }),
        400,
        'invalidValue',
      );
      expectScimError(await call('PATCH', `/Users/${id}`, { Operations: [{ op: 'remove' }] }), 400, 'noTarget');
      expectScimError(
        await call('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }),
        400,
        'invalidValue',
      );
      expectScimError(
        await call('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }] }),
        400,
        'invalidPath',
      );
      // Plain application/json is taken too.
      const json = await http(t.baseUrl, 'POST', `/api/organizations/${org.name}/scim/v2/Users`, {
        token: owner.token,
        body: newUser(),
      });
      expect(json.status).toBe(201);
    });

    it('creates, reads, filters, replaces and deletes groups', async () => {
      const users = await Promise.all([1, 2].map(async () => (await call<ScimUser>('POST', '/Users', newUser())).body));
      const name = uniqueName('Engineering');
      const created = await call<ScimGroup>('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: name,
        externalId: 'g-1',
        members: [{ value: users[0]?.id }],
      });
      expect(created.status).toBe(201);
      const g = created.body;
      expect(g).toEqual({
        schemas: [GROUP_SCHEMA],
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        displayName: name,
        externalId: 'g-1',
        members: [{ value: users[0]?.id, display: users[0]?.userName, $ref: users[0]?.meta.location }],
        meta: {
          resourceType: 'Group',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: expect.stringContaining(`/Groups/${g.id}`),
          version: 'W/"1"',
        },
      });
      expect(created.headers.get('location')).toBe(g.meta.location);
      expect((await call('GET', `/Groups/${g.id}?excludedAttributes=members`)).body).not.toHaveProperty('members');
      const found = await call<ScimList<ScimGroup>>(
        'GET',
        `/Groups?filter=${encodeURIComponent(`displayName eq "${name.toUpperCase()}"`)}&excludedAttributes=members`,
      );
      expect(found.body.Resources.map((r) => [r.id, r.members])).toEqual([[g.id, undefined]]);
      expect(
        (
          await call<ScimList<ScimGroup>>(
            'GET',
            `/Groups?filter=${encodeURIComponent('displayName eq "nothing-like-it"')}`,
          )
        ).body,
      ).toMatchObject({ totalResults: 0, Resources: [] });
      const put = await call<ScimGroup>('PUT', `/Groups/${g.id}`, {
        displayName: `${name}-2`,
        members: [{ value: users[1]?.id }],
      });
      expect(put.body).toMatchObject({ displayName: `${name}-2`, members: [{ value: users[1]?.id }] });
      expectScimError(await call('POST', '/Groups', { displayName: `${name}-2` }), 409, 'uniqueness');
      expectScimError(
        await call('POST', '/Groups', {
          displayName: uniqueName('g'),
          members: [{ value: '0123456789abcdef01234567' }],
        }),
        400,
        'invalidValue',
      );
      expectScimError(
        await call('GET', `/Groups?filter=${encodeURIComponent('members.nickName eq "x"')}`),
        400,
        'invalidFilter',
      );
      expect((await call('DELETE', `/Groups/${g.id}`)).status).toBe(204);
      expectScimError(await call('GET', `/Groups/${g.id}`), 404);
    });
  });
}
