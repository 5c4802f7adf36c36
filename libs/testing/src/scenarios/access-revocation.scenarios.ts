import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeToken, makeUser, type TestUser } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';
import { repoEvent } from './webhooks-helpers';

/** Issue 22 items 4, 5 and 12 (decision 0014): what a no_access member gets, and open answers ending with their access. */

export interface AccessTarget extends HubTarget {
  /** Every gateway replica (one in the all-in-one hub): streams open on the first, revocations go through the last. */
  gateways: string[];
  /** Whether a jobs service runs behind these gateways. */
  jobs: boolean;
}

export interface AuditCutOffTarget extends HubTarget {
  gateways: string[];
  databaseUrl: string;
}

/**
 * How soon an open answer must end after the answer to the revocation (the item asks for 1 s).
 * The path is one bus message to the gateway holding the answer and a local call there, no
 * polling; on this loaded 2-core machine that is tens of ms, and the other replica tests of the
 * same event (a revoked token is refused within 1 s) hold with the same bound. Without the fix
 * the answers run until the job ends (minutes here) or the export is complete.
 */
const ENDS_WITHIN_MS = 1000;

const LOOP = ['sh', '-c', 'while true; do echo tick; sleep 0.2; done'];
const ROLES = ['admin', 'write', 'contributor', 'read', 'no_access'] as const;

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
      const rg = await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, { token: t.adminToken, body: { name: 'Ops' } });
      group = rg.body.id;
    });

    const routes = (): { name: string; call: (token: string) => Promise<{ status: number; body: unknown }> }[] => [
      { name: 'GET members', call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/members`, { token }) },
      { name: 'GET settings/repositories', call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/settings/repositories`, { token }) },
      { name: 'GET audit-log/export', call: (token) => http(t.baseUrl, 'GET', `/api/organizations/${org.name}/audit-log/export`, { token }) },
      { name: 'PATCH resource-groups/{id}', call: (token) => http(t.baseUrl, 'PATCH', `/api/organizations/${org.name}/resource-groups/${group}`, { token, body: { description: 'x' } }) },
      ...(t.jobs ? [{ name: 'GET jobs/{org}', call: (token: string) => http(t.baseUrl, 'GET', `/api/jobs/${org.name}`, { token }) }] : []),
    ];
    /** The status each caller gets on each route (admin routes: 403 for every other role). */
    const expected: Record<string, Record<string, number>> = {
      'GET members': { admin: 200, write: 200, contributor: 200, read: 200, no_access: 403, outsider: 403 },
      'GET settings/repositories': { admin: 200, write: 200, contributor: 200, read: 200, no_access: 403, outsider: 403 },
      'GET audit-log/export': { admin: 200, write: 403, contributor: 403, read: 403, no_access: 403, outsider: 403 },
      'PATCH resource-groups/{id}': { admin: 200, write: 403, contributor: 403, read: 403, no_access: 403, outsider: 403 },
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
          route: route.name, status: 403,
          body: { error: `Your role in the organization ${org.name} is no_access: it gives no access to the organization's resources` },
        });
      }
      const who = await http<{ orgs: { name: string; roleInOrg: string }[] }>(t.baseUrl, 'GET', '/api/whoami-v2', { token });
      expect(who.body.orgs.map((o) => ({ name: o.name, roleInOrg: o.roleInOrg }))).toEqual([{ name: org.name, roleInOrg: 'no_access' }]);
    });

    it('the role taken away (admin API) closes the routes at once; given back, opens them', async () => {
      const user = await makeUser(t, 'write', 'rbac-demoted');
      await addMember(t, org.name, user.name, 'read');
      const list = () => http(t.gateways[0], 'GET', `/api/organizations/${org.name}/members`, { token: user.token });
      expect((await list()).status).toBe(200);
      const last = t.gateways[t.gateways.length - 1];
      expect((await http(last, 'PATCH', `/admin/organizations/${org.name}/members/${user.name}`, { token: t.adminToken, body: { role: 'no_access' } })).status).toBe(200);
      expect(await statusWithin(list, 403)).toBe(403);
      expect((await http(last, 'PATCH', `/admin/organizations/${org.name}/members/${user.name}`, { token: t.adminToken, body: { role: 'read' } })).status).toBe(200);
      expect(await statusWithin(list, 200)).toBe(200);
    });
  });
}

