import { randomBytes } from 'node:crypto';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeUser, type TestUser } from '../hub-factory';
import { type AccessTarget, ROLES, statusWithin } from './access-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';
import { repoEvent } from './webhooks-helpers';

/** Issue 22 items 4 and 12 (decision 0014): a no_access member has the membership and nothing else; a job names only its own organization's resource groups. */

/** Role × organization route: a no_access member is answered as a non-member is, naming the role. */
export function noAccessScenarios(target: () => AccessTarget): void {
  describe('a no_access member gets the membership and nothing else (issue 22 item 4)', () => {
    let t: AccessTarget;
    let org: { id: string; name: string };
    let group = '';
    const members: Partial<Record<(typeof ROLES)[number] | 'outsider', TestUser>> = {};

    beforeAll(async () => {
      t = target();
      members.admin = await makeUser(t, 'write', 'rbac-admin');
      org = await makeOrg(t, 'enterprise', [members.admin.name], 'rbac');
      for (const role of ROLES.slice(1)) {
        members[role] = await makeUser(t, 'write', `rbac-${role.replace('_', '')}`);
        await addMember(t, org.name, members[role].name, role);
      }
      members.outsider = await makeUser(t, 'write', 'rbac-out');
      const rg = await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
        token: t.adminToken,
        body: { name: 'Ops' },
      });
      group = rg.body.id;
    });

    const routes = (): { name: string; call: (token: string) => Promise<{ status: number; body: unknown }> }[] => [
      {
        name: 'GET members',
        call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token }),
      },
      {
        name: 'GET settings/repositories',
        call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/settings/repositories`, { token }),
      },
      {
        name: 'GET audit-log/export',
        call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, { token }),
      },
      {
        name: 'PATCH resource-groups/{id}',
        call: (token) =>
          http(t.baseUrl, 'PATCH', `/api/organizations/${org.name}/resource-groups/${group}`, {
            token,
            body: { description: 'x' },
          }),
      },
      ...(t.jobs
        ? [
            {
              name: 'GET jobs/{org}',
              call: (token: string) => http(t.baseUrl, 'GET', `/api/jobs/${org.name}`, { token }),
            },
          ]
        : []),
    ];
    /** The status each caller gets on each route (admin routes: 403 for every other role). */
    const expected: Record<string, Record<string, number>> = {
      'GET members': { admin: 200, write: 200, contributor: 200, read: 200, no_access: 403, outsider: 403 },
      'GET settings/repositories': {
        admin: 200,
        write: 200,
        contributor: 200,
        read: 200,
        no_access: 403,
        outsider: 403,
      },
      'GET audit-log/export': { admin: 200, write: 403, contributor: 403, read: 403, no_access: 403, outsider: 403 },
      'PATCH resource-groups/{id}': {
        admin: 200,
        write: 403,
        contributor: 403,
        read: 403,
        no_access: 403,
        outsider: 403,
      },
      // The jobs API hides namespaces the caller cannot use (404, like a missing one).
      'GET jobs/{org}': { admin: 200, write: 200, contributor: 200, read: 200, no_access: 404, outsider: 404 },
    };

    it('answers each role on each organization route as the matrix says', async () => {
      const got: Record<string, Record<string, number>> = {};
      const want: Record<string, Record<string, number>> = {};
      for (const route of routes()) {
        got[route.name] = {};
        want[route.name] = expected[route.name];
        for (const [who, user] of Object.entries(members)) got[route.name][who] = (await route.call(user.token)).status;
      }
      expect(got).toEqual(want);
    });

    it('names the no_access role in its 403s, and lists the membership (and nothing more) in whoami', async () => {
      const token = members.no_access?.token ?? '';
      for (const route of routes().filter((r) => !r.name.startsWith('GET jobs'))) {
        const res = await route.call(token);
        expect({ route: route.name, status: res.status, body: res.body }).toEqual({
          route: route.name,
          status: 403,
          body: {
            error: `Your role in the organization ${org.name} is no_access: it gives no access to the organization's resources`,
          },
        });
      }
      const who = await http<{ orgs: { name: string; roleInOrg: string }[] }>(t.baseUrl, 'GET', '/api/whoami-v2', {
        token,
      });
      expect(who.body.orgs.map((o) => ({ name: o.name, roleInOrg: o.roleInOrg }))).toEqual([
        { name: org.name, roleInOrg: 'no_access' },
      ]);
    });

    it('the role taken away (admin API) closes the routes at once; given back, opens them', async () => {
      const user = await makeUser(t, 'write', 'rbac-demoted');
      await addMember(t, org.name, user.name, 'read');
      const list = () => http(t.gateways[0], 'GET', `/api/organizations/${org.name}/members`, { token: user.token });
      expect((await list()).status).toBe(200);
      const last = t.gateways[t.gateways.length - 1];
      expect(
        (
          await http(last, 'PATCH', `/admin/organizations/${org.name}/members/${user.name}`, {
            token: t.adminToken,
            body: { role: 'no_access' },
          })
        ).status,
      ).toBe(200);
      expect(await statusWithin(list, 403)).toBe(403);
      expect(
        (
          await http(last, 'PATCH', `/admin/organizations/${org.name}/members/${user.name}`, {
            token: t.adminToken,
            body: { role: 'read' },
          })
        ).status,
      ).toBe(200);
      expect(await statusWithin(list, 200)).toBe(200);
    });
  });
}

