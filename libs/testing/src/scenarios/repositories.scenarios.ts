import { eventually } from '../eventually';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeUser, uniqueName } from '../hub-factory';

interface Usage {
  id: string;
  type: string;
  updatedAt: string;
  visibility: string;
  storage: number;
  storagePercent: number;
}

/** Adds a repository to the catalogue through the admin API, as an operator (or `hubctl repos create`) would. */
export async function makeRepo(
  t: HubTarget,
  name: string,
  type: string,
  storage: number,
  isPrivate = false,
): Promise<Usage> {
  const res = await http<Usage>(t.baseUrl, 'POST', '/admin/repos', {
    token: t.adminToken,
    body: { name, type, private: isPrivate, storage },
  });
  if (res.status !== 201) throw new Error(`POST /admin/repos answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const nextOf = (link: string | null): string | undefined => /<([^>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];

/** Repository storage usage listings (spec 2.7, 4.3, 4.4) as users meet them, in both run modes. */
export function repositoriesScenarios(target: () => HubTarget): void {
  describe('repository storage usage', () => {
    let t: HubTarget;
    let admin: { name: string; token: string };
    let member: { name: string; token: string };
    let outsider: { name: string; token: string };
    let org: { name: string };
    const list = (token: string, query = ''): ReturnType<typeof http<Usage[]>> =>
      http<Usage[]>(t.baseUrl, 'GET', `/api/organizations/${org.name}/settings/repositories${query}`, { token });

    beforeAll(async () => {
      t = target();
      admin = await makeUser(t);
      member = await makeUser(t, 'read');
      outsider = await makeUser(t);
      org = await makeOrg(t, 'team', [admin.name]);
      await addMember(t, org.name, member.name, 'read');
      await makeRepo(t, `${org.name}/Bert-Base`, 'model', 400, true);
      await makeRepo(t, `${org.name}/squad-bert`, 'dataset', 300);
      await makeRepo(t, `${org.name}/demo`, 'space', 200);
      await makeRepo(t, `${org.name}/tiny`, 'model', 100);
      await makeRepo(t, `${admin.name}/mine`, 'model', 50);
    });

    it('lists the org repositories, private ones included, largest first with their share of the total', async () => {
      const res = await list(member.token);
      expect(res.status).toBe(200);
      expect(res.headers.get('link')).toBeNull();
      expect(res.body.map((r) => r.id)).toEqual([
        `${org.name}/Bert-Base`,
        `${org.name}/squad-bert`,
        `${org.name}/demo`,
        `${org.name}/tiny`,
      ]);
      expect(res.body[0]).toEqual({
        id: `${org.name}/Bert-Base`,
        type: 'model',
        visibility: 'private',
        storage: 400,
        storagePercent: 40,
        updatedAt: expect.any(String),
      });
      expect(new Date(res.body[0]?.updatedAt ?? '').toISOString()).toBe(res.body[0]?.updatedAt);
      expect(res.body.reduce((s, r) => s + r.storagePercent, 0)).toBeCloseTo(100);
    });

    it('sorts, filters by a case-insensitive name substring and by type', async () => {
      expect((await list(admin.token, '?direction=asc')).body.map((r) => r.storage)).toEqual([100, 200, 300, 400]);
      const byUpdate = await list(admin.token, '?sort=updatedAt&direction=asc');
      expect(byUpdate.body.map((r) => r.id.split('/')[1])).toEqual(['Bert-Base', 'squad-bert', 'demo', 'tiny']);
      expect((await list(admin.token, '?sort=updatedAt')).body.map((r) => r.id.split('/')[1])).toEqual([
        'tiny',
        'demo',
        'squad-bert',
        'Bert-Base',
      ]);
      expect((await list(admin.token, '?search=BERT')).body.map((r) => r.id.split('/')[1])).toEqual([
        'Bert-Base',
        'squad-bert',
      ]);
      expect((await list(admin.token, '?type=model')).body.map((r) => r.storage)).toEqual([400, 100]);
      // The share stays the share of the owner's whole storage, whatever the filter.
      expect((await list(admin.token, '?type=model&search=tiny')).body).toEqual([
        expect.objectContaining({ storage: 100, storagePercent: 10 }),
      ]);
      expect((await list(admin.token, '?search=nothing-like-it')).body).toEqual([]);
    });

    it('pages with a Link header the clients follow, in the same order', async () => {
      const seen: string[] = [];
      let res = await list(member.token, '?limit=3&direction=asc');
      expect(res.body).toHaveLength(3);
      seen.push(...res.body.map((r) => r.id));
      const next = nextOf(res.headers.get('link'));
      expect(next).toMatch(/^http:\/\/.+\/settings\/repositories\?.*limit=3/);
      const url = new URL(next ?? '');
      res = await http<Usage[]>(url.origin, 'GET', `${url.pathname}${url.search}`, { token: member.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.map((r) => r.id));
      expect(res.headers.get('link')).toBeNull();
      expect(seen.map((id) => id.split('/')[1])).toEqual(['tiny', 'demo', 'squad-bert', 'Bert-Base']);
      const exact = await list(member.token, '?limit=4');
      expect(exact.body).toHaveLength(4);
      expect(exact.headers.get('link')).toBeNull();
    });

    it('refuses bad query values with a 400 naming them', async () => {
      for (const [query, word] of [
        ['?limit=0', /limit/],
        ['?limit=abc', /limit/],
        ['?limit=1001', /limit/],
        ['?sort=size', /sort/],
        ['?direction=up', /direction/],
        ['?type=repo', /type/],
        ['?cursor=x', /cursor/],
      ] as const) {
        const res = await list(member.token, query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect((res.body as unknown as { error: string }).error).toMatch(word);
      }
    });

    it('needs membership of the organization, a token, and an organization that exists', async () => {
      expect((await list(outsider.token)).status).toBe(403);
      expect((await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/settings/repositories`)).status).toBe(401);
      expect(
        (
          await http(t.baseUrl, 'GET', `/api/organizations/${uniqueName('ghost')}/settings/repositories`, {
            token: admin.token,
          })
        ).status,
      ).toBe(404);
    });

    it("lists the caller's own repositories under /api/settings/repositories", async () => {
      const res = await http<Usage[]>(t.baseUrl, 'GET', '/api/settings/repositories', { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        expect.objectContaining({ id: `${admin.name}/mine`, storage: 50, storagePercent: 100, visibility: 'public' }),
      ]);
      expect(
        (await http<Usage[]>(t.baseUrl, 'GET', '/api/settings/repositories', { token: outsider.token })).body,
      ).toEqual([]);
    });

    it('follows hub.events.repo.* : create, settings change, move and delete', async () => {
      const owner = await makeUser(t);
      const publish = async (subject: string, payload: unknown): Promise<void> => {
        const res = await http(t.baseUrl, 'POST', '/admin/events', { token: t.adminToken, body: { subject, payload } });
        expect(res.status).toBe(202);
      };
      const mine = (): Promise<Usage[]> =>
        http<Usage[]>(t.baseUrl, 'GET', '/api/settings/repositories', { token: owner.token }).then((r) => r.body);
      await publish('hub.events.repo.create', {
        event: { action: 'create', scope: 'repo' },
        repo: { type: 'model', name: `${owner.name}/llm`, private: false, storage: 70 },
      });
      expect(await eventually(mine, (r) => r.length === 1)).toEqual([
        expect.objectContaining({ id: `${owner.name}/llm`, storage: 70, visibility: 'public' }),
      ]);
      await publish('hub.events.repo.update', {
        event: { action: 'update', scope: 'repo.config' },
        repo: { type: 'model', name: `${owner.name}/llm`, private: true },
      });
      expect(await eventually(mine, (r) => r[0]?.visibility === 'private')).toEqual([
        expect.objectContaining({ storage: 70, visibility: 'private' }),
      ]);
      await publish('hub.events.repo.move', {
        event: { action: 'move', scope: 'repo' },
        repo: { type: 'model', name: `${owner.name}/llm` },
        movedTo: { name: `${owner.name}/llm-2` },
      });
      expect(await eventually(mine, (r) => r[0]?.id === `${owner.name}/llm-2`)).toEqual([
        expect.objectContaining({ id: `${owner.name}/llm-2`, storage: 70 }),
      ]);
      await publish('hub.events.repo.delete', {
        event: { action: 'delete', scope: 'repo' },
        repo: { type: 'model', name: `${owner.name}/llm-2` },
      });
      expect(await eventually(mine, (r) => r.length === 0)).toEqual([]);
    });
  });
}
