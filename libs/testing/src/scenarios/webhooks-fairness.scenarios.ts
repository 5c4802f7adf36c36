import { http } from '../http-client';
import { makeUser, type TestUser, uniqueName } from '../hub-factory';
import { repoEvent } from './webhooks-helpers';
import { type WebhooksScenarioTarget } from './webhooks.scenarios';

type Body = Record<string, unknown>;

/**
 * Issue 43 items 1 and 2 (decision 0505), both run modes: one user's webhooks pointing at a receiver
 * that holds every request (each attempt runs to HUB_WEBHOOK_TIMEOUT_MS) do not stall another user's.
 * What the receivers see is the measure: how many of the noisy user's requests came before the
 * victim's delivery. First come, first served, the victim waits behind the whole backlog (or, for
 * ordered webhooks, until the noisy ones are suspended); with the fair claim it is served in the
 * first round, while the noisy user holds at most its caps (HUB_WEBHOOK_MAX_IN_FLIGHT_PER_* of
 * WEBHOOK_TEST_ENV, per replica).
 */
export function webhookFairnessScenarios(target: () => WebhooksScenarioTarget): void {
  const t = (): WebhooksScenarioTarget => target();
  const api = <T = Body>(user: TestUser, method: string, path: string, body?: unknown) =>
    http<T>(t().baseUrl, method, `/api/settings/webhooks${path}`, { token: user.token, body });
  const publish = async (repo: string, actions: string[]): Promise<void> => {
    for (const action of actions) {
      const res = await http(t().baseUrl, 'POST', '/admin/events', {
        token: t().adminToken,
        body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', action) },
      });
      expect(res.status).toBeLessThan(300);
    }
  };
  const createHooks = async (user: TestUser, repo: string, path: string, count: number, options?: Body) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await api<{ webhook: { id: string } }>(user, 'POST', '', {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        url: t().capture.url(path),
      });
      expect(created.status).toBe(200);
      ids.push(created.body.webhook.id);
      if (options)
        expect((await api(user, 'PUT', `/${created.body.webhook.id}/delivery-options`, options)).status).toBe(200);
    }
    return ids;
  };
  /** A receiver that answers nothing until the test ends (the hub gives up at its timeout). */
  const holding = (path: string): (() => void) => {
    let release = (): void => undefined;
    const held = new Promise<{ status: number }>((r) => (release = () => r({ status: 500 })));
    t().capture.on(path, () => held);
    return release;
  };
  const waitFor = async (what: () => boolean, timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  const noisyBefore = (noisyPath: string, at: number): number =>
    t()
      .capture.at(noisyPath)
      .filter((d) => d.at <= at).length;
  const cleanUp = async (user: TestUser, ids: string[]): Promise<void> => {
    await Promise.all(ids.map((id) => api(user, 'DELETE', `/${id}`)));
  };

  describe('no tenant slows another (issue 43)', () => {
    it("a user's 160 deliveries to a receiver that never answers do not delay another user's delivery", async () => {
      const mallory = await makeUser(t(), 'write', 'mallory');
      const bob = await makeUser(t(), 'write', 'bobfair');
      const noisyRepo = `${mallory.name}/${uniqueName('noisy')}`;
      const noisyPath = `/${uniqueName('slow')}`;
      const release = holding(noisyPath);
      const ids = await createHooks(mallory, noisyRepo, noisyPath, 20);
      const bobRepo = `${bob.name}/${uniqueName('calm')}`;
      const bobPath = `/${uniqueName('calm')}`;
      const [bobHook] = await createHooks(bob, bobRepo, bobPath, 1);
      try {
        // 8 events × 20 webhooks: more than the delivery slots of every replica together.
        await publish(noisyRepo, ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
        await waitFor(() => t().capture.at(noisyPath).length >= 8);
        await publish(bobRepo, ['calm']);
        const [served] = await t().capture.waitFor(bobPath, 1, 60_000);

        // First come, first served, at least 64 of mallory's requests come first (the whole first round).
        expect(noisyBefore(noisyPath, served.at)).toBeLessThanOrEqual(40);
      } finally {
        release();
        await cleanUp(mallory, ids);
        await api(bob, 'DELETE', `/${bobHook}`);
      }
    }, 120_000);

    it("72 ordered webhooks whose first delivery hangs take no place in the claim: another user's ordered and paced webhooks are served", async () => {
      const noisy = await Promise.all([1, 2, 3].map((i) => makeUser(t(), 'write', `mal${i}`)));
      const bob = await makeUser(t(), 'write', 'bobordered');
      const noisyPath = `/${uniqueName('ordered-slow')}`;
      const release = holding(noisyPath);
      const owned: [TestUser, string[]][] = [];
      try {
        const repos: string[] = [];
        for (const user of noisy) {
          const repo = `${user.name}/${uniqueName('noisy')}`;
          owned.push([user, await createHooks(user, repo, noisyPath, 24, { ordered: true })]);
          repos.push(repo);
        }
        const bobRepo = `${bob.name}/${uniqueName('calm')}`;
        const orderedPath = `/${uniqueName('bob-ordered')}`;
        const pacedPath = `/${uniqueName('bob-paced')}`;
        owned.push([bob, await createHooks(bob, bobRepo, orderedPath, 1, { ordered: true })]);
        owned.push([bob, await createHooks(bob, bobRepo, pacedPath, 1, { maxPerSecond: 10 })]);
        // Everything set up: the noise starts, and bob publishes once it is under way.
        for (const repo of repos) await publish(repo, ['o1', 'o2']);
        await waitFor(() => t().capture.at(noisyPath).length >= 8);
        await publish(bobRepo, ['b1', 'b2']);
        const ordered = await t().capture.waitFor(orderedPath, 2, 60_000);
        const paced = await t().capture.waitFor(pacedPath, 2, 60_000);

        expect(ordered.map((d) => String((d.json['event'] as Body)['action']))).toEqual(['b1', 'b2']);
        // Before: each claim's 64 places went to the noisy webhooks (oldest `next_at`, never moved),
        // so bob waited until enough of them were suspended (HUB_WEBHOOK_SUSPEND_AFTER_FAILURES: 4
        // attempts each) and drained. Now bob is served while every noisy webhook has had fewer.
        const last = Math.max(ordered[1].at, paced[1].at);
        const attemptsBefore = new Map<string, number>();
        for (const d of t()
          .capture.at(noisyPath)
          .filter((r) => r.at <= last)) {
          const id = String((d.json['webhook'] as Body)['id']);
          attemptsBefore.set(id, (attemptsBefore.get(id) ?? 0) + 1);
        }
        expect(Math.max(0, ...attemptsBefore.values())).toBeLessThan(4);
      } finally {
        release();
        for (const [user, ids] of owned) await cleanUp(user, ids);
      }
    }, 240_000);
  });
}
