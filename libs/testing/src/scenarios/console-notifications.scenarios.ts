import { type Page } from 'playwright-core';
import { makeUser, uniqueName } from '../hub-factory';
import { discussionEvent, publishHubEvent } from '../notification-factory';
import {
  answerConfirm,
  type ConsoleBrowser,
  expectText,
  noViolations,
  shot,
  signedIn,
  HUB_WORK_MS,
} from './console-page';

/** Waits for the tab's title: it is set in an effect after the paint that showed the list. */
const titleBecomes = async (page: Page, want: string): Promise<void> => {
  await page
    .waitForFunction(`document.title === ${JSON.stringify(want)}`, undefined, { timeout: 5000 })
    .catch(async () => expect(await page.evaluate<string>('document.title')).toBe(want));
};

/** Issue 42 item 10: notifications like the hub's own; an unread badge in the menu and the tab's title. */
export function consoleNotificationsScenarios(c: ConsoleBrowser): void {
  it('says what each notification is and who acted, checks several for one action, and keeps an unread badge in the menu and the tab title', async () => {
    const [bob, alice] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const repo = `${alice.name}/${uniqueName('repo')}`;
    await publishHubEvent(
      c.t(),
      'hub.events.discussion.create',
      discussionEvent({
        actor: alice,
        repo,
        num: 7,
        title: 'Faster tokenizer',
        isPullRequest: true,
        mentions: [bob],
      }),
    );
    await publishHubEvent(
      c.t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, num: 8, title: 'Question about licence', mentions: [bob] }),
    );
    const { page } = await signedIn(c, bob.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const pr = page.getByRole('listitem').filter({ hasText: 'Faster tokenizer' });
    const question = page.getByRole('listitem').filter({ hasText: 'Question about licence' });
    await pr.waitFor({ timeout: HUB_WORK_MS });
    await question.waitFor({ timeout: HUB_WORK_MS });
    await expectText(page, '.count', '2 unread of 2');
    // What it is, and who acted.
    await expect(pr.locator('.kind').textContent()).resolves.toBe('Pull request · open');
    await expect(question.locator('.kind').textContent()).resolves.toBe('Discussion · open');
    await expect(pr.locator('.meta').textContent()).resolves.toContain(alice.name);
    // The badge and the tab's title.
    const menu = page.getByRole('navigation', { name: 'Console' });
    await menu.getByRole('link', { name: 'Notifications 2 unread' }).waitFor();
    await titleBecomes(page, '(2) Notifications · Hub console');
    await noViolations(page, 'notifications, kinds and checkboxes');

    // Two checked, one action: both read; the badge goes.
    await pr.getByRole('checkbox').check();
    await question.getByRole('checkbox').check();
    await page.getByText('2 checked').waitFor();
    await shot(page, 'notifications-checked');
    await page.getByRole('button', { name: 'Mark checked read' }).click();
    await expectText(page, '.count', '0 unread of 2');
    await menu.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await titleBecomes(page, 'Notifications · Hub console');

    // On another screen the badge follows the inbox on its own.
    await menu.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await publishHubEvent(
      c.t(),
      'hub.events.discussion.create',
      discussionEvent({
        actor: alice,
        repo,
        num: 9,
        title: 'Merged docs',
        status: 'merged',
        isPullRequest: true,
        mentions: [bob],
      }),
    );
    await menu.getByRole('link', { name: 'Notifications 1 unread' }).waitFor({ timeout: HUB_WORK_MS });
    await titleBecomes(page, '(1) Settings · Hub console');
    // Settings read as sentences, in groups.
    await page.getByRole('group', { name: 'Discussions and posts' }).waitFor();
    await page.getByLabel('Email me about discussions I take part in').waitFor();
    await noViolations(page, 'settings, sentences');
    await shot(page, 'settings-sentences');

    // Checking all of the page and deleting asks first; a cancel keeps them.
    await menu.getByRole('link', { name: /^Notifications/ }).click();
    await page.getByRole('listitem').filter({ hasText: 'Merged docs' }).waitFor();
    await expect(
      page.getByRole('listitem').filter({ hasText: 'Merged docs' }).locator('.kind').textContent(),
    ).resolves.toBe('Pull request · merged');
    await page.getByLabel('Check all on this page').check();
    await page.getByText('3 checked').waitFor();
    await page.getByRole('button', { name: 'Delete checked' }).click();
    await answerConfirm(page, 'Delete 3 selected notifications?', false);
    await expectText(page, '.count', '1 unread of 3');
    await page.getByRole('button', { name: 'Delete checked' }).click();
    await answerConfirm(page, 'Delete 3 selected notifications?', true);
    await page.getByText('No notifications.').waitFor();
    await titleBecomes(page, 'Notifications · Hub console');

    // A phone: the badge and every action within 390 px.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    await page.close();
  });
}