/** Job log, event and metric streams end within ENDS_WITHIN_MS of the revocation of their token or the loss of the member's access (item 5). */
export function liveStreamsScenarios(target: () => AccessTarget): void {
  describe('open job streams end with their access (issue 22 item 5)', () => {
    let t: AccessTarget;
    const kinds = ['logs', 'events', 'metrics'] as const;
    const first = () => t.gateways[0];
    const last = () => t.gateways[t.gateways.length - 1];

    beforeAll(() => {
      t = target();
    });

    it("a token's revocation (through another replica) ends its own streams, and only its own", async () => {
      const user = await makeUser(t, 'write', 'stream-rev');
      const job = await runLoopingJob(t, user.token, user.name);
      const tokens = [user.token, (await makeToken(t, user.name)).token, (await makeToken(t, user.name)).token];
      const streams = await Promise.all(kinds.map((k, i) => openSse(`${first()}/api/jobs/${user.name}/${job}/${k}`, tokens[i])));
      try {
        // As in the report: the log stream is delivering lines when the token is revoked.
        await streams[0].received('data: ');
        for (let i = 0; i < kinds.length; i++) {
          const revoked = await http(last(), 'POST', '/api/credentials/revoke', { body: { credentials: [tokens[i]] } });
          expect(revoked.status).toBe(202);
          const answeredAt = Date.now();
          const endedAt = await streams[i].ended;
          expect({ stream: kinds[i], endedWithinMs: endedAt - answeredAt <= ENDS_WITHIN_MS }).toEqual({ stream: kinds[i], endedWithinMs: true });
          // The streams of the other tokens are still open.
          expect(streams.slice(i + 1).map((s) => s.isEnded())).toEqual(kinds.slice(i + 1).map(() => false));
        }
        expect(streams[0].text()).toContain('data: ');
        expect(streams[0].text()).toContain(': ended: the token was revoked or your access to this namespace changed');
      } finally {
        streams.forEach((s) => s.abort());
        await cancelJob(t, (await makeToken(t, user.name)).token, user.name, job);
      }
    }, 60_000);

    it("removing a member (through another replica) ends every stream of his on the organization's jobs", async () => {
      const admin = await makeUser(t, 'write', 'stream-admin');
      const member = await makeUser(t, 'write', 'stream-member');
      const org = await makeOrg(t, 'team', [admin.name], 'streams');
      await addMember(t, org.name, member.name, 'write');
      const job = await runLoopingJob(t, admin.token, org.name);
      const own = await runLoopingJob(t, member.token, member.name);
      const streams = await Promise.all(kinds.map((k) => openSse(`${first()}/api/jobs/${org.name}/${job}/${k}`, member.token)));
      const ownStream = await openSse(`${first()}/api/jobs/${member.name}/${own}/logs`, member.token);
      try {
        await streams[0].received('data: ');
        const removed = await http(last(), 'DELETE', `/admin/organizations/${org.name}/members/${member.name}`, { token: t.adminToken });
        expect(removed.status).toBe(204);
        const answeredAt = Date.now();
        const ended = await Promise.all(streams.map((s) => s.ended));
        expect(ended.map((at, i) => ({ stream: kinds[i], endedWithinMs: at - answeredAt <= ENDS_WITHIN_MS }))).toEqual(kinds.map((k) => ({ stream: k, endedWithinMs: true })));
        // His stream of his own namespace does not depend on the organization.
        expect(ownStream.isEnded()).toBe(false);
        expect((await http(first(), 'GET', `/api/jobs/${org.name}/${job}`, { token: member.token })).status).toBe(404);
      } finally {
        [...streams, ownStream].forEach((s) => s.abort());
        await cancelJob(t, admin.token, org.name, job);
        await cancelJob(t, member.token, member.name, own);
      }
    }, 60_000);

    it('a role changed to no_access ends the stream too', async () => {
      const admin = await makeUser(t, 'write', 'stream-admin');
      const member = await makeUser(t, 'write', 'stream-demoted');
      const org = await makeOrg(t, 'team', [admin.name], 'streams');
      await addMember(t, org.name, member.name, 'read');
      const job = await runLoopingJob(t, admin.token, org.name);
      const stream = await openSse(`${first()}/api/jobs/${org.name}/${job}/logs`, member.token);
      try {
        await stream.received('data: ');
        const changed = await http(last(), 'PATCH', `/admin/organizations/${org.name}/members/${member.name}`, { token: t.adminToken, body: { role: 'no_access' } });
        expect(changed.status).toBe(200);
        const answeredAt = Date.now();
        expect((await stream.ended) - answeredAt).toBeLessThanOrEqual(ENDS_WITHIN_MS);
      } finally {
        stream.abort();
        await cancelJob(t, admin.token, org.name, job);
      }
    }, 60_000);
  });
}

