import { http } from '../http-client';
import { type HubTarget, makeUser, type TestUser } from '../hub-factory';
import { blogEvent, discussionEvent, hexId, paperEvent, postEvent, publishHubEvent } from '../notification-factory';
import { notificationsCoverageScenarios } from './notifications-coverage.scenarios';
import { notificationsPollScenarios } from './notifications-poll.scenarios';
import { inboxClient, type NotificationItemBody as Item, sleep } from './notifications-helpers';
const PARTICIPANT_KEYS = ['_id', 'avatar', 'user'];
const keysOf = (o: unknown): string[] => Object.keys(o as object).sort();

/** Spec 2.6, strictly: exactly the keys of the shape, participants exactly {_id, avatar, user}. */
function expectShape(item: Item): void {
  const common = ['type', 'updatedAt', 'read', ...('discussionEventId' in item ? ['discussionEventId'] : [])];
  const extra: Record<string, string[]> = {
    paper: ['paper', 'paperDiscussion'],
    repo: ['repo', 'discussion'],
    post: ['post'],
    community_blog: ['blog'],
  };
  expect(keysOf(item)).toEqual([...common, ...(extra[item.type] ?? ['?'])].sort());
  expect(new Date(item.updatedAt).toISOString()).toBe(item.updatedAt);
  const parts = (o: unknown): void => {
    const p = (o as { participating: unknown[] }).participating;
    expect(Array.isArray(p)).toBe(true);
    for (const x of p) expect(keysOf(x)).toEqual(PARTICIPANT_KEYS);
  };
  if (item.type === 'repo') {
    expect(keysOf(item['repo'])).toEqual(['name', 'type']);
    expect(keysOf(item['discussion'])).toEqual(['id', 'isPullRequest', 'num', 'participating', 'status', 'title']);
    parts(item['discussion']);
  } else if (item.type === 'paper') {
    expect(keysOf(item['paper'])).toEqual(['_id', 'title']);
    expect(keysOf(item['paperDiscussion'])).toEqual(['id', 'paperId', 'participating']);
    parts(item['paperDiscussion']);
  } else if (item.type === 'post') {
    expect(keysOf(item['post'])).toEqual(['authorName', 'id', 'participating', 'slug', 'title']);
    parts(item['post']);
  } else {
    const blog = item['blog'] as Record<string, unknown>;
    expect(keysOf(blog).filter((k) => k !== 'canonical' && k !== 'authorName')).toEqual([
      'id',
      'participating',
      'slug',
      'title',
    ]);
    parts(blog);
  }
}

