import { http } from '../http-client';
import { makeUser, type TestUser, uniqueName } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { repoEvent } from './webhooks-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';
import { webhookRecoveryScenarios } from './webhooks-recovery.scenarios';

type Body = Record<string, unknown>;
interface LogJson {
  id: string;
  deliveryId: string;
  status: number | null;
  payload: { event: { action: string }; repo: { name: string } };
  createdAt: string;
}

/** Issue 27: delivery log search, custom headers (decision 0502); both run modes. */
export function webhookExtensionScenarios(target: () => WebhooksScenarioTarget): void {
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  const t = (): WebhooksScenarioTarget => target();
  const api = <T = Body>(user: TestUser, method: string, path: string, body?: unknown) =>
    http<T>(t().baseUrl, method, `/api/settings/webhooks${path}`, { token: user.token, body });
  const publish = async (repo: string, action: string): Promise<void> => {
    const res = await http(t().baseUrl, 'POST', '/admin/events', {
      token: t().adminToken,
      body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', action) },
    });
    expect(res.status).toBeLessThan(300);
  };
  /** Polls the log until `ready` holds (a busy machine delivers late), with a generous cap. */
  const logsUntil = async (user: TestUser, id: string, ready: (logs: LogJson[]) => boolean): Promise<LogJson[]> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const logs = (await api<LogJson[]>(user, 'GET', `/${id}/logs?limit=100`)).body;
      if (ready(logs) || Date.now() > deadline) return logs;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    [alice, bob, reader] = await Promise.all([
      makeUser(t(), 'write', 'searcher'),
      makeUser(t(), 'write', 'snoop'),
      makeUser(t(), 'read', 'reader'),
    ]);
  });

  describe('delivery log search (issue 27 item 1)', () => {
    let id = '';
    let repoA = '';
    let repoB = '';
    const search = async (query: string, user = alice) => {
      const res = await api<LogJson[]>(user, 'GET', `/${id}/logs?${query}`);
      return { status: res.status, body: res.body, link: res.headers.get('link') ?? undefined };
    };
    const actions = (logs: LogJson[]) => logs.map((l) => `${l.payload.event.action}:${l.status}`);

    beforeAll(async () => {
      repoA = `${alice.name}/${uniqueName('alpha')}`;
      repoB = `${alice.name}/${uniqueName('beta')}`;
      const path = `/search-${alice.name}`;
      // `break`: 500 on its first attempt, 200 on the retry; `hold`: 503 with a retry an hour away (stays pending).
      const seen = new Set<string>();
      t().capture.on(path, (_n, d) => {
        const action = String((d.json['event'] as Body)['action']);
        const first = !seen.has(String(d.headers['webhook-id']));
        seen.add(String(d.headers['webhook-id']));
        if (action === 'hold') return { status: 503, headers: { 'retry-after': '3600' } };
        return action === 'break' && first ? { status: 500 } : { status: 200 };
      });
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [
          { type: 'model', name: repoA },
          { type: 'model', name: repoB },
        ],
        domains: ['repo'],
        url: t().capture.url(path),
      });
      expect(created.status).toBe(200);
      id = created.body.webhook.id;
      // One at a time, so the log's order is the publishing order.
      const steps: [string, string, (l: LogJson[]) => boolean][] = [
        [repoA, 'ship', (l) => l.length >= 1],
        [repoA, 'break', (l) => l.length >= 3],
        [repoB, 'ship', (l) => l.length >= 4],
        [repoB, 'hold', (l) => l.length >= 5],
      ];
      for (const [repo, action, ready] of steps) {
        await publish(repo, action);
        expect((await logsUntil(alice, id, ready)).length).toBeGreaterThanOrEqual(1);
      }
    });

    it('without filters lists every attempt newest first', async () => {
      expect(actions((await search('limit=100')).body)).toEqual([
        'hold:503',
        'ship:200',
        'break:200',
        'break:500',
        'ship:200',
      ]);
    });

    it('filters by status, httpStatus, event, repo and q, alone and together', async () => {
      expect(actions((await search('status=failed')).body)).toEqual(['hold:503', 'break:500']);
      expect(actions((await search('status=succeeded')).body)).toEqual(['ship:200', 'break:200', 'ship:200']);
      expect(actions((await search('status=pending')).body)).toEqual(['hold:503']);
      expect(actions((await search('httpStatus=500')).body)).toEqual(['break:500']);
      expect((await search('httpStatus=0')).body).toEqual([]);
      expect(actions((await search('event=repo.content.break')).body)).toEqual(['break:200', 'break:500']);
      expect(actions((await search(`repo=${encodeURIComponent(repoB)}`)).body)).toEqual(['hold:503', 'ship:200']);
      expect(actions((await search(`q=${encodeURIComponent(repoA.split('/')[1])}`)).body)).toEqual([
        'break:200',
        'break:500',
        'ship:200',
      ]);
      expect(
        actions((await search(`event=repo.content.ship&repo=${encodeURIComponent(repoA)}&status=succeeded`)).body),
      ).toEqual(['ship:200']);
      expect((await search('event=repo.content.nothing')).body).toEqual([]);
    });

    it('filters by since and until', async () => {
      const all = (await search('limit=100')).body;
      const newest = all[0].createdAt;
      expect(actions((await search(`since=${encodeURIComponent(newest)}`)).body)).toEqual(['hold:503']);
      expect(actions((await search(`until=${encodeURIComponent(all[3].createdAt)}`)).body)).toEqual(['ship:200']);
      expect(
        (await search(`since=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).body,
      ).toEqual([]);
    });

    it('pages a filtered search with the cursor in the Link header, which keeps the filters', async () => {
      const first = await search('status=succeeded&limit=2');
      expect(actions(first.body)).toEqual(['ship:200', 'break:200']);
      const next = /<([^>]+)>; rel="next"/.exec(first.link ?? '')?.[1] ?? '';
      expect(next).toContain('status=succeeded');
      const url = new URL(next);
      const second = await search(url.search.slice(1));
      expect(actions(second.body)).toEqual(['ship:200']);
      expect(second.link).toBeUndefined();
    });

    it("refuses a malformed filter with a 400 naming it, and another user's webhook is a 404", async () => {
      for (const [query, field] of [
        ['status=lost', 'status'],
        ['httpStatus=abc', 'httpStatus'],
        ['httpStatus=700', 'httpStatus'],
        ['event=a%20b', 'event'],
        ['since=yesterday', 'since'],
        ['until=2026-13-01', 'until'],
        [`q=${'x'.repeat(201)}`, 'q'],
        [`repo=${'r'.repeat(201)}`, 'repo'],
      ]) {
        const res = await search(query);
        expect({ query, status: res.status, error: (res.body as unknown as { error: string }).error }).toEqual({
          query,
          status: 400,
          error: expect.stringContaining(field),
        });
      }
      expect((await search('status=failed', bob)).status).toBe(404);
    });
  });

  describe('custom headers (issue 27 item 3)', () => {
    it('sends the headers with every delivery, answers names and hints only, and logs them redacted', async () => {
      const repo = `${alice.name}/${uniqueName('hdr')}`;
      const path = `/headers-${alice.name}`;
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: t().capture.url(path),
        secret: 'hdr-secret',
      });
      const id = created.body.webhook.id;
      expect((await api(alice, 'GET', `/${id}/headers`)).body).toEqual({ headers: [] });
      const token = 'Bearer abcdefghijklmnop-wxyz';
      const put = await api(alice, 'PUT', `/${id}/headers`, {
        headers: [
          { name: 'Authorization', value: token },
          { name: 'X-Tenant', value: 'acme' },
        ],
      });
      expect({ status: put.status, body: put.body }).toEqual({
        status: 200,
        body: {
          headers: [
            { name: 'Authorization', hint: 'wxyz' },
            { name: 'X-Tenant', hint: '' },
          ],
        },
      });
      expect((await api(alice, 'GET', `/${id}/headers`)).body).toEqual(put.body);
      // The webhook object itself is unchanged (spec 2.4: no additional properties).
      expect(Object.keys((await api<{ webhook: Body }>(alice, 'GET', `/${id}`)).body.webhook).sort()).toEqual([
        'disabled',
        'domains',
        'hasSecret',
        'id',
        'url',
        'watched',
      ]);

      await publish(repo, 'update');
      const [got] = await t().capture.waitFor(path, 1);
      expect(got.headers).toMatchObject({
        authorization: token,
        'x-tenant': 'acme',
        'x-webhook-secret': 'hdr-secret',
        'content-type': 'application/json',
      });
      expect(got.headers['webhook-signature']).toEqual(expect.stringMatching(/^v1,/));
      const logs = await logsUntil(alice, id, (l) => l.length >= 1);
      expect((logs[0] as unknown as { requestHeaders: Record<string, string> }).requestHeaders).toMatchObject({
        authorization: '[redacted]',
        'x-tenant': '[redacted]',
      });
      expect(JSON.stringify(logs)).not.toContain('abcdefghijklmnop');

      // [] removes them: the next delivery goes without.
      expect((await api(alice, 'PUT', `/${id}/headers`, { headers: [] })).body).toEqual({ headers: [] });
      await publish(repo, 'again');
      const second = (await t().capture.waitFor(path, 2))[1];
      expect(second.headers['authorization']).toBeUndefined();
      expect(second.headers['x-tenant']).toBeUndefined();
    });

    it('keeps the values sealed at rest', async () => {
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: t().capture.url('/sealed'),
      });
      const id = created.body.webhook.id;
      expect(
        (
          await api(alice, 'PUT', `/${id}/headers`, {
            headers: [{ name: 'X-Api-Key', value: 'plain-text-never-stored' }],
          })
        ).status,
      ).toBe(200);
      const rows = await queryDatabase<{ headers_enc: string }>(
        t().databaseUrl,
        'SELECT headers_enc FROM webhooks.webhooks WHERE id = $1',
        [id],
      );
      expect(rows[0].headers_enc).toEqual(expect.any(String));
      expect(rows[0].headers_enc).not.toContain('plain-text-never-stored');
      expect(rows[0].headers_enc).not.toContain('X-Api-Key');
    });

    it('refuses reserved, malformed and repeated names and bad values with a 400 naming them', async () => {
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: t().capture.url('/bad-headers'),
      });
      const id = created.body.webhook.id;
      const cases: [unknown, string][] = [
        [{ headers: [{ name: 'Connection', value: 'close' }] }, 'reserved'],
        [{ headers: [{ name: 'transfer-encoding', value: 'chunked' }] }, 'reserved'],
        [{ headers: [{ name: 'Webhook-Signature', value: 'v1,forged' }] }, 'reserved'],
        [{ headers: [{ name: 'X-Webhook-Secret', value: 'x' }] }, 'reserved'],
        [{ headers: [{ name: 'Host', value: 'evil.test' }] }, 'reserved'],
        [{ headers: [{ name: 'Traceparent', value: '00-x' }] }, 'reserved'],
        [{ headers: [{ name: 'bad name', value: 'x' }] }, 'headers[].name'],
        [{ headers: [{ name: 'X-Ok', value: 'a\r\nX-Injected: 1' }] }, 'headers[].value'],
        [{ headers: [{ name: 'X-Ok', value: '' }] }, 'headers[].value'],
        [{ headers: [{ name: 'X-Ok', value: 'v'.repeat(1025) }] }, 'headers[].value'],
        [
          {
            headers: [
              { name: 'X-A', value: '1' },
              { name: 'x-a', value: '2' },
            ],
          },
          'unique',
        ],
        [{ headers: Array.from({ length: 21 }, (_, i) => ({ name: `X-${i}`, value: 'v' })) }, 'at most 20'],
        [{ headers: 'Authorization: x' }, 'headers must be an array'],
        [{}, 'headers'],
      ];
      for (const [body, message] of cases) {
        const res = await api<{ error: string }>(alice, 'PUT', `/${id}/headers`, body);
        expect({ body, status: res.status, error: res.body.error }).toEqual({
          body,
          status: 400,
          error: expect.stringContaining(message),
        });
      }
      expect((await api(alice, 'GET', `/${id}/headers`)).body).toEqual({ headers: [] });
    });

    it("a read token gets 403; another user's webhook is a 404", async () => {
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: t().capture.url('/owned'),
      });
      const id = created.body.webhook.id;
      const body = { headers: [{ name: 'X-A', value: '1' }] };
      expect((await api(bob, 'PUT', `/${id}/headers`, body)).status).toBe(404);
      expect((await api(bob, 'GET', `/${id}/headers`)).status).toBe(404);
      const mine = await api<{ webhook: { id: string } }>(reader, 'GET', '');
      expect(mine.status).toBe(200);
      expect((await api(reader, 'PUT', `/${id}/headers`, body)).status).toBe(403);
      expect((await api(alice, 'GET', `/${id}/headers`)).body).toEqual({ headers: [] });
    });
  });

  webhookRecoveryScenarios(t, { users: () => ({ alice, bob, reader }), api, publish });
}
