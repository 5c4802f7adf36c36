import { http } from '../http-client';
import { makeUser, type TestUser, uniqueName } from '../hub-factory';
import { repoEvent } from './webhooks-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

type Body = Record<string, unknown>;

/** Issue 27 item 4: delivery options per webhook, pacing and event order (decision 0503); both run modes. */
export function webhookOptionsScenarios(target: () => WebhooksScenarioTarget): void {
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  const t = (): WebhooksScenarioTarget => target();
  const api = <T = Body>(user: TestUser, method: string, path: string, body?: unknown) =>
    http<T>(t().baseUrl, method, `/api/settings/webhooks${path}`, { token: user.token, body });
  const publish = async (repo: string, actions: string[]): Promise<void> => {
    // At once, as a burst of events would come: the pacing, not the publisher, spaces them.
    const results = await Promise.all(
      actions.map((action) =>
        http(t().baseUrl, 'POST', '/admin/events', {
          token: t().adminToken,
          body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', action) },
        }),
      ),
    );
    for (const r of results) expect(r.status).toBeLessThan(300);
  };
  const createHook = async (user: TestUser, repo: string, path: string): Promise<string> => {
    const created = await api<{ webhook: { id: string } }>(user, 'POST', '', {
      watched: [{ type: 'model', name: repo }],
      domains: ['repo'],
      url: t().capture.url(path),
    });
    expect(created.status).toBe(200);
    return created.body.webhook.id;
  };
  const actionOf = (d: { json: Body }) => String((d.json['event'] as Body)['action']);

  beforeAll(async () => {
    [alice, bob, reader] = await Promise.all([
      makeUser(t(), 'write', 'pacer'),
      makeUser(t(), 'write', 'nosy'),
      makeUser(t(), 'read', 'looker'),
    ]);
  });

  describe('delivery options (issue 27 item 4)', () => {
    it('GET answers the defaults; PUT replaces them as a whole; the webhook object itself is unchanged', async () => {
      const id = await createHook(alice, `${alice.name}/${uniqueName('opts')}`, `/opts-${alice.name}`);
      const before = (await api(alice, 'GET', `/${id}`)).body;
      expect(await api(alice, 'GET', `/${id}/delivery-options`)).toMatchObject({
        status: 200,
        body: { maxPerSecond: null, ordered: false },
      });
      const set = await api(alice, 'PUT', `/${id}/delivery-options`, { maxPerSecond: 2.5, ordered: true });
      expect({ status: set.status, body: set.body }).toEqual({
        status: 200,
        body: { maxPerSecond: 2.5, ordered: true },
      });
      expect((await api(alice, 'GET', `/${id}/delivery-options`)).body).toEqual({ maxPerSecond: 2.5, ordered: true });
      // Left out is off.
      expect((await api(alice, 'PUT', `/${id}/delivery-options`, { ordered: true })).body).toEqual({
        maxPerSecond: null,
        ordered: true,
      });
      expect((await api(alice, 'PUT', `/${id}/delivery-options`, {})).body).toEqual({
        maxPerSecond: null,
        ordered: false,
      });
      expect((await api(alice, 'GET', `/${id}`)).body).toEqual(before);
    });

    it('refuses bad options with a 400 naming them; another user gets a 404, a read token a 403', async () => {
      const id = await createHook(alice, `${alice.name}/${uniqueName('bad')}`, `/bad-${alice.name}`);
      const cases: [unknown, RegExp][] = [
        [{ maxPerSecond: 0 }, /maxPerSecond must be at least 0.01/],
        [{ maxPerSecond: 1001 }, /maxPerSecond must be at most 1000/],
        [{ maxPerSecond: '5' }, /maxPerSecond must be a number/],
        [{ maxPerSecond: 1.234 }, /at most two decimals/],
        [{ ordered: 'yes' }, /ordered must be true or false/],
        [{ maxPerSecond: 5, burst: 10 }, /unknown delivery option "burst"/],
        [[1], /JSON object/],
      ];
      for (const [body, message] of cases) {
        const res = await api<{ error: string }>(alice, 'PUT', `/${id}/delivery-options`, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.error).toMatch(message);
      }
      expect((await api(bob, 'GET', `/${id}/delivery-options`)).status).toBe(404);
      expect((await api(bob, 'PUT', `/${id}/delivery-options`, { ordered: true })).status).toBe(404);
      expect((await api(reader, 'PUT', `/${id}/delivery-options`, { ordered: true })).status).toBe(403);
      expect((await api(alice, 'GET', `/${id}/delivery-options`)).body).toEqual({ maxPerSecond: null, ordered: false });
    });

    it('maxPerSecond paces the deliveries to the webhook (every replica shares the pace)', async () => {
      const repo = `${alice.name}/${uniqueName('paced')}`;
      const path = `/paced-${alice.name}`;
      const id = await createHook(alice, repo, path);
      expect((await api(alice, 'PUT', `/${id}/delivery-options`, { maxPerSecond: 4 })).status).toBe(200);
      // Within the all-in-one suite's daily limit of 8 deliveries per webhook.
      const n = 8;
      await publish(
        repo,
        Array.from({ length: n }, (_, i) => `p-${i}`),
      );
      const got = await t().capture.waitFor(path, n, 30_000);
      const times = got.map((d) => d.at).sort((a, b) => a - b);
      // 8 at 4/s: about 1.75 s (a poll interval of credit may go at once: the test env polls every 50 ms).
      expect(times[n - 1] - times[0]).toBeGreaterThanOrEqual(1400);
      // The slots are 250 ms apart; receipts jitter with the machine's load (two sent 250 ms apart
      // may arrive together), so a second of receipts may hold a slot or two more than the rate.
      for (let i = 0; i < n; i++) {
        const inOneSecond = times.filter((x) => x >= times[i] && x < times[i] + 1000).length;
        expect(inOneSecond).toBeLessThanOrEqual(6);
      }
      expect(new Set(got.map(actionOf)).size).toBe(n);
    }, 60_000);

    it('ordered sends one at a time in event order; a failing delivery holds the rest until it succeeds', async () => {
      const repo = `${alice.name}/${uniqueName('fifo')}`;
      const path = `/fifo-${alice.name}`;
      let inFlight = 0;
      let most = 0;
      let failedOnce = false;
      t().capture.on(path, async (_n, d) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        // The third event fails twice, then succeeds (the test env retries after 0.2 s).
        if (actionOf(d) === 'o-2' && !failedOnce) {
          failedOnce = true;
          return { status: 500 };
        }
        return { status: 200 };
      });
      const id = await createHook(alice, repo, path);
      expect((await api(alice, 'PUT', `/${id}/delivery-options`, { ordered: true })).status).toBe(200);
      const actions = Array.from({ length: 8 }, (_, i) => `o-${i}`);
      // One after the other, so the bus's order is this order.
      for (const a of actions) await publish(repo, [a]);
      const got = await t().capture.waitFor(path, actions.length + 1, 30_000);
      expect(got.map(actionOf)).toEqual(['o-0', 'o-1', 'o-2', 'o-2', 'o-3', 'o-4', 'o-5', 'o-6', 'o-7']);
      expect(most).toBe(1);
    });
  });
}
