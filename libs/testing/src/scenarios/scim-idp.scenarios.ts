import { http } from '../http-client';
import { type HubTarget, makeOrg, makeToken, makeUser, type TestUser, uniqueName } from '../hub-factory';
import {
  expectScimError,
  GROUP_SCHEMA,
  managedName,
  patchOp,
  scim,
  type ScimGroup,
  type ScimList,
  type ScimUser,
  USER_SCHEMA,
} from './scim-helpers';
import { eventually } from '../eventually';

interface Whoami {
  orgs: { name: string }[];
}
interface Group {
  id: string;
  users: { _id: string; name: string; role: string }[];
}
interface AuditEvent {
  type: string;
  data?: Record<string, unknown>;
}

/**
 * SCIM as identity providers run it (Okta's and Entra ID's documented request sequences):
 * provisioning, suspension and restoration through PATCH forms they send, deprovisioning, and
 * groups that fill a resource group; each change in the audit log.
 */
export function scimIdentityProviderScenarios(target: () => HubTarget): void {
  describe('SCIM as an identity provider runs it', () => {
    let t: HubTarget;
    let owner: TestUser;
    let org: { name: string };
    const call = <T = Record<string, unknown>>(
      method: string,
      path: string,
      body?: unknown,
    ): ReturnType<typeof scim<T>> => scim<T>(t, owner.token, method, org.name, path, body);
    const orgsOf = async (token: string): Promise<string[]> =>
      (await http<Whoami>(t.baseUrl, 'GET', '/api/whoami-v2', { token })).body.orgs?.map((o) => o.name) ?? [];
    const byUserName = (name: string): ReturnType<typeof call<ScimList<ScimUser>>> =>
      call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent(`userName eq "${name}"`)}`);
    const provision = async (userName: string, extra: Record<string, unknown> = {}): Promise<ScimUser> => {
      const res = await call<ScimUser>('POST', '/Users', {
        schemas: [USER_SCHEMA],
        userName,
        name: { givenName: 'Grace', familyName: 'Hopper' },
        emails: [{ primary: true, value: `${userName}@corp.example`, type: 'work' }],
        displayName: 'Grace Hopper',
        locale: 'en-US',
        groups: [],
        ...extra,
      });
      expect(res.status).toBe(201);
      return res.body;
    };

    beforeAll(async () => {
      t = target();
      owner = await makeUser(t);
      org = await makeOrg(t, 'enterprise_plus', [owner.name]);
    });

    it('Okta: looks the user up in another case, creates it, suspends it with a PATCH without path, restores it, deletes it', async () => {
      const userName = uniqueName('Okta-User');
      expect((await byUserName(userName.toLowerCase())).body).toMatchObject({ totalResults: 0, Resources: [] });
      const user = await provision(userName, { active: true, password: 'never-stored-1!' });
      const found = await byUserName(userName.toUpperCase());
      expect(found.body.Resources.map((r) => r.id)).toEqual([user.id]);
      // The hub account exists now (managed by the organization, its name derived from userName) and is a member.
      const { token } = await makeToken(t, managedName(userName, org.name));
      expect(await orgsOf(token)).toEqual([org.name]);
      expect((await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token })).status).toBe(200);

      const suspended = await call<ScimUser>(
        'PATCH',
        `/Users/${user.id}`,
        patchOp({ op: 'replace', value: { active: 'False' } }),
      );
      expect(suspended.status).toBe(200);
      expect(suspended.body.active).toBe(false);
      expect(await orgsOf(token)).toEqual([]);
      expect((await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token })).status).toBe(403);
      const members = await http<{ user: string }[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, {
        token: owner.token,
      });
      expect(members.body.map((m) => m.user)).not.toContain(userName);
      // Still provisioned: the identity provider sees it, inactive.
      expect((await call<ScimUser>('GET', `/Users/${user.id}`)).body.active).toBe(false);

      const restored = await call<ScimUser>(
        'PATCH',
        `/Users/${user.id}`,
        patchOp({ op: 'Replace', path: 'active', value: true }),
      );
      expect(restored.body.active).toBe(true);
      expect(await orgsOf(token)).toEqual([org.name]);

      expect((await call('DELETE', `/Users/${user.id}`)).status).toBe(204);
      expect(await orgsOf(token)).toEqual([]);
      expect((await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token })).status).toBe(403);
      expect((await byUserName(userName)).body.totalResults).toBe(0);
      // The hub account stays (without the membership). The identity provider provisions the same
      // userName again (Entra does on re-assignment, in any case): the same account comes back, with
      // its tokens and data, not a second one (decision 0421).
      const again = await provision(userName.toUpperCase());
      expect(again.id).not.toBe(user.id);
      expect(await orgsOf(token)).toEqual([org.name]);
      const second = await http(t.baseUrl, 'POST', `/admin/users/${userName.toLowerCase()}-2_${org.name}/tokens`, {
        token: t.adminToken,
        body: { role: 'read' },
      });
      expect(second.status).toBe(404);
      // Another userName is another person: a new account.
      const other = await provision(`${userName}-other`);
      const { token: otherToken } = await makeToken(t, managedName(`${userName}-other`, org.name));
      expect({ other: other.userName, orgs: await orgsOf(otherToken) }).toEqual({
        other: `${userName}-other`,
        orgs: [org.name],
      });
    });

    it('Entra ID: matches by externalId and sends capitalised ops, string booleans and filtered paths', async () => {
      const userName = uniqueName('entra');
      const externalId = `9a1c-${userName}`;
      expect(
        (await call<ScimList<ScimUser>>('GET', `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`))
          .body.totalResults,
      ).toBe(0);
      const user = await provision(userName, { externalId, active: true });
      const patched = await call<ScimUser>(
        'PATCH',
        `/Users/${user.id}`,
        patchOp(
          { op: 'Add', path: 'name.givenName', value: 'Anna' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: `anna-${userName}@corp.example` },
          {
            op: 'Replace',
            path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
            value: 'R&D',
          },
          { op: 'Add', path: 'title', value: 'ignored' },
          { op: 'Replace', value: { 'name.familyName': 'Karenina', externalId } },
        ),
      );
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        name: { givenName: 'Anna', familyName: 'Karenina' },
        emails: [{ value: `anna-${userName}@corp.example`, primary: true }],
      });
      const { token } = await makeToken(t, managedName(userName, org.name));
      expect(
        (await call<ScimUser>('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' })))
          .body.active,
      ).toBe(false);
      expect(await orgsOf(token)).toEqual([]);
      expect(
        (await call<ScimUser>('PATCH', `/Users/${user.id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' })))
          .body.active,
      ).toBe(true);
      expect(await orgsOf(token)).toEqual([org.name]);
    });

    it('groups fill a resource group: members added and removed by PATCH appear in its answer; the admin API may not touch them', async () => {
      const a = await provision(uniqueName('grp-a'));
      const b = await provision(uniqueName('grp-b'));
      const name = uniqueName('Research');
      const rg = await http<Group>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name },
      });
      const busy = await http<Group>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: `${name}-busy`, autoJoin: { enabled: true, role: 'read' } },
      });
      expectScimError(await call('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: `${name}-busy` }), 409);
      expect(busy.status).toBe(201);

      const linked = await call<ScimGroup>('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: name,
        externalId: 'aad-group-1',
        members: [],
      });
      expect(linked.body.id).toBe(rg.body.id);
      const add = await call<ScimGroup>(
        'PATCH',
        `/Groups/${rg.body.id}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: a.id }, { value: b.id }] }),
      );
      expect(add.body.members?.map((m) => m.value)).toEqual([a.id, b.id]);
      const rgView = async (): Promise<Group> =>
        (
          await http<Group>(t.baseUrl, 'PATCH', `/api/organizations/${org.name}/resource-groups/${rg.body.id}`, {
            token: owner.token,
            body: {},
          })
        ).body;
      expect((await rgView()).users.map((u) => u.name).sort()).toEqual(
        [managedName(a.userName, org.name), managedName(b.userName, org.name)].sort(),
      );

      const removed = await call<ScimGroup>(
        'PATCH',
        `/Groups/${rg.body.id}`,
        patchOp({ op: 'Remove', path: `members[value eq "${a.id}"]` }),
      );
      expect(removed.body.members?.map((m) => m.value)).toEqual([b.id]);
      expect((await rgView()).users.map((u) => u.name)).toEqual([managedName(b.userName, org.name)]);
      // Okta's form: remove with a value list.
      await call(
        'PATCH',
        `/Groups/${rg.body.id}`,
        patchOp({ op: 'remove', path: 'members', value: [{ value: b.id }] }),
      );
      expect((await rgView()).users).toEqual([]);
      await call('PATCH', `/Groups/${rg.body.id}`, patchOp({ op: 'add', path: 'members', value: [{ value: a.id }] }));

      const viaAdmin = await http(
        t.baseUrl,
        'POST',
        `/admin/organizations/${org.name}/resource-groups/${rg.body.id}/users`,
        {
          token: t.adminToken,
          body: { users: [{ user: owner.name, role: 'read' }] },
        },
      );
      expect(viaAdmin.status).toBe(409);
      // Deprovisioning a user takes it out of its groups.
      await call('DELETE', `/Users/${a.id}`);
      expect((await rgView()).users).toEqual([]);
    });

    it('records each provisioning change in the audit log export', async () => {
      const exported = await eventually(
        () =>
          http<AuditEvent[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, {
            token: owner.token,
          }),
        (r) => r.status === 200 && r.body.some((e) => e.type === 'resource_group.remove_users'),
      );
      const types = new Set(exported.body.filter((e) => e.data?.['scim']).map((e) => e.type));
      expect([...types].sort()).toEqual([
        'org.add_user',
        'org.remove_user',
        'resource_group.add_users',
        'resource_group.remove_users',
        'resource_group.settings',
      ]);
      expect(exported.body.some((e) => e.type === 'org.remove_user' && e.data?.['suspended'] === true)).toBe(true);
      expect(exported.body.some((e) => e.type === 'org.add_user' && e.data?.['restored'] === true)).toBe(true);
    });
  });
}
