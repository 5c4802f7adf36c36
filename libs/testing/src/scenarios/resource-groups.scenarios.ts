import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeUser, type TestUser, uniqueName } from '../hub-factory';

interface Group {
  id: string;
  name: string;
  description: string | null;
  autoJoin: { enabled: boolean; role?: string };
  users: {
    type: string;
    _id: string;
    name: string;
    fullname: string;
    avatarUrl: string;
    role: string;
    addedBy?: string;
  }[];
  resources: { type: string; name: string; private: boolean }[];
}

/** Resource groups (spec 2.8, 4.4): filled by the admin API, renamed by org admins on Team plans and higher. */
export function resourceGroupsScenarios(target: () => HubTarget): void {
  describe('resource groups', () => {
    let t: HubTarget;
    let admin: TestUser;
    let member: TestUser;
    let org: { name: string };
    let group: Group;
    const patch = (token: string, body: unknown, id = group.id, name = org.name): ReturnType<typeof http<Group>> =>
      http<Group>(t.baseUrl, 'PATCH', `/api/organizations/${name}/resource-groups/${id}`, { token, body });

    beforeAll(async () => {
      t = target();
      admin = await makeUser(t);
      member = await makeUser(t);
      org = await makeOrg(t, 'team', [admin.name]);
      await addMember(t, org.name, member.name, 'read');
      const created = await http<Group>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: 'Research', autoJoin: { enabled: true, role: 'read' } },
      });
      expect(created.status).toBe(201);
      group = created.body;
    });

    it('is created and filled through the admin API, in the shape of 2.8', async () => {
      expect(group).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'Research',
        description: null,
        autoJoin: { enabled: true, role: 'read' },
        users: [],
        resources: [],
        repos: [],
      });
      await http(t.baseUrl, 'POST', '/admin/repos', {
        token: t.adminToken,
        body: { name: `${org.name}/secret`, type: 'model', private: true, storage: 1 },
      });
      const users = await http<Group>(
        t.baseUrl,
        'POST',
        `/admin/organizations/${org.name}/resource-groups/${group.id}/users`,
        {
          token: t.adminToken,
          body: { users: [{ user: member.name, role: 'write' }] },
        },
      );
      expect(users.status).toBe(200);
      expect(users.body.users).toEqual([
        {
          type: 'user',
          _id: member.id,
          name: member.name,
          fullname: expect.any(String),
          avatarUrl: expect.stringContaining(member.name),
          role: 'write',
        },
      ]);
      const repos = await http<Group>(
        t.baseUrl,
        'POST',
        `/admin/organizations/${org.name}/resource-groups/${group.id}/repos`,
        {
          token: t.adminToken,
          body: {
            repos: [
              { type: 'model', name: `${org.name}/secret` },
              { type: 'dataset', name: `${org.name}/open` },
            ],
          },
        },
      );
      expect(repos.body.resources).toEqual(
        [
          { type: 'dataset', name: `${org.name}/open`, private: false },
          { type: 'model', name: `${org.name}/secret`, private: true },
        ].sort((a, b) => (a.name < b.name ? -1 : 1)),
      );
      const bad = await http(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups/${group.id}/users`, {
        token: t.adminToken,
        body: { users: [{ user: 'ghost-nobody-x', role: 'read' }] },
      });
      expect(bad.status).toBe(404);
    });

    it('an org admin renames it and changes its description', async () => {
      const res = await patch(admin.token, { name: 'Research & Dev', description: 'the lab' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: group.id,
        name: 'Research & Dev',
        description: 'the lab',
        autoJoin: { enabled: true, role: 'read' },
      });
      expect((await patch(admin.token, { description: '' })).body).toMatchObject({
        name: 'Research & Dev',
        description: '',
      });
      expect((await patch(admin.token, {})).body.name).toBe('Research & Dev');
    });

    it('refuses names and descriptions out of bounds with a 400 naming the field', async () => {
      for (const [body, word] of [
        [{ name: '' }, /name/],
        [{ name: 'x'.repeat(201) }, /name/],
        [{ description: 'x'.repeat(501) }, /description/],
        [{ name: 7 }, /name/],
      ] as const) {
        const res = await patch(admin.token, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect((res.body as unknown as { error: string }).error).toMatch(word);
      }
    });

    it('is for org admins on a Team plan or higher; an unknown group is 404', async () => {
      const outsider = await makeUser(t);
      expect((await patch(member.token, { name: 'x' })).status).toBe(403);
      expect((await patch(outsider.token, { name: 'x' })).status).toBe(403);
      expect((await patch(admin.token, { name: 'x' }, '0123456789abcdef01234567')).status).toBe(404);
      expect((await patch(admin.token, { name: 'x' }, 'not-an-id')).status).toBe(400);
      const free = await makeOrg(t, 'free', [admin.name]);
      const freeGroup = await http<Group>(t.baseUrl, 'POST', `/admin/organizations/${free.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: 'g' },
      });
      expect((await patch(admin.token, { name: 'y' }, freeGroup.body.id, free.name)).status).toBe(403);
      // A group of another organization is not found through this one.
      expect((await patch(admin.token, { name: 'y' }, freeGroup.body.id)).status).toBe(404);
    });

    it('a resource group carries repos after resources (spec 2.8)', async () => {
      const rg = await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: uniqueName('repos') },
      });
      await http(t.baseUrl, 'POST', '/admin/repos', {
        token: t.adminToken,
        body: { name: `${org.name}/weights`, type: 'model', private: true, storage: 1 },
      });
      const added = await http<{ resources: unknown[]; repos: unknown[] }>(
        t.baseUrl,
        'POST',
        `/admin/organizations/${org.name}/resource-groups/${rg.body.id}/repos`,
        {
          token: t.adminToken,
          body: { repos: [{ type: 'model', name: `${org.name}/weights` }] },
        },
      );
      const view = await http<Record<string, unknown>>(
        t.baseUrl,
        'PATCH',
        `/api/organizations/${org.name}/resource-groups/${rg.body.id}`,
        { token: admin.token, body: {} },
      );
      expect(view.status).toBe(200);
      expect(Object.keys(view.body).slice(-2)).toEqual(['resources', 'repos']);
      expect(view.body['repos']).toEqual([
        {
          type: 'model',
          name: `${org.name}/weights`,
          private: true,
          ...((added.body.resources[0] as { addedBy?: string }).addedBy ? { addedBy: expect.any(String) } : {}),
        },
      ]);
    });
  });
}