/** A job's resourceGroupId must be a group of the job's own organization (item 12). */
export function foreignResourceGroupScenarios(target: () => HubTarget): void {
  describe("a job cannot name another organization's resource group (issue 22 item 12)", () => {
    it('refuses a foreign or unknown resourceGroupId with 400 naming the field; accepts its own', async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'rg-admin');
      const mine = await makeOrg(t, 'enterprise', [admin.name], 'rg-mine');
      const theirs = await makeOrg(t, 'enterprise', [(await makeUser(t, 'write', 'rg-other')).name], 'rg-theirs');
      const groupOf = async (org: string) =>
        (
          await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org}/resource-groups`, {
            token: t.adminToken,
            body: { name: 'Team' },
          })
        ).body.id;
      const [own, foreign] = [await groupOf(mine.name), await groupOf(theirs.name)];
      const spec = (resourceGroupId: string) => ({
        dockerImage: 'alpine:3',
        flavor: 'cpu-basic',
        command: ['true'],
        resourceGroupId,
      });
      const run = (ns: string, id: string) =>
        http<{ error?: string; id?: string }>(t.baseUrl, 'POST', `/api/jobs/${ns}`, {
          token: admin.token,
          body: spec(id),
        });

      for (const [ns, id] of [
        [mine.name, foreign],
        [mine.name, 'ffffffffffffffffffffffff'],
        [admin.name, own],
      ]) {
        const res = await run(ns, id);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { error: `resourceGroupId ${id} is not a resource group of ${ns}` },
        });
      }
      const scheduled = await http(t.baseUrl, 'POST', `/api/scheduled-jobs/${mine.name}`, {
        token: admin.token,
        body: { schedule: '@hourly', jobSpec: spec(foreign) },
      });
      expect({ status: scheduled.status, body: scheduled.body }).toEqual({
        status: 400,
        body: { error: `jobSpec.resourceGroupId ${foreign} is not a resource group of ${mine.name}` },
      });

      const ok = await run(mine.name, own);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ resourceGroupId: own });
    }, 60_000);
  });
}

/**
 * Webhooks of a no_access member: no private repo events of the organization, no copies of its
 * jobs (item 4); a webhook's job runs in its owner's namespace, so names no resource group (item 12).
 */
export function webhookAccessScenarios(target: () => WebhooksScenarioTarget & { jobs: boolean }): void {
  describe('webhooks and organization access (issue 22 items 4 and 12)', () => {
    let t: WebhooksScenarioTarget & { jobs: boolean };
    let admin: TestUser;
    let reader: TestUser;
    let blocked: TestUser;
    let org: { id: string; name: string };

    beforeAll(async () => {
      t = target();
      admin = await makeUser(t, 'write', 'wh-admin');
      org = await makeOrg(t, 'team', [admin.name], 'wh');
      reader = await makeUser(t, 'write', 'wh-reader');
      blocked = await makeUser(t, 'write', 'wh-noaccess');
      await addMember(t, org.name, reader.name, 'read');
      await addMember(t, org.name, blocked.name, 'no_access');
    });

    const createWebhook = (user: TestUser, body: Record<string, unknown>) =>
      http<{ webhook: { id: string }; error?: string }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
        token: user.token,
        body,
      });

    it("hear nothing of the organization's private repos, whatever they watch (public ones still)", async () => {
      const tag = randomBytes(3).toString('hex');
      const watched = [
        { type: 'org', name: org.name },
        { type: 'model', name: `${org.name}/secret` },
      ];
      expect(
        (await createWebhook(reader, { watched, domains: ['repo'], url: t.capture.url(`/reader-${tag}`) })).status,
      ).toBe(200);
      expect(
        (await createWebhook(blocked, { watched, domains: ['repo'], url: t.capture.url(`/noaccess-${tag}`) })).status,
      ).toBe(200);
      const event = repoEvent(`${org.name}/secret`, 'repo.content', 'private-1');
      const privateEvent = {
        ...event,
        repo: { ...(event['repo'] as Record<string, unknown>), private: true, owner: { id: org.id } },
      };
      for (const payload of [privateEvent, repoEvent(`${org.name}/open`, 'repo.content', 'public-1')]) {
        expect(
          (
            await http(t.baseUrl, 'POST', '/admin/events', {
              token: t.adminToken,
              body: { subject: 'hub.events.repo.update', payload },
            })
          ).status,
        ).toBeLessThan(300);
      }
      const actions = (path: string) =>
        t.capture
          .at(path)
          .map((d) => (d.json['event'] as Record<string, unknown>)['action'])
          .sort();
      await t.capture.waitFor(`/reader-${tag}`, 2);
      expect(actions(`/reader-${tag}`)).toEqual(['private-1', 'public-1']);
      await t.capture.waitFor(`/noaccess-${tag}`, 1);
      // Both events were matched in the same intake as the reader's; a little slack for a second delivery that must not come.
      await new Promise((r) => setTimeout(r, 500));
      expect(actions(`/noaccess-${tag}`)).toEqual(['public-1']);
    });

    it("cannot copy an organization's job through jobSourceId (404 like a missing job); a reader can", async () => {
      if (!t.jobs) return;
      const job = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${org.name}`, {
        token: admin.token,
        body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sh', '-c', 'echo org-secret-command'] },
      });
      expect(job.status).toBe(200);
      const body = (user: TestUser) => ({
        watched: [{ type: 'model', name: `${user.name}/m` }],
        domains: ['repo'],
        jobSourceId: job.body.id,
      });
      const refused = await createWebhook(blocked, body(blocked));
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 404,
        body: { error: `Job ${job.body.id} not found` },
      });
      expect((await createWebhook(reader, body(reader))).status).toBe(200);
    });

    it("a job webhook names no resource group (400); a copied job runs without its source's", async () => {
      const group = (
        await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, {
          token: t.adminToken,
          body: { name: 'Jobs' },
        })
      ).body.id;
      const job = { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['echo', 'copied'], resourceGroupId: group };
      const watched = [{ type: 'model', name: `${reader.name}/copy` }];
      const refused = await createWebhook(reader, { watched, domains: ['repo'], job });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: {
          error: `job.resourceGroupId ${group} is not a resource group of your namespace: a webhook's jobs run there`,
        },
      });
      if (!t.jobs) return;
      const source = await http<{ id: string; resourceGroupId?: string }>(t.baseUrl, 'POST', `/api/jobs/${org.name}`, {
        token: admin.token,
        body: job,
      });
      expect({ status: source.status, group: source.body.resourceGroupId }).toEqual({ status: 200, group });
      expect((await createWebhook(reader, { watched, domains: ['repo'], jobSourceId: source.body.id })).status).toBe(
        200,
      );
      await http(t.baseUrl, 'POST', '/admin/events', {
        token: t.adminToken,
        body: { subject: 'hub.events.repo.update', payload: repoEvent(`${reader.name}/copy`) },
      });
      const jobs = () =>
        http<{ id: string; resourceGroupId?: string; command: string[] }[]>(
          t.baseUrl,
          'GET',
          `/api/jobs/${reader.name}`,
          { token: reader.token },
        );
      const deadline = Date.now() + 20_000;
      let copies = (await jobs()).body;
      while (copies.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        copies = (await jobs()).body;
      }
      expect(copies.map((c) => ({ command: c.command, resourceGroupId: c.resourceGroupId }))).toEqual([
        { command: ['echo', 'copied'], resourceGroupId: undefined },
      ]);
    }, 60_000);
  });
}

