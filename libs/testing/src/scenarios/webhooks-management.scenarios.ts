import { makeUser, type TestUser } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';
import { webhooksClient, type WebhookJson } from './webhooks-helpers';

/** The management API of webhooks (spec 4.5, 4.6) as users meet it, in both run modes. */
export function webhooksManagementScenarios(target: () => WebhooksScenarioTarget): void {
  let alice: TestUser;
  let bob: TestUser;

  const t = (): WebhooksScenarioTarget => target();
  const { api, create, hook } = webhooksClient(t);

  beforeAll(async () => {
    alice = await makeUser(t(), 'write', 'alice');
    bob = await makeUser(t(), 'write', 'bob');
  });

  describe('management API (spec 4.5, 4.6)', () => {
    it('creates, reads, lists, replaces, disables, enables and deletes a webhook', async () => {
      const created = await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('crud'),
        secret: 's3cret',
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        url: hook('crud'),
        disabled: false,
        hasSecret: true,
        domains: ['repo'],
        watched: [{ type: 'user', name: alice.name, avatarUrl: expect.stringContaining(alice.name) }],
      });
      expect((await api(alice, 'GET', `/${created.id}`)).body).toEqual({ webhook: created });
      const list = await api<WebhookJson[]>(alice, 'GET', '');
      expect(list.body.map((w) => w.id)).toContain(created.id);

      const replaced = await api<{ webhook: WebhookJson }>(alice, 'POST', `/${created.id}`, {
        watched: [{ type: 'model', name: `${alice.name}/m` }],
        domains: ['repo', 'discussion'],
        url: hook('crud2'),
        secret: '',
      });
      expect(replaced.body.webhook).toEqual({
        ...created,
        url: hook('crud2'),
        hasSecret: false,
        domains: ['repo', 'discussion'],
        watched: [{ type: 'model', name: `${alice.name}/m` }],
      });

      expect((await api<{ webhook: WebhookJson }>(alice, 'POST', `/${created.id}/disable`)).body.webhook.disabled).toBe(
        true,
      );
      expect((await api<{ webhook: WebhookJson }>(alice, 'POST', `/${created.id}/enable`)).body.webhook.disabled).toBe(
        false,
      );
      const deleted = await api(alice, 'DELETE', `/${created.id}`);
      expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 200, body: {} });
      expect((await api(alice, 'GET', `/${created.id}`)).status).toBe(404);
    });

    it('never stores the secret in clear', async () => {
      const w = await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('enc'),
        secret: 'plain-secret-value',
      });
      const rows = await queryDatabase<{ secret_enc: string }>(
        t().databaseUrl,
        'SELECT secret_enc FROM webhooks.webhooks WHERE id = $1',
        [w.id],
      );
      expect(rows[0].secret_enc).toMatch(/^v1\./);
      expect(rows[0].secret_enc).not.toContain('plain-secret-value');
    });

    const watched = [{ type: 'model', name: 'a/b' }];
    it.each([
      ['no target', { watched, domains: ['repo'] }, /exactly one of url, job and jobSourceId/],
      [
        'two targets',
        { watched, domains: ['repo'], url: 'http://127.0.0.1/x', jobSourceId: '0123456789abcdef01234567' },
        /exactly one/,
      ],
      [
        'empty watched',
        { watched: [], domains: ['repo'], url: 'http://127.0.0.1/x' },
        /watched must contain at least 1 item/,
      ],
      ['missing domains', { watched, url: 'http://127.0.0.1/x' }, /domains must contain at least 1 item/],
      ['empty domains', { watched, domains: [], url: 'http://127.0.0.1/x' }, /domains must contain at least 1 item/],
      [
        'bad domain',
        { watched, domains: ['commits'], url: 'http://127.0.0.1/x' },
        /domains must hold only repo and discussion/,
      ],
      [
        'bad watched type',
        { watched: [{ type: 'team', name: 'x' }], domains: ['repo'], url: 'http://127.0.0.1/x' },
        /watched\[\]\.type must be one of/,
      ],
      [
        'watched without name',
        { watched: [{ type: 'user' }], domains: ['repo'], url: 'http://127.0.0.1/x' },
        /watched\[\]\.name must be a string/,
      ],
      ['relative url', { watched, domains: ['repo'], url: '/hook' }, /url must be an absolute http or https URL/],
      [
        'ftp url',
        { watched, domains: ['repo'], url: 'ftp://example.com/x' },
        /url must be an absolute http or https URL/,
      ],
      [
        'non-ASCII secret',
        { watched, domains: ['repo'], url: 'http://127.0.0.1/x', secret: 'sécret' },
        /secret must be printable ASCII/,
      ],
      [
        'control character secret',
        { watched, domains: ['repo'], url: 'http://127.0.0.1/x', secret: 'a\nb' },
        /secret must be printable ASCII/,
      ],
      [
        'bad flavor',
        { watched, domains: ['repo'], job: { flavor: 'gpu-huge', command: ['x'] } },
        /^job\.flavor must be one of/,
      ],
      [
        'empty command',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', command: [] } },
        /^job\.command must hold at least 1 item/,
      ],
      [
        'empty command item',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', command: [''] } },
        /^job\.command must be at least 1 character/,
      ],
      [
        'bad env key',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', environment: { '1X': 'y' } } },
        /^job\.environment key "1X"/,
      ],
      [
        'env value not a string',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', environment: { AB: 1 } } },
        /^job\.environment.AB must be a string/,
      ],
      [
        'bad secret key',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', secrets: { 'a-b': 'y' } } },
        /^job\.secrets key "a-b"/,
      ],
      [
        'zero timeout',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', timeoutSeconds: 0 } },
        /^job\.timeoutSeconds must be an integer greater than 0/,
      ],
      [
        'fractional timeout',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', timeoutSeconds: 1.5 } },
        /^job\.timeoutSeconds must be an integer/,
      ],
      [
        'zero attempts',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', attempts: 0 } },
        /^job\.attempts must be an integer of at least 1/,
      ],
      [
        'bad label key',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', labels: { 'a b': 'c' } } },
        /^job\.labels key "a b"/,
      ],
      [
        'long label value',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', labels: { a: 'x'.repeat(101) } } },
        /^job\.labels.a must be at most 100/,
      ],
      [
        'empty volumes',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', volumes: [] } },
        /^job\.volumes must hold at least 1 item/,
      ],
      [
        'relative mountPath',
        {
          watched,
          domains: ['repo'],
          job: { flavor: 'cpu-basic', volumes: [{ type: 'model', source: 'a/b', mountPath: 'data' }] },
        },
        /^job\.volumes\.0\.mountPath must start with \//,
      ],
      [
        'bad volume type',
        {
          watched,
          domains: ['repo'],
          job: { flavor: 'cpu-basic', volumes: [{ type: 'disk', source: 'a/b', mountPath: '/d' }] },
        },
        /^job\.volumes.0.type must be one of/,
      ],
      [
        '21 ports',
        {
          watched,
          domains: ['repo'],
          job: { flavor: 'cpu-basic', expose: { ports: Array.from({ length: 21 }, (_, i) => i + 1) } },
        },
        /^job\.expose.ports must hold at most 20/,
      ],
      [
        'port 0',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', expose: { ports: [0] } } },
        /^job\.expose.ports must hold integers 1..65535/,
      ],
      [
        'public port not exposed',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', expose: { ports: [80], portsPublic: [81] } } },
        /^job\.expose\.portsPublic must be a subset of ports$/,
      ],
      [
        'bad resource group',
        { watched, domains: ['repo'], job: { flavor: 'cpu-basic', resourceGroupId: 'xyz' } },
        /^job\.resourceGroupId must be 24 hexadecimal/,
      ],
      ['bad jobSourceId', { watched, domains: ['repo'], jobSourceId: 'nope' }, /jobSourceId must be a job id/],
    ])('answers 400 naming the problem: %s', async (_name, body, message) => {
      const res = await api<{ error: string }>(alice, 'POST', '', body);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: expect.stringMatching(message),
      });
    });

    it('accepts a job webhook and answers its job per spec 2.5 (secret values never)', async () => {
      const w = await create(alice, {
        watched: [{ type: 'model', name: 'a/b' }],
        domains: ['repo'],
        job: {
          flavor: 'cpu-basic',
          dockerImage: 'python:3.12',
          command: ['python', '-c', 'print(1)'],
          secrets: { HF_TOKEN: 'hf_x' },
          labels: { a: 'b' },
        },
      });
      expect(w).toMatchObject({
        job: {
          flavor: 'cpu-basic',
          dockerImage: 'python:3.12',
          command: ['python', '-c', 'print(1)'],
          environment: {},
          timeoutSeconds: null,
          secrets: ['HF_TOKEN'],
          labels: { a: 'b' },
        },
      });
      expect(w.url).toBeUndefined();
    });

    it("takes the older Python clients' bodies: null is absent, an empty watched on update keeps the list", async () => {
      const w = await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('old'),
        secret: null,
        jobSourceId: null,
        job: null,
      });
      expect(w.hasSecret).toBe(false);
      const updated = await api<{ webhook: WebhookJson }>(alice, 'POST', `/${w.id}`, {
        watched: [],
        url: hook('old2'),
        domains: null,
        secret: null,
      });
      expect(updated.status).toBe(200);
      expect(updated.body.webhook).toMatchObject({
        url: hook('old2'),
        domains: ['repo'],
        watched: [{ type: 'user', name: alice.name }],
      });
    });

    it("keeps every user to their own webhooks: another user's id is a 404 like a missing one", async () => {
      const w = await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('mine'),
      });
      for (const [method, path] of [
        ['GET', `/${w.id}`],
        ['POST', `/${w.id}/disable`],
        ['DELETE', `/${w.id}`],
        ['GET', `/${w.id}/logs`],
        ['POST', `/${w.id}/replay/0123456789abcdef01234567`],
      ] as const) {
        const res = await api<{ error: string }>(bob, method, path, method === 'POST' ? {} : undefined);
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
      }
      const upd = await api(bob, 'POST', `/${w.id}`, {
        watched: [{ type: 'user', name: bob.name }],
        domains: ['repo'],
        url: hook('x'),
      });
      expect(upd.status).toBe(404);
      expect((await api(alice, 'GET', '/0123456789abcdef01234567')).status).toBe(404);
      expect((await api<WebhookJson[]>(bob, 'GET', '')).body.map((x) => x.id)).not.toContain(w.id);
      expect((await api(alice, 'GET', `/${w.id}`)).body).toEqual({ webhook: w });
    });

    it('answers 403 to a read token that tries to change webhooks', async () => {
      const reader = await makeUser(t(), 'read', 'reader');
      const res = await api(reader, 'POST', '', {
        watched: [{ type: 'user', name: reader.name }],
        domains: ['repo'],
        url: hook('r'),
      });
      expect(res.status).toBe(403);
    });
  });
}
