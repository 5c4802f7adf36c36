import { type DeadLetterMessage, type EventDescriptor, Events } from '@hub/contracts';
import { http } from '../http-client';
import { type HubTarget, makeUser } from '../hub-factory';
import { discussionEvent, hexId } from '../notification-factory';
import { inboxClient, sleep } from './notifications-helpers';

export interface EventValidationTarget extends HubTarget {
  /** Publishes straight on the bus, as another hub area would (no /admin/events check on the way). */
  publishRaw(event: EventDescriptor<unknown>, payload: unknown, msgId: string): Promise<void>;
  /** Every dead letter seen on the bus since the suite's hub started (collected as they come). */
  deadLetters(): DeadLetterMessage[];
}

/**
 * Consumers validate before they act (issue 22): a discussion event the notifications consumer
 * cannot take goes to `hub.deadletter.<subject>` at its first delivery, not after retries of a
 * handler that throws; `POST /admin/events` refuses such a payload up front, naming the field.
 */
export function eventValidationScenarios(target: () => EventValidationTarget): void {
  const t = target;
  const { inbox } = inboxClient(t);

  it.each(['actor', 'repo'])(
    'dead-letters a discussion event without %s at once (one delivery, invalid), and notifies no one',
    async (field) => {
      const [alice, bob] = [await makeUser(t()), await makeUser(t())];
      const payload = discussionEvent({ actor: alice, repo: `${alice.name}/${hexId()}`, mentions: [bob] });
      delete payload[field];
      const msgId = hexId();
      await t().publishRaw(Events.Hub.of('discussion.create'), payload, msgId);
      const ours = (): DeadLetterMessage[] =>
        t()
          .deadLetters()
          .filter((d) => d.msgId === msgId && d.consumer.includes('notifications-discussion'));
      const deadline = Date.now() + 15_000;
      while (ours().length === 0 && Date.now() < deadline) await sleep(50);
      expect(ours()).toEqual([
        expect.objectContaining({
          subject: expect.stringMatching(/hub\.events\.discussion\.create$/),
          reason: 'invalid',
          deliveryCount: 1,
          error: `${field} must be an object`,
          payload,
        }),
      ]);
      // Not retried: no second dead letter (a `failed` one) comes, and bob has nothing.
      await sleep(1500);
      expect(ours()).toHaveLength(1);
      expect((await inbox(bob)).body.count.all).toBe(0);
    },
  );

  it('POST /admin/events answers 400 naming the field for a payload a consumer of its subject would refuse', async () => {
    const [alice, bob] = [await makeUser(t()), await makeUser(t())];
    const payload = discussionEvent({ actor: alice, repo: `${alice.name}/${hexId()}`, mentions: [bob] });
    const post = (subject: string, body: Record<string, unknown>) =>
      http<{ error: string }>(t().baseUrl, 'POST', '/admin/events', {
        token: t().adminToken,
        body: { subject, payload: body },
      });
    const withoutActor = { ...payload };
    delete withoutActor['actor'];
    const refused = await post('hub.events.discussion.create', withoutActor);
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 400,
      error: 'payload does not fit hub.events.discussion.create: actor must be an object',
    });
    const badRepo = await post('hub.events.repo.update', {
      event: { action: 'update', scope: 'repo' },
      repo: { type: 'model', name: 'no-slash' },
    });
    expect({ status: badRepo.status, error: badRepo.body.error }).toEqual({
      status: 400,
      error: expect.stringMatching(/^payload does not fit hub\.events\.repo\.update: .*repo\.name/),
    });
    // Subjects no consumer reads stay free-form; the whole payload is still taken when it fits.
    expect((await post('hub.events.paper.update', { anything: 1 })).status).toBe(202);
    expect((await post('hub.events.discussion.create', payload)).status).toBe(202);
    await expect(
      (async () => {
        const deadline = Date.now() + 15_000;
        while ((await inbox(bob)).body.count.all === 0 && Date.now() < deadline) await sleep(50);
        return (await inbox(bob)).body.count.all;
      })(),
    ).resolves.toBe(1);
  });
}
