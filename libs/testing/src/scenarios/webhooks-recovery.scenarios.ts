import { type http } from '../http-client';
import { type TestUser, uniqueName } from '../hub-factory';
import { queryDatabase } from '../test-database';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

type Body = Record<string, unknown>;

/** What the extension scenarios share: their users (made in their beforeAll), the webhooks API, a publish. */
export interface WebhookExtensionContext {
  users: () => { alice: TestUser; bob: TestUser; reader: TestUser };
  api: <T = Body>(user: TestUser, method: string, path: string, body?: unknown) => ReturnType<typeof http<T>>;
  publish: (repo: string, action: string) => Promise<void>;
}

/** Issue 27 item 2: bulk recovery of failed deliveries (decision 0502); both run modes. */
export function webhookRecoveryScenarios(t: () => WebhooksScenarioTarget, ctx: WebhookExtensionContext): void {
  const { api, publish } = ctx;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  beforeAll(() => {
    ({ alice, bob, reader } = ctx.users());
  });

  describe('bulk recovery (issue 27 item 2)', () => {
    interface Recovery {
      id: string;
      state: string;
      queued: number;
      sent: number;
      succeeded: number;
      failed: number;
      skipped: number;
      createdAt: string;
    }
    const recoveryDone = async (user: TestUser, id: string, recoveryId: string): Promise<Recovery> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await api<Recovery>(user, 'GET', `/${id}/recoveries/${recoveryId}`);
        expect(res.status).toBe(200);
        if (res.body.state === 'done' || Date.now() > deadline) return res.body;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const settled = async (id: string): Promise<void> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [{ n }] = await queryDatabase<{ n: number }>(
          t().databaseUrl,
          `SELECT count(*)::int AS n FROM webhooks.deliveries WHERE webhook_id = $1 AND state = 'pending'`,
          [id],
        );
        if (n === 0 || Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it('resends every delivery that failed (or was dropped by the suspension) in the window once, with its webhook-id; progress until done; bounded (issue 43)', async () => {
      const repo = `${alice.name}/${uniqueName('outage')}`;
      const path = `/outage-${alice.name}`;
      let up = false;
      // Set while a recovery's first resend is to be held (the recovery stays running meanwhile).
      let hold: Promise<void> | undefined;
      t().capture.on(path, async () => {
        if (hold) await hold;
        return { status: up ? 200 : 500 };
      });
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: t().capture.url(path),
      });
      const id = created.body.webhook.id;
      const since = new Date(Date.now() - 1000).toISOString();
      // Two events: the all-in-one suite's daily limit (8) holds them and three recoveries of them.
      for (const action of ['one', 'two']) await publish(repo, action);
      // The outage: retries fail until the webhook is suspended; what was still queued is dropped.
      const deadline = Date.now() + 30_000;
      while (
        (await api<{ webhook: { disabled: unknown } }>(alice, 'GET', `/${id}`)).body.webhook.disabled !==
          'suspended-after-failure' &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await settled(id);
      const originalIds = new Set(
        t()
          .capture.at(path)
          .map((d) => String(d.headers['webhook-id'])),
      );
      expect(originalIds.size).toBeGreaterThanOrEqual(1);

      const refused = await api<{ error: string }>(alice, 'POST', `/${id}/recover`, { since });
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 409,
        error: expect.stringContaining('enable it first'),
      });
      expect((await api(alice, 'POST', `/${id}/enable`)).status).toBe(200);

      // Still down: each delivery is sent once more, fails, and is not retried. While it runs, a
      // second recovery is refused.
      let before = t().capture.at(path).length;
      let release = (): void => undefined;
      hold = new Promise<void>((r) => (release = r));
      const failing = await api<Recovery>(alice, 'POST', `/${id}/recover`, { since });
      expect({ status: failing.status, queued: failing.body.queued }).toEqual({ status: 202, queued: 2 });
      await t().capture.waitFor(path, before + 1);
      const running = await api<{ error: string }>(alice, 'POST', `/${id}/recover`, { since });
      expect({ status: running.status, error: running.body.error }).toEqual({
        status: 409,
        error: `Recovery ${failing.body.id} of this webhook is still running`,
      });
      hold = undefined;
      release();
      expect(await recoveryDone(alice, id, failing.body.id)).toMatchObject({
        state: 'done',
        queued: 2,
        sent: 2,
        succeeded: 0,
        failed: 2,
        skipped: 0,
      });
      // Recovered and failed again: left out of another recovery within the cool-down (8 s here), said in `skipped`.
      const cooling = await api<Recovery>(alice, 'POST', `/${id}/recover`, { since });
      expect({ status: cooling.status, body: cooling.body }).toMatchObject({
        status: 202,
        body: { state: 'done', queued: 0, skipped: 2 },
      });
      await new Promise((r) => setTimeout(r, 1000)); // a retry would come within 0.2 s
      expect(t().capture.at(path).length - before).toBe(2);
      // The cool-down is a time rule: waited out.
      const cooled = Date.parse(failing.body.createdAt) + 8000 + 500;
      await new Promise((r) => setTimeout(r, Math.max(0, cooled - Date.now())));

      // Back up: recovered, each once, with the webhook-id of its first attempt (receivers dedupe on it).
      up = true;
      before = t().capture.at(path).length;
      const res = await api<Recovery>(alice, 'POST', `/${id}/recover`, { since, until: new Date().toISOString() });
      expect(res.status).toBe(202);
      expect(res.headers.get('location')).toMatch(
        new RegExp(`/api/settings/webhooks/${id}/recoveries/${res.body.id}$`),
      );
      expect(res.body).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{24}$/), queued: 2, skipped: 0, since });
      expect(await recoveryDone(alice, id, res.body.id)).toMatchObject({
        state: 'done',
        queued: 2,
        sent: 2,
        succeeded: 2,
        failed: 0,
        finishedAt: expect.any(String),
      });
      const resent = t().capture.at(path).slice(before);
      expect(resent.map((d) => String((d.json['event'] as Body)['action'])).sort()).toEqual(['one', 'two']);
      const resentIds = resent.map((d) => String(d.headers['webhook-id']));
      expect(new Set(resentIds).size).toBe(2);
      const seenBefore = new Set(
        t()
          .capture.at(path)
          .slice(0, before)
          .map((d) => String(d.headers['webhook-id'])),
      );
      expect(resentIds.filter((w) => !seenBefore.has(w))).toEqual([]);
      expect([...originalIds].filter((w) => !resentIds.includes(w))).toEqual([]);
      const logged = (await api<{ trigger: string }[]>(alice, 'GET', `/${id}/logs?limit=2`)).body;
      expect(logged.map((l) => l.trigger)).toEqual(['recovery', 'recovery']);

      // Nothing failed is left: an empty recovery, done at once; the earlier one keeps its counts.
      const empty = await api<Recovery>(alice, 'POST', `/${id}/recover`, { since });
      expect(empty.body).toMatchObject({ state: 'done', queued: 0, sent: 0 });
      expect((await api<Recovery>(alice, 'GET', `/${id}/recoveries/${failing.body.id}`)).body).toMatchObject({
        queued: 2,
        sent: 2,
        failed: 2,
      });

      // Four started this hour (HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR is 4 here): the fifth is refused.
      const fifth = await api<{ error: string }>(alice, 'POST', `/${id}/recover`, { since });
      expect({ status: fifth.status, error: fifth.body.error }).toEqual({
        status: 429,
        error: expect.stringMatching(/the limit is 4 \(HUB_WEBHOOK_MAX_RECOVERIES_PER_HOUR\); retry in \d+ s$/),
      });
    });

    it('counts against HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY: none left, a recovery is refused with 429 naming it', async () => {
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: t().capture.url('/rec-spent'),
      });
      const id = created.body.webhook.id;
      // The webhook's deliveries of the last 24 hours, past any run mode's limit.
      await queryDatabase(
        t().databaseUrl,
        `INSERT INTO webhooks.trigger_counts (webhook_id, hour, count) VALUES ($1, date_trunc('hour', now()), 1000000)`,
        [id],
      );
      const res = await api<{ error: string }>(alice, 'POST', `/${id}/recover`, { since: '2026-01-01T00:00:00Z' });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 429,
        error: expect.stringContaining('(HUB_WEBHOOK_MAX_TRIGGERS_PER_DAY), recoveries included'),
      });
    });

    it('validates the window, keeps to the owner and refuses read tokens', async () => {
      const created = await api<{ webhook: { id: string } }>(alice, 'POST', '', {
        watched: [{ type: 'user', name: alice.name }],
        domains: ['repo'],
        url: t().capture.url('/rec-rules'),
      });
      const id = created.body.webhook.id;
      for (const [body, field] of [
        [{}, 'since'],
        [{ since: 'yesterday' }, 'since'],
        [{ since: new Date().toISOString(), until: 'soon' }, 'until'],
        [{ since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' }, 'since must be before until'],
      ] as [unknown, string][]) {
        const res = await api<{ error: string }>(alice, 'POST', `/${id}/recover`, body);
        expect({ body, status: res.status, error: res.body.error }).toEqual({
          body,
          status: 400,
          error: expect.stringContaining(field),
        });
      }
      const since = '2026-01-01T00:00:00Z';
      expect((await api(reader, 'POST', `/${id}/recover`, { since })).status).toBe(403);
      expect((await api(bob, 'POST', `/${id}/recover`, { since })).status).toBe(404);
      const mine = await api<Recovery>(alice, 'POST', `/${id}/recover`, { since });
      expect(mine.status).toBe(202);
      expect((await api(bob, 'GET', `/${id}/recoveries/${mine.body.id}`)).status).toBe(404);
      expect((await api(alice, 'GET', `/${id}/recoveries/0123456789abcdef01234567`)).status).toBe(404);
      expect((await api(alice, 'GET', `/${id}/recoveries/not-an-id`)).status).toBe(404);
    });
  });
}
