import { http } from '../http-client';
import { addMember, type HubTarget, makeOrg, makeUser, type TestUser } from '../hub-factory';
import { discussionEvent, hexId, postEvent, publishHubEvent } from '../notification-factory';
import { type InboxBody, inboxClient, sleep } from './notifications-helpers';

/**
 * The rest of issue 9's list of tests: paging over several pages with a pinned snapshot, filter
 * combinations whose counts equal the items paged through, unread by filter, settings that gate
 * creation, the watch list's bounds, and every bound of the query and bodies as a clear 400.
 */
export function notificationsCoverageScenarios(t: () => HubTarget): void {
  const { inbox, waitForAll, repoName } = inboxClient(t);
  /** Every page of a query, walked with `p` and a pinned `lastUpdate`, as a user's client does. */
  const walk = async (u: TestUser, query: string): Promise<{ pages: InboxBody[]; ids: string[] }> => {
    const first = (await inbox(u, `?${query}`)).body;
    const pinned = first.notifications[0]?.updatedAt;
    const pages = [first];
    while (pinned && (pages.at(-1) as InboxBody).notifications.length === 20) {
      pages.push((await inbox(u, `?${query}&p=${pages.length}&lastUpdate=${encodeURIComponent(pinned)}`)).body);
    }
    return { pages, ids: pages.flatMap((p) => p.notifications.map((n) => n.discussionEventId as string)) };
  };
  const post = (u: TestUser, path: string, body: unknown = {}): Promise<{ status: number; body: unknown }> =>
    http(t().baseUrl, 'POST', path, { token: u.token, body });

  it('pages through 45 notifications 20 at a time; a snapshot pinned by lastUpdate neither loses nor repeats one while events arrive', async () => {
    const [alice, bob] = [await makeUser(t()), await makeUser(t())];
    const repo = repoName(alice);
    const sent: string[] = [];
    for (let i = 0; i < 45; i++) {
      const e = discussionEvent({ actor: alice, repo, num: i, mentions: [bob] });
      sent.push(e['eventId'] as string);
      await publishHubEvent(t(), 'hub.events.discussion.create', e);
    }
    await waitForAll(bob, 45);
    const p0 = (await inbox(bob)).body;
    const pinned = encodeURIComponent(p0.notifications[0]?.updatedAt as string);
    // New events between the pages: the pinned pages do not shift.
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, mentions: [bob] }),
    );
    await waitForAll(bob, 46);
    const p1 = (await inbox(bob, `?p=1&lastUpdate=${pinned}`)).body;
    const p2 = (await inbox(bob, `?p=2&lastUpdate=${pinned}`)).body;
    const p3 = (await inbox(bob, `?p=3&lastUpdate=${pinned}`)).body;
    expect([p0, p1, p2, p3].map((p) => [p.start, p.notifications.length, p.count.view])).toEqual([
      [0, 20, 45],
      [20, 20, 45],
      [40, 5, 45],
      [60, 0, 45],
    ]);
    const seen = [p0, p1, p2].flatMap((p) => p.notifications.map((n) => n.discussionEventId));
    expect(new Set(seen).size).toBe(45);
    expect([...seen].sort()).toEqual([...sent].sort());
    expect(seen).toEqual([...sent].reverse());
    expect((await inbox(bob)).body.count).toEqual({ view: 46, unread: 46, all: 46 });
  }, 60_000);

  it('combines filters with AND; each view count equals the items paged through; unread and read again by filter', async () => {
    const [alice, bob] = [await makeUser(t()), await makeUser(t())];
    const [models, datasets] = [repoName(alice), repoName(alice)];
    for (let i = 0; i < 24; i++) {
      const repoType = i % 3 === 0 ? 'dataset' : 'model';
      await publishHubEvent(
        t(),
        'hub.events.discussion.create',
        discussionEvent({ actor: alice, repo: repoType === 'dataset' ? datasets : models, repoType, mentions: [bob] }),
      );
    }
    // bob took part in two model threads (commented): participating.
    const mine = [hexId(), hexId()];
    for (const id of mine) {
      await publishHubEvent(
        t(),
        'hub.events.discussion.create',
        discussionEvent({ actor: bob, repo: models, discussionId: id }),
      );
      await publishHubEvent(
        t(),
        'hub.events.discussion.comment.create',
        discussionEvent({ actor: alice, repo: models, discussionId: id }),
      );
    }
    await publishHubEvent(t(), 'hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] }));
    await waitForAll(bob, 27);
    // Read the dataset ones by filter: unread then selects the rest.
    expect((await post(bob, '/api/notifications/mark-as-read?applyToAll=true&repoType=dataset')).body).toEqual({
      changed: 8,
    });
    const combos: [string, number][] = [
      ['readStatus=all&mention=all', 27],
      ['readStatus=unread', 19],
      ['readStatus=unread&repoType=dataset', 0],
      ['repoType=model', 18],
      ['repoType=model&mention=participating', 2],
      ['repoType=model&mention=mentions', 16],
      ['readStatus=unread&repoType=model&mention=mentions', 16],
      [`repoName=${encodeURIComponent(models.toUpperCase())}&repoType=model`, 18],
      [`repoName=${encodeURIComponent(datasets)}&readStatus=unread`, 0],
      [`postAuthor=${alice.name}&readStatus=unread`, 1],
      [`postAuthor=${alice.name}&repoType=model`, 0],
      ['repoType=space', 0],
    ];
    for (const [query, expected] of combos) {
      const { pages, ids } = await walk(bob, query);
      expect({
        query,
        view: pages[0]?.count.view,
        items: ids.length,
        all: pages[0]?.count.all,
        unread: pages[0]?.count.unread,
      }).toEqual({ query, view: expected, items: expected, all: 27, unread: 19 });
    }
    // Unread again by filter (read: false with applyToAll), then the counts follow.
    expect(
      (await post(bob, '/api/notifications/mark-as-read?applyToAll=true&repoType=dataset', { read: false })).body,
    ).toEqual({ changed: 8 });
    expect((await inbox(bob, '?readStatus=unread')).body.count).toEqual({ view: 27, unread: 27, all: 27 });
    expect((await post(bob, '/api/notifications/mark-as-read?applyToAll=true', { read: true })).body).toEqual({
      changed: 27,
    });
    const { pages, ids } = await walk(bob, 'readStatus=all');
    expect({
      count: pages[0]?.count,
      read: pages.every((p) => p.notifications.every((n) => n.read)),
      n: ids.length,
    }).toEqual({ count: { view: 27, unread: 0, all: 27 }, read: true, n: 27 });
  }, 90_000);

  it('the participating settings gate creation: discussions and posts each by their own switch', async () => {
    const [alice, bob, carol] = [await makeUser(t()), await makeUser(t()), await makeUser(t())];
    const settings = (u: TestUser, values: Record<string, boolean>): Promise<{ status: number }> =>
      http(t().baseUrl, 'PATCH', '/api/settings/notifications', { token: u.token, body: { notifications: values } });
    expect((await settings(bob, { web_discussions_participating: false })).status).toBe(200);
    expect((await settings(carol, { web_posts_participating: false })).status).toBe(200);
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: repoName(alice), mentions: [bob, carol] }),
    );
    await publishHubEvent(
      t(),
      'hub.events.post.comment',
      postEvent(alice, { author: alice.name, mentions: [bob, carol] }),
    );
    const [b, c] = [await waitForAll(bob, 1), await waitForAll(carol, 1)];
    await sleep(300);
    expect((await inbox(bob)).body.notifications.map((n) => n.type)).toEqual(['post']);
    expect((await inbox(carol)).body.notifications.map((n) => n.type)).toEqual(['repo']);
    expect([b.count.all, c.count.all]).toEqual([1, 1]);
    // Switched back on: the next event reaches bob again.
    expect((await settings(bob, { web_discussions_participating: true })).status).toBe(200);
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: repoName(alice), mentions: [bob] }),
    );
    expect((await waitForAll(bob, 2)).count.all).toBe(2);
  }, 60_000);

  it('tells of a private repo only those who may read it: members whose role opens it, never an outsider or a no_access member, watching or mentioned', async () => {
    const [alice, reader, blocked, outsider] = await Promise.all([1, 2, 3, 4].map(() => makeUser(t())));
    const org = await makeOrg(t(), 'enterprise', [alice.name]);
    await addMember(t(), org.name, reader.name, 'read');
    await addMember(t(), org.name, blocked.name, 'no_access');
    for (const u of [reader, blocked, outsider]) {
      const watch = await http(t().baseUrl, 'PATCH', '/api/settings/watch', {
        token: u.token,
        body: { add: [{ type: 'org', id: org.name }] },
      });
      expect(watch.status).toBe(200);
    }
    const mentions = [reader, blocked, outsider];
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: `${org.name}/secret`, title: 'Secret plans', private: true, mentions }),
    );
    // The reader hears of it: the event's one transaction is committed, for everybody.
    expect(
      (await waitForAll(reader, 1)).notifications.map((n) => (n['repo'] as { name?: string } | undefined)?.name),
    ).toEqual([`${org.name}/secret`]);
    await publishHubEvent(
      t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo: `${org.name}/open`, title: 'Open plans', mentions }),
    );
    for (const u of [blocked, outsider]) {
      const body = await waitForAll(u, 1);
      expect({
        user: u.name,
        repos: body.notifications.map((n) => (n['repo'] as { name?: string } | undefined)?.name),
      }).toEqual({
        user: u.name,
        repos: [`${org.name}/open`],
      });
    }
    expect((await waitForAll(reader, 2)).count.all).toBe(2);
  }, 60_000);

  it('keeps at most 1000 watched items: the 1001st is a 400 naming the bound, and nothing of that request is kept', async () => {
    const u = await makeUser(t());
    for (let k = 0; k < 10; k++) {
      const add = Array.from({ length: 100 }, (_, i) => ({ id: `watched-${k}-${i}`, type: 'user' }));
      expect((await http(t().baseUrl, 'PATCH', '/api/settings/watch', { token: u.token, body: { add } })).status).toBe(
        200,
      );
    }
    const over = await http<{ error: string }>(t().baseUrl, 'PATCH', '/api/settings/watch', {
      token: u.token,
      body: { add: [{ id: 'one-more', type: 'repo' }] },
    });
    expect({ status: over.status, error: over.body.error }).toEqual({
      status: 400,
      error: expect.stringMatching(/1000/),
    });
    const list = await http<{ watched: unknown[] }>(t().baseUrl, 'GET', '/api/settings/watch', { token: u.token });
    expect(list.body.watched.length).toBe(1000);
    // A swap within the bound (delete before add) is fine.
    const swap = await http<{ watched: unknown[] }>(t().baseUrl, 'PATCH', '/api/settings/watch', {
      token: u.token,
      body: { delete: [{ id: 'watched-0-0', type: 'user' }], add: [{ id: 'one-more', type: 'repo' }] },
    });
    expect({ status: swap.status, n: swap.body.watched.length }).toEqual({ status: 200, n: 1000 });
  }, 60_000);

  describe('every bound violated is a clear 400', () => {
    const cases: [string, string, string, unknown, RegExp][] = [
      ['GET', '/api/notifications?p=-1', '', undefined, /p must be an integer from 0 to 9007199254740991/],
      [
        'GET',
        '/api/notifications?p=9007199254740992',
        '',
        undefined,
        /p must be an integer from 0 to 9007199254740991/,
      ],
      ['GET', '/api/notifications?p=1.5', '', undefined, /p must be an integer from 0 to 9007199254740991/],
      ['GET', '/api/notifications?p=abc', '', undefined, /p must be an integer from 0 to 9007199254740991/],
      [
        'GET',
        '/api/notifications?p=99999999999999999999',
        '',
        undefined,
        /p must be an integer from 0 to 9007199254740991/,
      ],
      ['GET', `/api/notifications?repoName=${'x'.repeat(201)}`, '', undefined, /repoName must be 1 to 200/],
      ['GET', '/api/notifications?paperId=', '', undefined, /paperId must be 1 to 200/],
      [
        'POST',
        '/api/notifications/mark-as-read',
        '',
        { discussionIds: Array.from({ length: 1001 }, () => 'a'.repeat(24)) },
        /discussionIds must hold at most 1000/,
      ],
      [
        'PATCH',
        '/api/settings/watch',
        '',
        { add: Array.from({ length: 101 }, (_, i) => ({ id: `u${i}`, type: 'user' })) },
        /100/,
      ],
      ['GET', '/api/notifications?readStatus=read', '', undefined, /readStatus/],
      ['GET', '/api/notifications?repoType=car', '', undefined, /repoType/],
      ['GET', '/api/notifications?mention=me', '', undefined, /mention/],
      ['GET', '/api/notifications?lastUpdate=yesterday', '', undefined, /lastUpdate/],
      ['DELETE', '/api/notifications', '', {}, /discussionIds .*applyToAll/],
      ['DELETE', '/api/notifications', '', { discussionIds: [] }, /at least one/],
      ['DELETE', '/api/notifications', '', { discussionIds: ['nothex'] }, /24-character/],
      ['DELETE', '/api/notifications?applyToAll=maybe', '', undefined, /applyToAll/],
      ['POST', '/api/notifications/mark-as-read', '', { discussionIds: ['x'] }, /24-character/],
      ['POST', '/api/notifications/mark-as-read', '', { read: 'yes', discussionIds: [] }, /read must be/],
      [
        'PATCH',
        '/api/settings/notifications',
        '',
        { notifications: { nope: true } },
        /notifications.nope is not a known setting/,
      ],
      ['PATCH', '/api/settings/notifications', '', { notifications: {}, extra: 1 }, /extra is not a known setting/],
      [
        'PATCH',
        '/api/settings/notifications',
        '',
        { notifications: { job_status: 'yes' } },
        /job_status must be true or false/,
      ],
      [
        'PATCH',
        '/api/settings/notifications',
        '',
        { notifications: { launch_prepaid_credits: true } },
        /prepaidAmount is required/,
      ],
      ['PATCH', '/api/settings/notifications', '', { notifications: {}, prepaidAmount: 'x'.repeat(25) }, /at most 24/],
      [
        'PATCH',
        '/api/settings/notifications',
        '',
        { notifications: { product_updates_after: 'soon' } },
        /product_updates_after/,
      ],
      ['PATCH', '/api/settings/notifications', '', {}, /notifications must be an object/],
      ['PATCH', '/api/settings/watch', '', { add: [{ id: 'a', type: 'team' }] }, /type must be one of/],
      ['PATCH', '/api/settings/watch', '', { add: [{ type: 'user' }] }, /id must be/],
      ['PATCH', '/api/settings/watch', '', { remove: [] }, /remove is not a known setting/],
    ];
    // Titles show at most 60 characters of a path or body (some are 1001 ids long).
    const short = (x: unknown): string => (JSON.stringify(x) ?? '').slice(0, 60);
    it.each(cases.map(([m, path, _x, body, re]) => [m, path.slice(0, 60), short(body), body, re, path] as const))(
      '%s %s %s',
      async (method, _p, _b, body, message, path) => {
        const u = await makeUser(t());
        const res = await http<{ error: string }>(t().baseUrl, method, path, { token: u.token, body });
        expect({ status: res.status, error: res.body.error }).toEqual({
          status: 400,
          error: expect.stringMatching(message),
        });
      },
    );

    it('a huge page is an empty page, fast', async () => {
      const u = await makeUser(t());
      const started = Date.now();
      const res = await inbox(u, '?p=9007199254740991');
      expect(res.body).toEqual({
        notifications: [],
        count: { view: 0, unread: 0, all: 0 },
        start: 9007199254740991 * 20,
      });
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
}
