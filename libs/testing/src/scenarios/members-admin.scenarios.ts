import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeUser, type TestUser } from '../hub-factory';
import { eventually } from '../eventually';

interface AuditEvent {
  type: string;
  data?: Record<string, unknown>;
}
interface Group {
  id: string;
  users: { name: string }[];
}

/** The admin API's member removal, role change and resource group user removal, each in the audit log. */
export function membersAdminScenarios(target: () => HubTarget): void {
  describe('admin API: members and resource group users', () => {
    let t: HubTarget;
    let admin: TestUser;
    let member: TestUser;
    let org: { name: string };
    const orgsOf = async (token: string): Promise<string[]> =>
      (await http<{ orgs: { name: string }[] }>(t.baseUrl, 'GET', '/api/whoami-v2', { token })).body.orgs.map(
        (o) => o.name,
      );

    beforeAll(async () => {
      t = target();
      admin = await makeUser(t);
      member = await makeUser(t);
      org = await makeOrg(t, 'enterprise', [admin.name]);
      await addMember(t, org.name, member.name, 'read');
    });

    it('changes a role, removes a user from a resource group and removes a member', async () => {
      const role = await http(t.baseUrl, 'PATCH', `/admin/organizations/${org.name}/members/${member.name}`, {
        token: t.adminToken,
        body: { role: 'write' },
      });
      expect(role.status).toBe(200);
      expect(role.body).toMatchObject({ userId: member.id, user: member.name, role: 'write' });
      expect(
        (
          await http(t.baseUrl, 'PATCH', `/admin/organizations/${org.name}/members/${member.name}`, {
            token: t.adminToken,
            body: { role: '' },
          })
        ).status,
      ).toBe(400);

      const rg = await http<Group>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: 'Ops' },
      });
      await http(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups/${rg.body.id}/users`, {
        token: t.adminToken,
        body: { users: [{ user: member.name, role: 'read' }] },
      });
      const out = await http<Group>(
        t.baseUrl,
        'DELETE',
        `/admin/organizations/${org.name}/resource-groups/${rg.body.id}/users/${member.name}`,
        { token: t.adminToken },
      );
      expect(out.status).toBe(200);
      expect(out.body.users).toEqual([]);
      expect(
        (
          await http(
            t.baseUrl,
            'DELETE',
            `/admin/organizations/${org.name}/resource-groups/${rg.body.id}/users/${member.name}`,
            { token: t.adminToken },
          )
        ).status,
      ).toBe(404);

      expect(await orgsOf(member.token)).toEqual([org.name]);
      expect(
        (
          await http(t.baseUrl, 'DELETE', `/admin/organizations/${org.name}/members/${member.name}`, {
            token: t.adminToken,
          })
        ).status,
      ).toBe(204);
      expect(await orgsOf(member.token)).toEqual([]);
      expect(
        (await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token: member.token })).status,
      ).toBe(403);
      expect(
        (
          await http(t.baseUrl, 'DELETE', `/admin/organizations/${org.name}/members/${member.name}`, {
            token: t.adminToken,
          })
        ).status,
      ).toBe(404);
      // The last admin stays.
      expect(
        (
          await http(t.baseUrl, 'DELETE', `/admin/organizations/${org.name}/members/${admin.name}`, {
            token: t.adminToken,
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await http(t.baseUrl, 'PATCH', `/admin/organizations/${org.name}/members/${admin.name}`, {
            token: t.adminToken,
            body: { role: 'read' },
          })
        ).status,
      ).toBe(409);

      const exported = await eventually(
        () =>
          http<AuditEvent[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, {
            token: admin.token,
          }),
        (r) => r.status === 200 && r.body.some((e) => e.type === 'org.remove_user'),
      );
      const types = exported.body.map((e) => e.type);
      expect(types).toEqual(
        expect.arrayContaining(['org.change_role', 'resource_group.remove_users', 'org.remove_user']),
      );
      expect(exported.body.find((e) => e.type === 'org.remove_user')?.data).toEqual({
        user: member.name,
        role: 'write',
      });
    });
  });
}
