import { Webhook } from 'standardwebhooks';
import { type HubTarget, makeOrg, makeUser, type TestUser, uniqueName } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { type WebhookCapture } from '../webhook-capture';
import { metricSum, repoEvent, webhooksClient, type WebhookJson } from './webhooks-helpers';
import { webhooksManagementScenarios } from './webhooks-management.scenarios';

export interface WebhooksScenarioTarget extends HubTarget {
  capture: WebhookCapture;
  databaseUrl: string;
  /** The /metrics text of every process that delivers (one or more replicas). */
  scrapeMetrics: () => Promise<string[]>;
}

/** Settings every run mode gives the hub for these scenarios: fast retries, loopback allowed. */
export const WEBHOOK_TEST_ENV = {
  HUB_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  HUB_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2',
  HUB_WEBHOOK_SUSPEND_AFTER_FAILURES: '4',
  HUB_WEBHOOK_POLL_MS: '50',
  HUB_WEBHOOK_TIMEOUT_MS: '2000',
  HUB_SECRET_KEY: 'webhook-secret-key-for-the-tests',
  HUB_WEBHOOKS_MAX_PER_USER: '30', // caps.scenarios: WEBHOOKS_MAX_PER_USER
  // Fairness (webhooks-fairness.scenarios, decision 0505): small, so a test's backlog outgrows the slots.
  HUB_WEBHOOK_CONCURRENCY: '32',
  HUB_WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: '4',
  HUB_WEBHOOK_MAX_IN_FLIGHT_PER_USER: '8',
  // Recovery bounds (webhooks-recovery.scenarios): a cool-down a test can wait out.
  HUB_WEBHOOK_RECOVERY_COOLDOWN_SECONDS: '8',
  HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR: '4',
};

type Body = Record<string, unknown>;