/** The inbox, paging, filters, read state, deletion, settings and watch lists, fed by hub events (issue 9). */
export function notificationsScenarios(target: () => HubTarget): void {
  const t = (): HubTarget => target();
  const { inbox, waitForAll, repoName } = inboxClient(t);

  it('turns each of the four kinds of event into its spec 2.6 shape, never notifying the actor', async () => {
    const [alice, bob] = [await makeUser(t()), await makeUser(t())];
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: repoName(alice), mentions: [bob] }),
    );
    await publishHubEvent(t(), 'hub.events.paper.comment', paperEvent(alice, { mentions: [bob] }));
    await publishHubEvent(t(), 'hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] }));
    await publishHubEvent(t(), 'hub.events.blog.comment', blogEvent(alice, { author: alice.name, mentions: [bob] }));
    const box = await waitForAll(bob, 4);
    expect(box.count).toEqual({ view: 4, unread: 4, all: 4 });
    expect(box.notifications.map((n) => n.type).sort()).toEqual(['community_blog', 'paper', 'post', 'repo']);
    for (const n of box.notifications) expectShape(n);
    const repo = box.notifications.find((n) => n.type === 'repo') as Item;
    expect((repo['discussion'] as { participating: unknown[] }).participating).toEqual([
      { _id: alice.id, avatar: `https://avatars.example/${alice.name}.png`, user: alice.name },
    ]);
    expect((await inbox(alice)).body.count.all).toBe(0);
  });

  it('keeps one notification per thread, moved up, unread and retitled by each new event; a replay changes nothing', async () => {
    const [alice, bob, carol] = [await makeUser(t()), await makeUser(t()), await makeUser(t())];
    const repo = repoName(alice);
    const thread = hexId();
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, discussionId: thread, mentions: [bob] }),
    );
    await waitForAll(bob, 1);
    const other = hexId();
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, discussionId: other, mentions: [bob] }),
    );
    await waitForAll(bob, 2);
    await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read', {
      token: bob.token,
      body: { discussionIds: [thread] },
    });
    const again = discussionEvent({
      actor: carol,
      repo,
      discussionId: thread,
      title: 'Renamed',
      status: 'closed',
      eventId: hexId(),
    });
    await publishHubEvent(t(), 'hub.events.discussion.comment.create', again);
    const deadline = Date.now() + 15_000;
    let top: Item | undefined;
    while (Date.now() < deadline) {
      top = (await inbox(bob)).body.notifications[0];
      if ((top?.['discussion'] as { title: string } | undefined)?.title === 'Renamed') break;
      await sleep(50);
    }
    const d = top?.['discussion'] as { id: string; status: string; participating: { user: string }[] };
    expect({ id: d.id, status: d.status, read: top?.read, eventId: top?.discussionEventId }).toEqual({
      id: thread,
      status: 'closed',
      read: false,
      eventId: again['eventId'],
    });
    expect(d.participating.map((p) => p.user)).toEqual([carol.name, alice.name]);
    // The same event again (same id): nothing moves.
    const before = await inbox(bob);
    await publishHubEvent(t(), 'hub.events.discussion.comment.create', again);
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, discussionId: hexId(), mentions: [bob] }),
    );
    const after = await waitForAll(bob, 3);
    const same = after.notifications.find((n) => (n['discussion'] as { id: string }).id === thread);
    expect(same?.updatedAt).toBe(before.body.notifications[0]?.updatedAt);
    expect(after.count).toEqual({ view: 3, unread: 3, all: 3 });
  });

  it('notifies watchers of a repo, its owner or an author, gated by their settings; participants hear of threads they took part in', async () => {
    const [owner, watcherRepo, watcherOwner, muted, author] = [
      await makeUser(t()),
      await makeUser(t()),
      await makeUser(t()),
      await makeUser(t()),
      await makeUser(t()),
    ];
    const repo = repoName(owner);
    const patch = (u: TestUser, body: unknown): Promise<{ status: number; body: unknown }> =>
      http(t().baseUrl, 'PATCH', '/api/settings/watch', { token: u.token, body });
    expect((await patch(watcherRepo, { add: [{ id: repo, type: 'repo' }] })).body).toEqual({
      watched: [{ id: repo, type: 'repo' }],
    });
    expect(
      (
        await patch(watcherOwner, {
          add: [
            { id: owner.name, type: 'user' },
            { id: author.name, type: 'user' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await patch(muted, { add: [{ id: repo, type: 'repo' }] })).status).toBe(200);
    const off = await http(t().baseUrl, 'PATCH', '/api/settings/notifications', {
      token: muted.token,
      body: { notifications: { web_discussions_watched: false } },
    });
    expect(off.status).toBe(200);
    expect((off.body as { notifications: Record<string, boolean> }).notifications['web_discussions_watched']).toBe(
      false,
    );
    await publishHubEvent(t(), 'hub.events.discussion.create', discussionEvent({ actor: author, repo }));
    await publishHubEvent(t(), 'hub.events.post.create', postEvent(author, { author: author.name }));
    await waitForAll(watcherRepo, 1);
    await waitForAll(watcherOwner, 2);
    // muted watches the repo but turned watched discussions off; a later mention still reaches them.
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: author, repo, mentions: [muted] }),
    );
    const m = await waitForAll(muted, 1);
    expect(m.count.all).toBe(1);
    expect((await inbox(muted, '?mention=mentions')).body.count.view).toBe(1);
    // Removing from the watch list stops it.
    expect((await patch(watcherRepo, { delete: [{ id: repo, type: 'repo' }] })).body).toEqual({ watched: [] });
    // Participants: the discussion's author hears of a comment.
    const thread = hexId();
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: owner, repo, discussionId: thread }),
    );
    await publishHubEvent(
      t(),
      'hub.events.discussion.comment.create',
      discussionEvent({ actor: author, repo, discussionId: thread }),
    );
    const ownerBox = await waitForAll(owner, 1);
    expect((await inbox(owner, '?mention=participating')).body.count.view).toBe(ownerBox.count.all);
    // watcherRepo heard of the first and the mention thread, not of those after it stopped watching.
    expect((await inbox(watcherRepo)).body.count.all).toBe(2);
  });

  it('filters, pages with a stable lastUpdate snapshot, and keeps counts equal to the list after every change', async () => {
    const [alice, bob, eve] = [await makeUser(t()), await makeUser(t()), await makeUser(t())];
    const repo = repoName(alice);
    const paperId = hexId();
    const blogId = hexId();
    for (let i = 0; i < 23; i++) {
      await publishHubEvent(
        t(),
        'hub.events.discussion.create',
        discussionEvent({ actor: alice, repo, num: i, mentions: i % 2 === 0 ? [bob] : [], repoType: 'dataset' }),
      );
    }
    await publishHubEvent(t(), 'hub.events.paper.comment', paperEvent(alice, { paperId, mentions: [bob] }));
    await publishHubEvent(t(), 'hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] }));
    await publishHubEvent(
      t(),
      'hub.events.blog.comment',
      blogEvent(alice, { blogId, slug: 'slug-x', mentions: [bob] }),
    );
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: repoName(eve), mentions: [bob] }),
    );
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, mentions: [eve] }),
    );
    // Only the 12 mentions reach bob among the 23 (participants are alice alone).
    const box = await waitForAll(bob, 16);
    expect(box.count).toEqual({ view: 16, unread: 16, all: 16 });
    const view = async (q: string): Promise<number> => (await inbox(bob, q)).body.count.view;
    expect(await view('?repoType=dataset')).toBe(12);
    expect(await view('?repoType=model')).toBe(1);
    expect(await view(`?repoName=${encodeURIComponent(repo)}`)).toBe(12);
    expect(await view(`?repoName=${encodeURIComponent(repo)}&repoType=model`)).toBe(0);
    expect(await view(`?paperId=${paperId}`)).toBe(1);
    expect(await view(`?postAuthor=${alice.name}`)).toBe(1);
    expect(await view(`?articleId=${blogId}`)).toBe(1);
    expect(await view('?articleId=slug-x')).toBe(1);
    expect(await view('?mention=mentions')).toBe(16);
    expect(await view('?mention=participating')).toBe(0);
    // Paging: 20 a page, newest first; start is the index of the first item.
    const p0 = (await inbox(bob)).body;
    const snapshot = p0.notifications[0]?.updatedAt as string;
    const p1 = (await inbox(bob, `?p=1&lastUpdate=${snapshot}`)).body;
    expect({ n0: p0.notifications.length, start0: p0.start, start1: p1.start, n1: p1.notifications.length }).toEqual({
      n0: 16,
      start0: 0,
      start1: 20,
      n1: 0,
    });
    const times = p0.notifications.map((n) => n.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    // A new event after the snapshot: the snapshot's pages do not move.
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, repoType: 'dataset', mentions: [bob] }),
    );
    await waitForAll(bob, 17);
    const pinned = (await inbox(bob, `?lastUpdate=${snapshot}`)).body;
    expect(pinned.notifications.map((n) => n.updatedAt)).toEqual(times);
    expect(pinned.count.view).toBe(16);
    // Mark read by filter; unread and view agree with the list.
    const mark = await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read?applyToAll=true&repoType=dataset', {
      token: bob.token,
      body: {},
    });
    expect(mark.status).toBe(200);
    const unread = (await inbox(bob, '?readStatus=unread')).body;
    expect(unread.count).toEqual({ view: 4, unread: 4, all: 17 });
    expect(unread.notifications.length).toBe(4);
    expect(unread.notifications.every((n) => !n.read)).toBe(true);
    // Unread again by id, then delete by filter and by id.
    const id = (unread.notifications.find((n) => n.type === 'paper')?.['paperDiscussion'] as { id: string }).id;
    expect(
      (
        await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read', {
          token: bob.token,
          body: { discussionIds: [id], read: true },
        })
      ).status,
    ).toBe(200);
    expect((await inbox(bob, '?readStatus=unread')).body.count).toEqual({ view: 3, unread: 3, all: 17 });
    expect(
      (await http(t().baseUrl, 'DELETE', '/api/notifications?applyToAll=true&repoType=dataset', { token: bob.token }))
        .status,
    ).toBe(200);
    expect((await inbox(bob)).body.count).toEqual({ view: 4, unread: 3, all: 4 });
    expect(
      (await http(t().baseUrl, 'DELETE', '/api/notifications', { token: bob.token, body: { discussionIds: [id] } }))
        .status,
    ).toBe(200);
    const last = (await inbox(bob)).body;
    expect(last.count).toEqual({ view: 3, unread: 3, all: 3 });
    expect(last.notifications.length).toBe(3);
  });

  notificationsPollScenarios(t);

  it("never shows or touches another user's notifications", async () => {
    const [alice, bob, mallory] = [await makeUser(t()), await makeUser(t()), await makeUser(t())];
    const thread = hexId();
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: repoName(alice), discussionId: thread, mentions: [bob] }),
    );
    await waitForAll(bob, 1);
    expect((await inbox(mallory)).body.count.all).toBe(0);
    await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read', {
      token: mallory.token,
      body: { discussionIds: [thread] },
    });
    await http(t().baseUrl, 'POST', '/api/notifications/mark-as-read?applyToAll=true', {
      token: mallory.token,
      body: {},
    });
    await http(t().baseUrl, 'DELETE', '/api/notifications?applyToAll=true', { token: mallory.token });
    await http(t().baseUrl, 'DELETE', '/api/notifications', {
      token: mallory.token,
      body: { discussionIds: [thread] },
    });
    expect((await inbox(bob)).body.count).toEqual({ view: 1, unread: 1, all: 1 });
    await http(t().baseUrl, 'PATCH', '/api/settings/watch', {
      token: bob.token,
      body: { add: [{ id: 'x/y', type: 'repo' }] },
    });
    expect((await http(t().baseUrl, 'GET', '/api/settings/watch', { token: mallory.token })).body).toEqual({
      watched: [],
    });
  });

  it('settings read back with defaults, merge partial updates and need prepaidAmount for prepaid credits', async () => {
    const u = await makeUser(t());
    const get = await http<{ notifications: Record<string, unknown>; prepaidAmount: null }>(
      t().baseUrl,
      'GET',
      '/api/settings/notifications',
      { token: u.token },
    );
    expect(get.body.notifications['web_discussions_participating']).toBe(true);
    expect(get.body.notifications['launch_prepaid_credits']).toBe(false);
    const ok = await http<{ notifications: Record<string, unknown>; prepaidAmount: string }>(
      t().baseUrl,
      'PATCH',
      '/api/settings/notifications',
      {
        token: u.token,
        body: {
          notifications: { launch_prepaid_credits: true, product_updates_after: '2026-01-01T00:00:00Z' },
          prepaidAmount: '100',
        },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      prepaidAmount: '100',
      notifications: { launch_prepaid_credits: true, product_updates_after: '2026-01-01T00:00:00Z', job_status: true },
    });
  });

  notificationsCoverageScenarios(t);
}