/** The audit log export, read slowly, is cut when its token is revoked or its caller stops being an admin (item 5). */
export function auditExportCutOffScenarios(target: () => AuditCutOffTarget): void {
  describe('an open audit log export ends with its access (issue 22 item 5)', () => {
    /** Opens a slowly read export of an organization with about 24 MB of events: far more than the socket buffers and the gateway's two pages hold. */
    const openLargeExport = async (t: AuditCutOffTarget, admins: TestUser[]) => {
      const org = await makeOrg(t, 'team', admins.map((a) => a.name), 'export');
      const prefix = randomBytes(4).toString('hex');
      await queryDatabase(t.databaseUrl, `INSERT INTO organizations.audit_events (id, organization_id, created_at, type, author, ip, doc)
        SELECT $2 || lpad(to_hex(i), 16, '0'), $1, timestamptz '2026-11-01' - (i || ' seconds')::interval, 'org.update_settings', 'bulk', null,
               json_build_object('_id', $2 || lpad(to_hex(i), 16, '0'), 'type', 'org.update_settings', 'message', 'bulk #' || i, 'data', repeat('x', 1000))::text
          FROM generate_series(1, 24000) AS i`, [org.id, prefix]);
      const answer = await openPaused(`${t.gateways[0]}/api/organizations/${org.name}/audit-log/export`, admins[0].token);
      expect(answer.status).toBe(200);
      return { org, answer };
    };
    /** Reading again drains what the buffers held, then meets the closed connection: it ended in time and is incomplete. */
    const expectCut = async (answer: Awaited<ReturnType<typeof openPaused>>, answeredAt: number) => {
      const { endedAt, body } = await answer.readToEnd();
      expect(endedAt - answeredAt).toBeLessThanOrEqual(ENDS_WITHIN_MS);
      expect(body.length).toBeLessThan(24_000_000);
      expect(body.trimEnd().endsWith(']')).toBe(false);
    };

    it("a large export read slowly is cut (left incomplete) within 1 s of its token's revocation through another replica", async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'export-admin');
      const { answer } = await openLargeExport(t, [admin]);
      const revoked = await http(t.gateways[t.gateways.length - 1], 'POST', '/api/credentials/revoke', { body: { credentials: [admin.token] } });
      expect(revoked.status).toBe(202);
      await expectCut(answer, Date.now());
    }, 60_000);

    it('is cut within 1 s of its caller losing the admin role (through another replica)', async () => {
      const t = target();
      const admin = await makeUser(t, 'write', 'export-admin');
      const other = await makeUser(t, 'write', 'export-admin2');
      const { org, answer } = await openLargeExport(t, [admin, other]);
      const changed = await http(t.gateways[t.gateways.length - 1], 'PATCH', `/admin/organizations/${org.name}/members/${admin.name}`, { token: t.adminToken, body: { role: 'write' } });
      expect(changed.status).toBe(200);
      await expectCut(answer, Date.now());
    }, 60_000);
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
        (await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org}/resource-groups`, { token: t.adminToken, body: { name: 'Team' } })).body.id;
      const [own, foreign] = [await groupOf(mine.name), await groupOf(theirs.name)];
      const spec = (resourceGroupId: string) => ({ dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'], resourceGroupId });
      const run = (ns: string, id: string) => http<{ error?: string; id?: string }>(t.baseUrl, 'POST', `/api/jobs/${ns}`, { token: admin.token, body: spec(id) });

      for (const [ns, id] of [[mine.name, foreign], [mine.name, 'ffffffffffffffffffffffff'], [admin.name, own]]) {
        const res = await run(ns, id);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: `resourceGroupId ${id} is not a resource group of ${ns}` } });
      }
      const scheduled = await http(t.baseUrl, 'POST', `/api/scheduled-jobs/${mine.name}`, { token: admin.token, body: { schedule: '@hourly', jobSpec: spec(foreign) } });
      expect({ status: scheduled.status, body: scheduled.body }).toEqual({ status: 400, body: { error: `jobSpec.resourceGroupId ${foreign} is not a resource group of ${mine.name}` } });

      const ok = await run(mine.name, own);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ resourceGroupId: own });
    }, 60_000);
  });
}

/** Polls `call` until it answers `status` (or 3 s pass); returns the last status. */
async function statusWithin(call: () => Promise<{ status: number }>, status: number): Promise<number> {
  const deadline = Date.now() + 3000;
  let last = (await call()).status;
  while (last !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    last = (await call()).status;
  }
  return last;
}

async function runLoopingJob(t: HubTarget, token: string, namespace: string): Promise<string> {
  const res = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${namespace}`, { token, body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: LOOP } });
  if (res.status !== 200) throw new Error(`run job answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Stops a looping job (with a token that can still change the namespace's jobs). */
async function cancelJob(t: HubTarget, token: string, namespace: string, jobId: string): Promise<void> {
  const res = await http(t.baseUrl, 'POST', `/api/jobs/${namespace}/${jobId}/cancel`, { token });
  if (res.status !== 200) throw new Error(`cancel answered ${res.status}: ${JSON.stringify(res.body)}`);
}

interface OpenSse {
  /** When the answer ended (Date.now()), whatever ended it; Infinity when still open 10 s after it was opened. */
  ended: Promise<number>;
  isEnded(): boolean;
  text(): string;
  /** Resolves once the answer's text contains `part` (fails after 20 s). */
  received(part: string): Promise<void>;
  abort(): void;
}

/** Opens a server-sent-events answer and resolves once the stream is open (its first comment arrived). */
async function openSse(url: string, token: string): Promise<OpenSse> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let endedAt = 0;
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => { opened = r; });
  const ending = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.includes(': stream open')) opened();
      }
    } catch {
      // aborted or cut: ended either way
    }
    endedAt = Date.now();
    opened();
    return endedAt;
  })();
  await open;
  // Not ended after 10 s counts as never (the assertion then fails with a time, not a jest timeout).
  const ended = Promise.race([ending, new Promise<number>((r) => setTimeout(() => r(Number.POSITIVE_INFINITY), 10_000).unref())]);
  const received = async (part: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!text.includes(part)) {
      if (Date.now() > deadline || endedAt > 0) throw new Error(`${url}: no ${JSON.stringify(part)} in ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { ended, isEnded: () => endedAt > 0, text: () => text, received, abort: () => controller.abort() };
}