export function webhooksScenarios(target: () => WebhooksScenarioTarget): void {
  let alice: TestUser;
  let bob: TestUser;

  const t = (): WebhooksScenarioTarget => target();
  const { api, create, publish, hook, logsOf } = webhooksClient(t);

  beforeAll(async () => {
    alice = await makeUser(t(), 'write', 'alice');
    bob = await makeUser(t(), 'write', 'bob');
  });

  webhooksManagementScenarios(target);

  describe('deliveries (architecture section 7)', () => {
    it('delivers each scope to matching webhooks only, with the secret header and a Standard Webhooks signature', async () => {
      const org = await makeOrg(t(), 'team', [alice.name]);
      const repo = `${org.name}/${uniqueName('m')}`;
      const secret = 'whsec-test-value';
      const byOrg = await create(alice, {
        watched: [{ type: 'org', name: org.name }],
        domains: ['repo', 'discussion'],
        url: hook('scopes'),
        secret,
      });
      await create(alice, {
        watched: [{ type: 'org', name: org.name }],
        domains: ['discussion'],
        url: hook('discussion-only'),
      });
      await create(alice, {
        watched: [{ type: 'model', name: `${org.name}/other` }],
        domains: ['repo'],
        url: hook('other-repo'),
      });
      const scopes = ['repo', 'repo.content', 'repo.config', 'discussion', 'discussion.comment'];
      for (const scope of scopes)
        await publish(
          `hub.events.${scope.startsWith('discussion') ? 'discussion' : 'repo'}.${scope.replace('.', '_')}`,
          repoEvent(repo, scope),
        );
      const got = await t().capture.waitFor('/scopes', 5);
      expect(got.map((d) => (d.json['event'] as Body)['scope']).sort()).toEqual([...scopes].sort());
      for (const d of got) {
        expect(d.headers['content-type']).toBe('application/json');
        expect(d.headers['x-webhook-secret']).toBe(secret);
        expect(d.json['webhook']).toEqual({ id: byOrg.id, version: 3 });
        const verified = new Webhook(secret, { format: 'raw' }).verify(d.body, {
          'webhook-id': String(d.headers['webhook-id']),
          'webhook-timestamp': String(d.headers['webhook-timestamp']),
          'webhook-signature': String(d.headers['webhook-signature']),
        });
        expect(verified).toMatchObject({ repo: { name: repo } });
      }
      await t().capture.waitFor('/discussion-only', 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(t().capture.at('/discussion-only')).toHaveLength(2);
      expect(t().capture.at('/other-repo')).toHaveLength(0);
      const after = (await api<{ webhook: WebhookJson }>(alice, 'GET', `/${byOrg.id}`)).body.webhook;
      expect(after.lastTriggerAt).toEqual(expect.any(String));
    });

    it('retries a failing receiver until it succeeds, with the same webhook-id; a redirect is a failure', async () => {
      t().capture.on('/flaky', (n) =>
        n === 1
          ? { status: 500 }
          : n === 2
            ? { status: 302, headers: { location: hook('elsewhere') } }
            : { status: 200 },
      );
      const repo = `${alice.name}/${uniqueName('r')}`;
      await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: hook('flaky'),
        secret: 'k',
      });
      await publish('hub.events.repo.update', repoEvent(repo));
      const got = await t().capture.waitFor('/flaky', 3);
      expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(1);
      expect(t().capture.at('/elsewhere')).toHaveLength(0);
    });

    it('honours Retry-After', async () => {
      t().capture.on('/later', (n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
      const repo = `${alice.name}/${uniqueName('r')}`;
      await create(alice, { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: hook('later') });
      await publish('hub.events.repo.update', repoEvent(repo));
      const got = await t().capture.waitFor('/later', 2, 10_000);
      expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(1900);
    });

    it('never suspends a receiver that alternates 500 and 200', async () => {
      t().capture.on('/alternating', (n) => ({ status: n % 2 === 1 ? 500 : 200 }));
      const repo = `${alice.name}/${uniqueName('r')}`;
      const w = await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: hook('alternating'),
      });
      for (let i = 0; i < 5; i++) {
        await publish('hub.events.repo.update', repoEvent(repo, 'repo.content', `update-${i}`));
        await t().capture.waitFor('/alternating', 2 * (i + 1));
      }
      expect((await api<{ webhook: WebhookJson }>(alice, 'GET', `/${w.id}`)).body.webhook.disabled).toBe(false);
    });

    it('suspends an always-failing webhook, tells the owner (event), and enable clears it', async () => {
      t().capture.on('/down', () => ({ status: 500 }));
      const repo = `${alice.name}/${uniqueName('r')}`;
      const w = await create(alice, { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: hook('down') });
      await publish('hub.events.repo.update', repoEvent(repo));
      await t().capture.waitFor('/down', 4);
      const deadline = Date.now() + 5000;
      let disabled: unknown = false;
      while (disabled !== 'suspended-after-failure' && Date.now() < deadline) {
        disabled = (await api<{ webhook: WebhookJson }>(alice, 'GET', `/${w.id}`)).body.webhook.disabled;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(disabled).toBe('suspended-after-failure');
      const events = await queryDatabase<{ payload: string }>(
        t().databaseUrl,
        `SELECT payload FROM webhooks.outbox WHERE subject LIKE '%hub.webhooks.webhook.suspended'`,
      );
      expect(events.map((e) => JSON.parse(e.payload) as Body)).toContainEqual(
        expect.objectContaining({ webhookId: w.id, ownerId: alice.id }),
      );
      // Suspended: a new event is not delivered.
      const before = t().capture.at('/down').length;
      await publish('hub.events.repo.update', repoEvent(repo, 'repo.content', 'again'));
      await new Promise((r) => setTimeout(r, 500));
      expect(t().capture.at('/down')).toHaveLength(before);
      const enabled = await api<{ webhook: WebhookJson }>(alice, 'POST', `/${w.id}/enable`);
      expect(enabled.body.webhook.disabled).toBe(false);
    });

    it('refuses loopback addresses outside the allowed networks without sending anything', async () => {
      const repo = `${alice.name}/${uniqueName('r')}`;
      const w = await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: t().capture.url('/ssrf', '127.0.0.2'),
      });
      await publish('hub.events.repo.update', repoEvent(repo));
      const deadline = Date.now() + 5000;
      let logs: Body[] = [];
      while (logs.length === 0 && Date.now() < deadline) {
        logs = await logsOf(alice, w.id);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(logs[0]).toMatchObject({ status: null, error: expect.stringMatching(/blocked/) });
      expect(t().capture.at('/ssrf')).toHaveLength(0);
    });

    it('reports deliveries by outcome, attempt latency, retries, suspensions and queue depth on /metrics', async () => {
      // Runs after the retry and suspension scenarios above: their attempts are counted.
      t().capture.on('/much-later', () => ({ status: 503, headers: { 'retry-after': '3600' } }));
      const repo = `${alice.name}/${uniqueName('r')}`;
      const w = await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: hook('much-later'),
      });
      await publish('hub.events.repo.update', repoEvent(repo));
      await t().capture.waitFor('/much-later', 1);
      let texts: string[] = [];
      const deadline = Date.now() + 5000;
      while (
        !((metricSum(texts, 'hub_webhook_queue_depth', { state: 'scheduled' }) ?? 0) >= 1) &&
        Date.now() < deadline
      ) {
        texts = await t().scrapeMetrics();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(
        metricSum(texts, 'hub_webhook_attempts_total', { outcome: 'success', trigger: 'scheduled' }),
      ).toBeGreaterThan(0);
      expect(
        metricSum(texts, 'hub_webhook_attempts_total', { outcome: 'http_5xx', trigger: 'scheduled' }),
      ).toBeGreaterThan(0);
      expect(
        metricSum(texts, 'hub_webhook_attempts_total', { outcome: 'http_3xx', trigger: 'scheduled' }),
      ).toBeGreaterThan(0);
      expect(metricSum(texts, 'hub_webhook_attempt_duration_seconds_count')).toBeGreaterThan(0);
      expect(metricSum(texts, 'hub_webhook_retries_total')).toBeGreaterThan(0);
      expect(metricSum(texts, 'hub_webhook_suspensions_total')).toBeGreaterThanOrEqual(1);
      expect(metricSum(texts, 'hub_webhook_queue_depth', { state: 'scheduled' })).toBeGreaterThanOrEqual(1);
      expect(metricSum(texts, 'hub_webhook_queue_depth', { state: 'due' })).not.toBeNull();
      await api(alice, 'DELETE', `/${w.id}`);
    });

    it('never tells a webhook about a private repo its owner cannot see', async () => {
      const org = await makeOrg(t(), 'team', [alice.name]);
      const privateEvent = (repo: string, ownerId: string, action: string): Body => {
        const e = repoEvent(repo, 'repo.content', action);
        return { ...e, repo: { ...(e['repo'] as Body), private: true, owner: { id: ownerId } } };
      };
      // Watching a user: only that user's own webhook hears of their private repo.
      await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('own-private'),
      });
      await create(bob, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: hook('stranger-private'),
      });
      // Watching an organization: its member hears of its private repos, an outsider does not.
      await create(alice, {
        watched: [{ type: 'org', name: org.name }],
        domains: ['repo'],
        url: hook('member-private'),
      });
      await create(bob, {
        watched: [
          { type: 'org', name: org.name },
          { type: 'model', name: `${org.name}/secret` },
        ],
        domains: ['repo'],
        url: hook('outsider-private'),
      });
      await publish('hub.events.repo.update', privateEvent(`${alice.name}/hidden`, alice.id, 'p1'));
      await publish('hub.events.repo.update', privateEvent(`${org.name}/secret`, org.id, 'p2'));
      await publish('hub.events.repo.update', repoEvent(`${org.name}/open`, 'repo.content', 'p3'));
      await t().capture.waitFor('/own-private', 1);
      const member = await t().capture.waitFor('/member-private', 2);
      expect(member.map((d) => (d.json['event'] as Body)['action']).sort()).toEqual(['p2', 'p3']);
      const outsider = await t().capture.waitFor('/outsider-private', 1);
      await new Promise((r) => setTimeout(r, 500));
      expect(outsider.map((d) => (d.json['event'] as Body)['action'])).toEqual(['p3']);
      expect(t().capture.at('/outsider-private')).toHaveLength(1);
      expect(t().capture.at('/stranger-private')).toHaveLength(0);
    });

    it("lists the delivery log newest first with a Link header, and replay answers the receiver's status", async () => {
      t().capture.on('/replayed', (n) => ({ status: n <= 3 ? 200 : 202 }));
      const repo = `${alice.name}/${uniqueName('r')}`;
      const w = await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: hook('replayed'),
        secret: 'replay-secret',
      });
      for (let i = 0; i < 3; i++) await publish('hub.events.repo.update', repoEvent(repo, 'repo.content', `a${i}`));
      await t().capture.waitFor('/replayed', 3);
      await new Promise((r) => setTimeout(r, 200));
      const page1 = await api<Body[]>(alice, 'GET', `/${w.id}/logs?limit=2`);
      expect(page1.body).toHaveLength(2);
      expect((page1.body[0]['requestHeaders'] as Body)['x-webhook-secret']).toBe('[redacted]');
      const link = page1.headers.get('link') ?? '';
      expect(link).toMatch(/rel="next"/);
      const next = new URL(/<([^>]+)>/.exec(link)?.[1] ?? '');
      const page2 = await api<Body[]>(alice, 'GET', `/${w.id}/logs${next.search}`);
      expect(page2.body).toHaveLength(1);
      const replay = await api<{ status: number }>(alice, 'POST', `/${w.id}/replay/${String(page2.body[0]['id'])}`);
      expect(replay.body).toEqual({ status: 202 });
      const again = (await t().capture.waitFor('/replayed', 4))[3];
      expect(again.headers['x-webhook-secret']).toBe('replay-secret');
      expect((await logsOf(alice, w.id))[0]).toMatchObject({ trigger: 'replay', status: 202 });
    });

    it('sends a test event on request: signed like a delivery, event.action ping, logged as a test attempt; only to a URL, only by its owner', async () => {
      t().capture.on('/tested', () => ({ status: 204 }));
      const repo = `${alice.name}/${uniqueName('t')}`;
      const w = await create(alice, {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: hook('tested'),
        secret: 'test-event-secret',
      });
      const answer = await api<{ status: number }>(alice, 'POST', `/${w.id}/test`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 204 });
      const [got] = await t().capture.waitFor('/tested', 1);
      expect(got.json).toMatchObject({
        event: { action: 'ping', scope: 'webhook' },
        repo: { type: 'model', name: repo },
        webhook: { id: w.id, version: 3 },
      });
      expect(got.headers['x-webhook-secret']).toBe('test-event-secret');
      const verified = new Webhook('test-event-secret', { format: 'raw' }).verify(got.body, {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      });
      expect(verified).toMatchObject({ event: { action: 'ping' } });
      expect((await logsOf(alice, w.id))[0]).toMatchObject({ trigger: 'test', status: 204 });
      // Another user's webhook is not found; a read token may not send.
      expect((await api(bob, 'POST', `/${w.id}/test`)).status).toBe(404);
      const reader = await makeUser(t(), 'read', 'reader');
      expect((await api(reader, 'POST', `/${w.id}/test`)).status).toBe(403);
      // A receiver that does not answer: status 0, logged all the same.
      const silent = await create(alice, {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: 'http://127.0.0.1:9/nothing-listens-here',
      });
      expect((await api<{ status: number }>(alice, 'POST', `/${silent.id}/test`)).body).toEqual({ status: 0 });
      expect((await logsOf(alice, silent.id))[0]).toMatchObject({ trigger: 'test', status: null });
      expect(t().capture.at('/tested')).toHaveLength(1);
    });
  });
}