export interface JobSpecReadTarget extends HubTarget {
  /** `jobs.job.spec` over the bus, as the webhooks service asks it for a jobSourceId: the answer's status. */
  readJobSpec(jobId: string, reader: { id: string; name: string }): Promise<number>;
}

/** The jobs service's own rule for jobSourceId, asked directly (the distributed mode's webhooks suite runs no jobs service) (item 4). */
export function jobSourceReadScenarios(target: () => JobSpecReadTarget): void {
  describe('reading a job for a jobSourceId copy needs access to its namespace (issue 22 item 4)', () => {
    it('answers a no_access member and an outsider 404, a reader the spec', async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'spec-admin');
      const org = await makeOrg(t, 'team', [admin.name], 'spec');
      const [reader, blocked, outsider] = [
        await makeUser(t, 'write', 'spec-reader'),
        await makeUser(t, 'write', 'spec-noaccess'),
        await makeUser(t, 'write', 'spec-out'),
      ];
      await addMember(t, org.name, reader.name, 'read');
      await addMember(t, org.name, blocked.name, 'no_access');
      const job = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${org.name}`, {
        token: admin.token,
        body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'] },
      });
      expect(job.status).toBe(200);
      const statuses: Record<string, number> = {};
      for (const [who, u] of Object.entries({ reader, blocked, outsider }))
        statuses[who] = await t.readJobSpec(job.body.id, { id: u.id, name: u.name });
      expect(statuses).toEqual({ reader: 200, blocked: 404, outsider: 404 });
    });
  });
}