/** A GET whose body is not read after its first chunk until readToEnd: a client that reads slowly. */
function openPaused(url: string, token: string): Promise<{ status: number; readToEnd(): Promise<{ endedAt: number; body: string }> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        res.pause();
        resolve({
          status: res.statusCode ?? 0,
          readToEnd: () => new Promise((done) => {
            let endedAt = 0;
            const finish = () => {
              endedAt ||= Date.now();
              done({ endedAt, body: Buffer.concat(chunks).toString('utf8') });
            };
            res.on('data', (c: Buffer) => chunks.push(c));
            // A cut connection ends the message with an error (aborted) and close; a complete one with end.
            res.once('end', finish);
            res.once('close', finish);
            res.on('error', () => undefined);
            res.resume();
          }),
        });
      });
    });
    req.once('error', reject);
    req.end();
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
      http<{ webhook: { id: string }; error?: string }>(t.baseUrl, 'POST', '/api/settings/webhooks', { token: user.token, body });

    it("hear nothing of the organization's private repos, whatever they watch (public ones still)", async () => {
      const tag = randomBytes(3).toString('hex');
      const watched = [{ type: 'org', name: org.name }, { type: 'model', name: `${org.name}/secret` }];
      expect((await createWebhook(reader, { watched, domains: ['repo'], url: t.capture.url(`/reader-${tag}`) })).status).toBe(200);
      expect((await createWebhook(blocked, { watched, domains: ['repo'], url: t.capture.url(`/noaccess-${tag}`) })).status).toBe(200);
      const event = repoEvent(`${org.name}/secret`, 'repo.content', 'private-1');
      const privateEvent = { ...event, repo: { ...(event['repo'] as Record<string, unknown>), private: true, owner: { id: org.id } } };
      for (const payload of [privateEvent, repoEvent(`${org.name}/open`, 'repo.content', 'public-1')]) {
        expect((await http(t.baseUrl, 'POST', '/admin/events', { token: t.adminToken, body: { subject: 'hub.events.repo.update', payload } })).status).toBeLessThan(300);
      }
      const actions = (path: string) => t.capture.at(path).map((d) => (d.json['event'] as Record<string, unknown>)['action']).sort();
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
        token: admin.token, body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['sh', '-c', 'echo org-secret-command'] },
      });
      expect(job.status).toBe(200);
      const body = (user: TestUser) => ({ watched: [{ type: 'model', name: `${user.name}/m` }], domains: ['repo'], jobSourceId: job.body.id });
      const refused = await createWebhook(blocked, body(blocked));
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 404, body: { error: `Job ${job.body.id} not found` } });
      expect((await createWebhook(reader, body(reader))).status).toBe(200);
    });

    it('a job webhook names no resource group (400); a copied job runs without its source\'s', async () => {
      const group = (await http<{ id: string }>(t.baseUrl, 'POST', `/admin/organizations/${org.name}/resource-groups`, { token: t.adminToken, body: { name: 'Jobs' } })).body.id;
      const job = { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['echo', 'copied'], resourceGroupId: group };
      const watched = [{ type: 'model', name: `${reader.name}/copy` }];
      const refused = await createWebhook(reader, { watched, domains: ['repo'], job });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400, body: { error: `job.resourceGroupId ${group} is not a resource group of your namespace: a webhook's jobs run there` },
      });
      if (!t.jobs) return;
      const source = await http<{ id: string; resourceGroupId?: string }>(t.baseUrl, 'POST', `/api/jobs/${org.name}`, { token: admin.token, body: job });
      expect({ status: source.status, group: source.body.resourceGroupId }).toEqual({ status: 200, group });
      expect((await createWebhook(reader, { watched, domains: ['repo'], jobSourceId: source.body.id })).status).toBe(200);
      await http(t.baseUrl, 'POST', '/admin/events', { token: t.adminToken, body: { subject: 'hub.events.repo.update', payload: repoEvent(`${reader.name}/copy`) } });
      const jobs = () => http<{ id: string; resourceGroupId?: string; command: string[] }[]>(t.baseUrl, 'GET', `/api/jobs/${reader.name}`, { token: reader.token });
      const deadline = Date.now() + 20_000;
      let copies = (await jobs()).body;
      while (copies.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        copies = (await jobs()).body;
      }
      expect(copies.map((c) => ({ command: c.command, resourceGroupId: c.resourceGroupId }))).toEqual([{ command: ['echo', 'copied'], resourceGroupId: undefined }]);
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
      const [reader, blocked, outsider] = [await makeUser(t, 'write', 'spec-reader'), await makeUser(t, 'write', 'spec-noaccess'), await makeUser(t, 'write', 'spec-out')];
      await addMember(t, org.name, reader.name, 'read');
      await addMember(t, org.name, blocked.name, 'no_access');
      const job = await http<{ id: string }>(t.baseUrl, 'POST', `/api/jobs/${org.name}`, { token: admin.token, body: { dockerImage: 'alpine:3', flavor: 'cpu-basic', command: ['true'] } });
      expect(job.status).toBe(200);
      const statuses: Record<string, number> = {};
      for (const [who, u] of Object.entries({ reader, blocked, outsider })) statuses[who] = await t.readJobSpec(job.body.id, { id: u.id, name: u.name });
      expect(statuses).toEqual({ reader: 200, blocked: 404, outsider: 404 });
    });
  });
}
