import { eventually } from '../eventually';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser, type TestUser, uniqueName } from '../hub-factory';

interface AuditEvent {
  _id: string;
  createdAt: string;
  type: string;
  message: string;
  data?: unknown;
  ip?: string;
  userAgent?: string;
  author: { _id: string; user: string; avatarUrl: string; type: string };
  token?: { type: string; id: string; role?: string; deleted: boolean };
}

/** The audit log export (spec 2.9, 4.4) fed by real actions through the outbox and the ingest, in both run modes. */
export function auditScenarios(target: () => HubTarget): void {
  describe('audit log export', () => {
    let t: HubTarget;
    let admin: TestUser;
    let member: TestUser;
    let org: { id: string; name: string };
    const exportOf = (token: string, q?: string, name = org.name): ReturnType<typeof http<AuditEvent[]>> =>
      http<AuditEvent[]>(
        t.baseUrl,
        'GET',
        `/api/organizations/${name}/audit-log/export${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`,
        {
          token,
          headers: { 'user-agent': 'audit-scenario/1.0' },
        },
      );

    beforeAll(async () => {
      t = target();
      admin = await makeUser(t);
      member = await makeUser(t);
      org = await makeOrg(t, 'enterprise', [admin.name]);
      await addMember(t, org.name, member.name, 'read');
      await addMember(t, org.name, member.name, 'write');
    });

    it('exports the events of real actions newest first, as an attachment, in the shape of 2.9', async () => {
      const res = await eventually(
        () => exportOf(admin.token),
        (r) => r.status === 200 && r.body.length >= 4,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const date = new Date().toISOString().slice(0, 10);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${org.name}-audit-log-${date}.json"`);
      expect(res.body.map((e) => e.type)).toEqual(['org.change_role', 'org.add_user', 'org.add_user', 'org.create']);
      const times = res.body.map((e) => e.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect(res.body[0]).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        createdAt: expect.any(String),
        type: 'org.change_role',
        message: expect.stringContaining(member.name),
        data: { user: member.name, from: 'read', to: 'write' },
        ip: expect.any(String),
        userAgent: expect.any(String),
        author: { _id: '000000000000000000000000', user: 'system', avatarUrl: expect.any(String), type: 'system' },
      });
    });

    it("records a user's action with that user as author, the request's ip and user agent and the token", async () => {
      const victim = await makeToken(t, member.name);
      const revoke = await http(
        t.baseUrl,
        'POST',
        `/api/organizations/${org.name}/settings/tokens/${victim.id}/revoke`,
        {
          token: admin.token,
          headers: { 'user-agent': 'audit-scenario/1.0' },
        },
      );
      expect(revoke.status).toBeLessThan(300);
      const res = await eventually(
        () => exportOf(admin.token, `author:${admin.name}`),
        (r) => r.body.length >= 1,
      );
      expect(res.body).toEqual([
        expect.objectContaining({
          type: 'org.token_approval.authorization_request.revoked',
          data: { tokenId: victim.id },
          ip: expect.stringMatching(/\S/),
          userAgent: 'audit-scenario/1.0',
          author: { _id: admin.id, user: admin.name, avatarUrl: expect.stringContaining(admin.name), type: 'user' },
          token: { type: 'access_token', id: admin.tokenId, role: 'write', deleted: false },
        }),
      ]);
    });

    it('records the repository events of the organization (hub.events.repo.*)', async () => {
      const other = await makeOrg(t, 'team', [admin.name]);
      const publish = (subject: string, payload: unknown): Promise<unknown> =>
        http(t.baseUrl, 'POST', '/admin/events', { token: t.adminToken, body: { subject, payload } });
      await publish('hub.events.repo.create', {
        event: { action: 'create', scope: 'repo' },
        repo: { type: 'model', name: `${other.name}/m1`, private: true },
      });
      await publish('hub.events.repo.update', {
        event: { action: 'update', scope: 'repo.config' },
        repo: { type: 'model', name: `${other.name}/m1`, private: false },
      });
      await publish('hub.events.repo.update', {
        event: { action: 'update', scope: 'repo.content' },
        repo: { type: 'model', name: `${other.name}/m1` },
      });
      await publish('hub.events.repo.move', {
        event: { action: 'move', scope: 'repo' },
        repo: { type: 'model', name: `${other.name}/m1` },
        movedTo: { name: `${other.name}/m2` },
      });
      await publish('hub.events.repo.delete', {
        event: { action: 'delete', scope: 'repo' },
        repo: { type: 'model', name: `${other.name}/m2` },
      });
      // A distributed hub may record events of different subjects out of publishing order (seen:
      // repo.delete before repo.move), so wait for all four rather than for the last one published.
      const expected = ['repo.create', 'repo.delete', 'repo.move', 'repo.update_settings'];
      const repoTypes = (r: Awaited<ReturnType<typeof exportOf>>): string[] =>
        r.body.map((e) => e.type).filter((x) => x.startsWith('repo.'));
      const res = await eventually(
        () => exportOf(admin.token, 'author:system', other.name),
        (r) => expected.every((type) => repoTypes(r).includes(type)),
      );
      expect(repoTypes(res).sort()).toEqual(expected);
      expect(res.body.find((e) => e.type === 'repo.move')?.data).toEqual({
        repo: `${other.name}/m1`,
        type: 'model',
        movedTo: `${other.name}/m2`,
      });
    });

    it('filters with q: author, ip and type terms, several combining with AND', async () => {
      expect((await exportOf(admin.token, 'type:org.add_user')).body.map((e) => e.type)).toEqual([
        'org.add_user',
        'org.add_user',
      ]);
      expect((await exportOf(admin.token, 'author:system type:org.create')).body.map((e) => e.type)).toEqual([
        'org.create',
      ]);
      expect((await exportOf(admin.token, `author:${member.name}`)).body).toEqual([]);
      const all = (await exportOf(admin.token)).body;
      const ip = all[0]?.ip ?? '';
      expect((await exportOf(admin.token, `ip:${ip}`)).body).toHaveLength(all.filter((e) => e.ip === ip).length);
      expect((await exportOf(admin.token, 'ip:203.0.113.9')).body).toEqual([]);
      expect((await exportOf(admin.token, 'type:org.create type:org.add_user')).body).toEqual([]);
    });

    it('answers a malformed q term, an unknown field or event type with a 400 naming it', async () => {
      for (const [q, word] of [
        ['author', /"author"/],
        ['color:red', /"color"/],
        ['type:org.explode', /org\.explode/],
        ['ip:', /"ip:"/],
        [':x', /":x"/],
      ] as const) {
        const res = await exportOf(admin.token, q);
        expect({ q, status: res.status }).toEqual({ q, status: 400 });
        expect((res.body as unknown as { error: string }).error).toMatch(word);
      }
    });

    it('is for org admins on Team plans and higher only', async () => {
      const outsider = await makeUser(t);
      expect((await exportOf(member.token)).status).toBe(403);
      expect((await exportOf(outsider.token)).status).toBe(403);
      expect((await http(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`)).status).toBe(401);
      expect((await exportOf(admin.token, undefined, uniqueName('ghost'))).status).toBe(404);
      for (const plan of ['free', 'team', 'enterprise_plus']) {
        const other = await makeOrg(t, plan, [admin.name]);
        const res = await exportOf(admin.token, undefined, other.name);
        expect({ plan, status: res.status }).toEqual({ plan, status: plan === 'free' ? 403 : 200 });
        if (plan === 'free') expect((res.body as unknown as { error: string }).error).toMatch(/Team/);
      }
    });

    it('lists the log in pages (…/audit-log/events, decision 0423): the export in the same order, the next page in the Link header', async () => {
      const all = (await exportOf(admin.token)).body;
      const pages: AuditEvent[][] = [];
      let path: string | null = `/api/organizations/${org.name}/audit-log/events?limit=2`;
      while (path) {
        const res: Awaited<ReturnType<typeof http<AuditEvent[]>>> = await http<AuditEvent[]>(t.baseUrl, 'GET', path, {
          token: admin.token,
        });
        expect(res.status).toBe(200);
        pages.push(res.body);
        const link = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
        path = link ? `${new URL(link).pathname}${new URL(link).search}` : null;
        expect(pages.length).toBeLessThan(20);
      }
      expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true);
      expect(pages.flat()).toEqual(all);
      const filtered = await http<AuditEvent[]>(
        t.baseUrl,
        'GET',
        `/api/organizations/${org.name}/audit-log/events?q=${encodeURIComponent('type:org.add_user')}`,
        { token: admin.token },
      );
      expect(filtered.body.map((e) => e.type)).toEqual(['org.add_user', 'org.add_user']);
      for (const [query, word] of [
        ['limit=0', /limit/],
        ['limit=101', /limit/],
        ['cursor=nope', /cursor/],
        ['q=color:red', /"color"/],
      ] as const) {
        const res = await http<{ error: string }>(
          t.baseUrl,
          'GET',
          `/api/organizations/${org.name}/audit-log/events?${query}`,
          { token: admin.token },
        );
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body.error).toMatch(word);
      }
      const events = (token: string): Promise<number> =>
        http(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/events`, { token }).then((r) => r.status);
      await expect(events(member.token)).resolves.toBe(403);
    });
  });
}
