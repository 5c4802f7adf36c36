import { http } from '../http-client';
import { type HubTarget, makeUser } from '../hub-factory';
import { postEvent, publishHubEvent } from '../notification-factory';
import { inboxClient, type NotificationItemBody as Item, sleep } from './notifications-helpers';

/** Conditional polls of the inbox (ETag, Last-Modified): 304 while nothing changed, 200 at once after. */
export function notificationsPollScenarios(t: () => HubTarget): void {
  const { inbox, waitForAll } = inboxClient(t);

  it('answers 304 to a poll while nothing changed, and 200 once something did', async () => {
    const [alice, bob] = [await makeUser(t()), await makeUser(t())];
    await publishHubEvent(t(), 'hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] }));
    await waitForAll(bob, 1);
    const first = await inbox(bob);
    const etag = first.headers.get('etag') as string;
    const lastModified = first.headers.get('last-modified') as string;
    expect(etag).toBeTruthy();
    expect(lastModified).toBeTruthy();
    expect((await inbox(bob, '', { 'if-none-match': etag })).status).toBe(304);
    expect((await inbox(bob, '', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await inbox(bob, '?readStatus=unread', { 'if-none-match': etag })).status).toBe(200);
    const id = ((first.body.notifications[0] as Item)['post'] as { id: string }).id;
    await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read', {
      token: bob.token,
      body: { discussionIds: [id] },
    });
    expect((await inbox(bob, '', { 'if-none-match': etag })).status).toBe(200);
  });

  it('answers 200 to a poll as soon as a new event reached the inbox, after 304s that the gateway may have answered itself', async () => {
    const [alice, bob, carol] = [await makeUser(t()), await makeUser(t()), await makeUser(t())];
    await publishHubEvent(
      t(),
      'hub.events.post.comment',
      postEvent(alice, { author: alice.name, mentions: [bob, carol] }),
    );
    await waitForAll(bob, 1);
    const first = await inbox(bob);
    const etag = first.headers.get('etag') as string;
    const carolEtag = (await inbox(carol)).headers.get('etag') as string;
    for (let i = 0; i < 3; i++) expect((await inbox(bob, '', { 'if-none-match': etag })).status).toBe(304);
    expect((await inbox(carol, '', { 'if-none-match': carolEtag })).status).toBe(304);
    // A new thread for bob only: carol's inbox did not change.
    await publishHubEvent(t(), 'hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] }));
    const deadline = Date.now() + 10_000;
    let polled = await inbox(bob, '', { 'if-none-match': etag });
    while (polled.status === 304 && Date.now() < deadline) {
      await sleep(50);
      polled = await inbox(bob, '', { 'if-none-match': etag });
    }
    expect(polled.status).toBe(200);
    expect(polled.body.count.all).toBe(2);
    expect(polled.headers.get('etag')).not.toBe(etag);
    expect((await inbox(bob, '', { 'if-none-match': polled.headers.get('etag') as string })).status).toBe(304);
    expect((await inbox(carol, '', { 'if-none-match': carolEtag })).status).toBe(304);
    // Deleting through the API: the next poll sees it at once.
    await http(t().baseUrl, 'DELETE', '/api/notifications?applyToAll=true', { token: bob.token });
    const gone = await inbox(bob, '', { 'if-none-match': polled.headers.get('etag') as string });
    expect(gone.status).toBe(200);
    expect(gone.body.count.all).toBe(0);
  });
}
