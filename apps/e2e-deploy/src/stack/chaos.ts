import { http, makeUser, repoEvent, uniqueName } from '@hub/testing';
import { type ComposeStack, docker, pause } from './compose-stack';
import { type ReceiverContainer } from './receiver';

export interface ChaosLedger {
  /** Events the gateway accepted (2xx): each must reach the receiver. */
  accepted: number;
  /** Publishes refused or cut off while NATS or Postgres restarted (sent again under a new name). */
  refused: number;
  /** Accepted events the receiver never got. */
  missing: string[];
  /** Events the receiver got that were never sent (must be none). */
  unexpected: string[];
  /** Events delivered more than once with different webhook-id headers (must be 0). */
  unstableIds: number;
  /** Extra deliveries of the same event (at-least-once: allowed, reported). */
  duplicates: number;
  steps: string[];
  seconds: number;
}

/**
 * Publishes events through the gateway until `count` were accepted, while a chaos task, driven by
 * the receiver's progress, kills one webhooks container with kill -9 (a quarter delivered),
 * restarts the NATS container (half) and the Postgres container (70 %); then waits, with a
 * generous cap, until every accepted event reached the receiver container.
 */
export async function deliverThroughChaos(
  stack: ComposeStack,
  receiver: ReceiverContainer,
  hub: { baseUrl: string; adminToken: string },
  count: number,
  capMs = 900_000,
): Promise<ChaosLedger> {
  const started = Date.now();
  const user = await makeUser(hub, 'write', 'chaos');
  const repo = `${user.name}/${uniqueName('bulk')}`;
  const path = `/${uniqueName('chaos')}`;
  const created = await http(stack.baseUrl, 'POST', '/api/settings/webhooks', {
    token: user.token,
    body: { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiver.url(path), secret: 'chaos' },
  });
  if (created.status !== 200) throw new Error(`webhook create answered ${created.status}`);

  const accepted = new Set<string>();
  const sent = new Set<string>();
  let refused = 0;
  let next = 0;
  const deadline = started + capMs;
  const publishOne = async (): Promise<void> => {
    while (accepted.size < count && Date.now() < deadline) {
      const action = `e${next++}`;
      sent.add(action);
      try {
        const res = await fetch(`${stack.baseUrl}/admin/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ subject: 'hub.events.repo.update', payload: repoEvent(repo, 'repo.content', action) }),
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) {
          accepted.add(action);
          continue;
        }
      } catch {
        // cut off: counted as refused (the receiver may still get it: it was sent)
      }
      refused += 1;
      await pause(500);
    }
  };

  let delivered = 0;
  const steps: string[] = [];
  const until = async (share: number): Promise<void> => {
    while (delivered < count * share && Date.now() < deadline) await pause(250);
  };
  let chaosError: Error | undefined;
  const chaos = (async () => {
    await until(0.25);
    const [victim] = await stack.containers('webhooks');
    if (!victim) throw new Error('no webhooks container to kill');
    await stack.killNine(victim);
    steps.push('kill -9 webhooks');
    await until(0.5);
    await docker('restart', '-t', '5', ...(await stack.containers('nats')));
    steps.push('restart nats');
    await until(0.7);
    await docker('restart', '-t', '10', ...(await stack.containers('postgres')));
    steps.push('restart postgres');
  })().catch((e: Error) => {
    chaosError = e;
  });
  const publishing = Promise.all(Array.from({ length: 16 }, publishOne));

  let got: Awaited<ReturnType<ReceiverContainer['deliveries']>> = [];
  const missingNow = (): string[] => {
    const seen = new Set(got.map((d) => d.action));
    return [...accepted].filter((a) => !seen.has(a));
  };
  for (;;) {
    got = await receiver.deliveries(path).catch(() => got);
    delivered = new Set(got.map((d) => d.action)).size;
    const done = accepted.size >= count && steps.length === 3 && missingNow().length === 0;
    if (done || chaosError || Date.now() > deadline) break;
    await pause(500);
  }
  await publishing;
  await chaos;
  if (chaosError) throw chaosError;

  const ids = new Map<string, Set<string>>();
  for (const d of got) ids.set(d.action, (ids.get(d.action) ?? new Set()).add(d.id));
  return {
    accepted: accepted.size,
    refused,
    missing: missingNow(),
    unexpected: [...ids.keys()].filter((a) => !sent.has(a)),
    unstableIds: [...ids.values()].filter((s) => s.size > 1).length,
    duplicates: got.length - ids.size,
    steps,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}
