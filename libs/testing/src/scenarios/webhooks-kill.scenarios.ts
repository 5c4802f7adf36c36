import { http } from '../http-client';
import { type HubTarget, makeUser, uniqueName } from '../hub-factory';
import { type WebhookCapture } from '../webhook-capture';
import { repoEvent } from './webhooks-helpers';

export interface KillNineTarget extends HubTarget {
  capture: WebhookCapture;
  /** Kills the process running deliveries with SIGKILL (and starts it again when there is no other). */
  killMidway(): Promise<void>;
  /** Kill only once every event was accepted (the all-in-one hub is also the one accepting them). */
  killAfterPublishing?: boolean;
}

export interface KillNineLedger {
  published: number;
  delivered: number;
  duplicates: number;
  /** Events delivered more than once with different webhook-id headers (must be 0). */
  unstableIds: number;
  /** Distinct events the receiver had when the process was killed (less than published). */
  deliveredAtKill: number;
}

/**
 * Publishes `count` events matching one webhook, kills the delivering process with kill -9 when
 * about a quarter has arrived, and waits until every event reached the receiver: the ledger
 * counts each event id once, duplicates apart. Every wait is on progress: it ends early only when
 * nothing moved for `stallMs`. When the kill waits for every event to be
 * published, the receiver holds its answers past the first quarter until the kill, so deliveries
 * are in flight when it comes however fast the hub delivers.
 */
export async function deliverThroughKillNine(
  t: KillNineTarget,
  count = 2000,
  stallMs = 120_000,
): Promise<KillNineLedger> {
  const user = await makeUser(t, 'write', 'kill');
  const repo = `${user.name}/${uniqueName('bulk')}`;
  const path = `/${uniqueName('bulk')}`;
  const created = await http<{ webhook: { id: string } }>(t.baseUrl, 'POST', '/api/settings/webhooks', {
    token: user.token,
    body: {
      watched: [{ type: 'model', name: repo }],
      domains: ['repo'],
      url: t.capture.url(path),
      secret: 'kill-nine-secret',
    },
  });
  if (created.status !== 200) throw new Error(`create answered ${created.status}`);
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  if (t.killAfterPublishing)
    t.capture.on(path, async (n) => {
      if (n > count / 4) await held;
      return { status: 200, body: '{}' };
    });
  let killed = false;
  let published = false;
  let publishedSoFar = 0;
  let gaveUp = false;
  let deliveredAtKill = 0;
  const killing = (async () => {
    // Gives up only when neither the publishing nor the deliveries moved for two minutes, or when a
    // failed publish ended the test (this loop would keep jest alive).
    const ready = await untilDoneOrStalled(
      () => gaveUp || (t.capture.at(path).length >= count / 4 && (!t.killAfterPublishing || published)),
      () => t.capture.at(path).length + publishedSoFar,
      120_000,
      10,
    );
    if (!ready || gaveUp) return;
    deliveredAtKill = new Set(
      t.capture.at(path).map((d) => String((d.json['event'] as Record<string, unknown>)['action'])),
    ).size;
    await t.killMidway();
    release();
    killed = true;
  })();
  try {
    for (let i = 0; i < count; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
          const res = await http(t.baseUrl, 'POST', '/admin/events', {
            token: t.adminToken,
            body: { subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', `e${i + j}`) },
          });
          if (res.status >= 300) throw new Error(`publish answered ${res.status}`);
          publishedSoFar++;
        }),
      );
    }
  } catch (e) {
    gaveUp = true;
    release();
    throw e;
  }
  published = true;
  await killing;
  if (!killed) {
    // What the user would look at: the webhook's state and its last logged attempts.
    const id = created.body.webhook.id;
    const state = await http<{ webhook: { disabled: unknown } }>(t.baseUrl, 'GET', `/api/settings/webhooks/${id}`, {
      token: user.token,
    });
    const logs = await http<unknown[]>(t.baseUrl, 'GET', `/api/settings/webhooks/${id}/logs?limit=5`, {
      token: user.token,
    });
    throw new Error(
      `the process was never killed: ${publishedSoFar} of ${count} published, ${t.capture.at(path).length} delivered ` +
        `(the kill waits for ${count / 4}), nothing moved for 120 s; the webhook's disabled: ` +
        `${JSON.stringify(state.body.webhook?.disabled)}, its last attempts: ${JSON.stringify(logs.body).slice(0, 1500)}`,
    );
  }
  const ids = (): Map<string, Set<string>> => {
    const seen = new Map<string, Set<string>>();
    for (const d of t.capture.at(path)) {
      const action = String((d.json['event'] as Record<string, unknown>)['action']);
      const set = seen.get(action) ?? new Set<string>();
      set.add(String(d.headers['webhook-id']));
      seen.set(action, set);
    }
    return seen;
  };
  await untilDoneOrStalled(
    () => ids().size >= count,
    () => ids().size,
    stallMs,
    100,
  );
  const seen = ids();
  return {
    published: count,
    delivered: seen.size,
    duplicates: t.capture.at(path).length - seen.size,
    unstableIds: [...seen.values()].filter((s) => s.size > 1).length,
    deliveredAtKill,
  };
}

/**
 * Waits until `done()`, on progress rather than on a deadline a busy machine misses: it gives up
 * (answering false) only when `progress()` has not changed for `stallMs`.
 */
async function untilDoneOrStalled(
  done: () => boolean,
  progress: () => number,
  stallMs: number,
  everyMs: number,
): Promise<boolean> {
  let seen = progress();
  let movedAt = Date.now();
  while (!done()) {
    if (Date.now() - movedAt > stallMs) return false;
    await new Promise((r) => setTimeout(r, everyMs));
    const now = progress();
    if (now !== seen) [seen, movedAt] = [now, Date.now()];
  }
  return true;
}
