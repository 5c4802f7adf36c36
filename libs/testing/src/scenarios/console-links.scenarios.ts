import { type Page } from 'playwright-core';
import { makeUser, uniqueName } from '../hub-factory';
import { http } from '../http-client';
import { blogEvent, discussionEvent, hexId, paperEvent, postEvent, publishHubEvent } from '../notification-factory';
import { type ConsoleBrowser, noViolations, shot, signedIn, HUB_WORK_MS } from './console-page';

/** The link of the notification whose item shows `text`: its href, target and rel. */
async function linkOf(
  page: Page,
  text: string,
): Promise<{ href: string | null; target: string | null; rel: string | null }> {
  const item = page.getByRole('listitem').filter({ hasText: text });
  await item.waitFor({ timeout: HUB_WORK_MS });
  const a = item.getByRole('link', { name: new RegExp(`${text}.*opens in a new tab`) });
  return {
    href: await a.getAttribute('href'),
    target: await a.getAttribute('target'),
    rel: await a.getAttribute('rel'),
  };
}

/**
 * Issue 42 item 10, decision 0808: each notification links to its page on the hub's website
 * (the target's `website`), and on its `noLinks` hub (HUB_WEBSITE_URL empty) the titles stay text.
 */
export function consoleLinksScenarios(c: ConsoleBrowser): void {
  it("links a space discussion, a model pull request, a dataset discussion, a paper, a post and a blog article to their pages on the hub's website, in a new tab", async () => {
    const [bob, alice] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const site = c.t().website;
    expect((await http(c.t().baseUrl, 'GET', '/api/console/config')).body).toEqual({ websiteUrl: site });
    const name = uniqueName('repo');
    const paperId = hexId();
    const events: [string, Record<string, unknown>][] = [
      [
        'hub.events.discussion.create',
        discussionEvent({
          actor: alice,
          repo: `${alice.name}/${name}`,
          repoType: 'space',
          num: 3,
          title: 'Space question',
          mentions: [bob],
        }),
      ],
      [
        'hub.events.discussion.create',
        discussionEvent({
          actor: alice,
          repo: `${alice.name}/${name}`,
          num: 12,
          title: 'Model fix',
          isPullRequest: true,
          mentions: [bob],
        }),
      ],
      [
        'hub.events.discussion.create',
        discussionEvent({
          actor: alice,
          repo: `${alice.name}/${name}`,
          repoType: 'dataset',
          num: 5,
          title: 'Dataset split',
          mentions: [bob],
        }),
      ],
      ['hub.events.paper.comment', paperEvent(alice, { paperId, mentions: [bob] })],
      ['hub.events.post.comment', postEvent(alice, { author: alice.name, mentions: [bob] })],
      ['hub.events.blog.comment', blogEvent(alice, { author: alice.name, slug: 'an article', mentions: [bob] })],
    ];
    for (const [subject, payload] of events) await publishHubEvent(c.t(), subject, payload);
    const { page } = await signedIn(c, bob.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const newTab = { target: '_blank', rel: 'noopener noreferrer' };
    // Models have no prefix; datasets and spaces have theirs. Pull requests share the discussions path.
    await expect(linkOf(page, 'Space question')).resolves.toEqual({
      href: `${site}/spaces/${alice.name}/${name}/discussions/3`,
      ...newTab,
    });
    await expect(linkOf(page, 'Model fix')).resolves.toEqual({
      href: `${site}/${alice.name}/${name}/discussions/12`,
      ...newTab,
    });
    await expect(linkOf(page, 'Dataset split')).resolves.toEqual({
      href: `${site}/datasets/${alice.name}/${name}/discussions/5`,
      ...newTab,
    });
    await expect(linkOf(page, 'Attention')).resolves.toEqual({ href: `${site}/papers/${paperId}`, ...newTab });
    await expect(linkOf(page, 'A post')).resolves.toEqual({ href: `${site}/posts/${alice.name}/my-post`, ...newTab });
    // Each name is encoded on its own: a space in a slug cannot change the path.
    await expect(linkOf(page, 'An article')).resolves.toEqual({
      href: `${site}/blog/${alice.name}/an%20article`,
      ...newTab,
    });
    await noViolations(page, 'notifications with links');
    await shot(page, 'notifications-links');
    // On a phone the linked titles wrap within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    await shot(page, 'phone-notifications-links');
    await page.close();
  });

  it('shows the titles as text when the hub has no website set', async () => {
    const hub = c.t().noLinks;
    const [bob, alice] = await Promise.all([makeUser(hub), makeUser(hub)]);
    // The console's setting, checked against the hub's OpenAPI document like every answer.
    expect((await http(hub.baseUrl, 'GET', '/api/console/config')).body).toEqual({ websiteUrl: null });
    await publishHubEvent(
      hub,
      'hub.events.discussion.create',
      discussionEvent({
        actor: alice,
        repo: `${alice.name}/${uniqueName('repo')}`,
        title: 'Unlinked question',
        mentions: [bob],
      }),
    );
    await publishHubEvent(hub, 'hub.events.paper.comment', paperEvent(alice, { mentions: [bob] }));
    const { page } = await signedIn({ ...c, t: () => ({ ...c.t(), ...hub }) }, bob.token);
    await page.getByRole('listitem').filter({ hasText: 'Unlinked question' }).waitFor({ timeout: HUB_WORK_MS });
    await page.getByRole('listitem').filter({ hasText: 'Attention' }).waitFor({ timeout: HUB_WORK_MS });
    await expect(page.locator('.items a').count()).resolves.toBe(0);
    await expect(page.locator('.items .title').count()).resolves.toBe(2);
    await page.close();
  });
}
