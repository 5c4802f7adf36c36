import { makeUser, uniqueName } from '../hub-factory';
import { discussionEvent, publishHubEvent } from '../notification-factory';
import {
  answerConfirm,
  type ConsoleBrowser,
  expectText,
  localMinute,
  noViolations,
  shot,
  signedIn,
  waitForReload,
  HUB_WORK_MS,
} from './console-page';
import { repoEvent } from './webhooks-helpers';

/** Sign-in and sign-out, Notifications, Webhooks and a webhook's page, Operator: each screen's main flow. */
export function consoleInboxScenarios(c: ConsoleBrowser): void {
  it('signs in, marks a seeded notification read and unread, deletes it, sees a new one arrive live, and is refused after signing out', async () => {
    const [bob, alice] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const repo = `${alice.name}/${uniqueName('repo')}`;
    await publishHubEvent(
      c.t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, title: 'Console check', mentions: [bob] }),
    );
    const { page, csp } = await signedIn(c, bob.token, 'dark');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    // The event reaches the inbox on its own time: the page polls, the test waits on what it shows.
    const item = page.getByRole('listitem').filter({ hasText: 'Console check' });
    await item.waitFor({ timeout: HUB_WORK_MS });
    await expectText(page, '.count', '1 unread of 1');
    await noViolations(page, 'notifications');
    await shot(page, 'notifications');
    await item.getByRole('button', { name: /^Mark read/ }).click();
    await expectText(page, '.count', '0 unread of 1');
    await page.getByLabel('Read status').selectOption('unread');
    await page.waitForURL(/readStatus=unread/);
    await page.getByText('No notifications.').waitFor();
    await page.getByLabel('Read status').selectOption('');
    await item.getByRole('button', { name: /^Mark unread/ }).click();
    await expectText(page, '.count', '1 unread of 1');
    await item.getByRole('button', { name: /^Delete/ }).click();
    await expectText(page, '.count', '0 unread of 0');
    // Live: a notification that arrives while the page is open shows up, and the count with it, without a reload.
    await publishHubEvent(
      c.t(),
      'hub.events.discussion.create',
      discussionEvent({ actor: alice, repo, title: 'Arrived while open', mentions: [bob] }),
    );
    await page.getByRole('listitem').filter({ hasText: 'Arrived while open' }).waitFor({ timeout: HUB_WORK_MS });
    await expectText(page, '.count', '1 unread of 1');

    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'hub_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The cookie is gone from the browser, and the old value is refused by the hub.
    const old = cookies.find((c) => c.name === 'hub_session');
    const res = await fetch(`${c.t().baseUrl}/api/notifications`, { headers: { cookie: `hub_session=${old?.value}` } });
    expect(res.status).toBe(401);
    expect(csp).toEqual([]);
    await page.close();
  });

  it('works from the keyboard: sign-in field first, Enter signs in, the heading takes focus, Sign out is reachable', async () => {
    const user = await makeUser(c.t());
    const page = await c.browser().newPage();
    page.setDefaultTimeout(15_000);
    const focused = (): Promise<string> =>
      page.evaluate(
        "(document.activeElement.id || document.activeElement.tagName + ':' + (document.activeElement.closest('label')?.textContent ?? ''))",
      );
    await page.goto(`${c.t().baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('INPUT:Access token');
    await page.keyboard.type(user.token);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.waitForFunction("document.activeElement && document.activeElement.id === 'screen-title'");
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toMatch(/^SELECT:Read status/);
    // Back past the heading (focusable by script only) to the header's last control: Sign out.
    await page.keyboard.press('Shift+Tab');
    await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Sign out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
  });

  it('sends the page back to sign-in, saying why, when its token is revoked elsewhere', async () => {
    const user = await makeUser(c.t());
    const { page } = await signedIn(c, user.token);
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const revoked = await fetch(`${c.t().baseUrl}/api/credentials/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credentials: [user.token] }),
    });
    expect(revoked.status).toBeLessThan(300);
    // The inbox's next poll is refused: the page says so on the sign-in form.
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: HUB_WORK_MS });
    await page.getByText('Your session has ended; sign in again.').waitFor();
    await page.close();
  });

  it('creates a webhook, shows its failed delivery, replays it to a receiver that now answers 200, recovers, disables, enables and deletes it', async () => {
    const started = Date.now();
    const owner = await makeUser(c.t());
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const path = `/console-${uniqueName('hook')}`;
    let healthy = false;
    c.t().capture.on(path, () => (healthy ? { status: 200 } : { status: 500, body: '{"error":"down"}' }));
    const { page, csp } = await signedIn(c, owner.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Target URL').fill('https://hooks.example.com/in');
    await expect(page.getByText('This is a private address').count()).resolves.toBe(0);
    // The receiver is on loopback: the form says deliveries may be refused (this hub allows it).
    await page.getByLabel('Target URL').fill(c.t().capture.url(path));
    await page.getByText('This is a private address').waitFor();
    await page.getByLabel('Watched items').fill(`model:${repo}`);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Webhook created').waitFor();
    const row = page.getByRole('row').filter({ hasText: c.t().capture.url(path) });
    await row.waitFor();
    await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe('active');
    await noViolations(page, 'webhooks');
    await shot(page, 'webhooks');

    await publishHubEvent(c.t(), 'hub.events.repo.content.update', repoEvent(repo));
    await c.t().capture.waitFor(path, 1, HUB_WORK_MS);
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: /^Webhook / }).waitFor();
    const failed = page.locator('table.deliveries tr.failed').filter({ hasText: 'last 500' }).first();
    await waitForReload(page, failed);
    await noViolations(page, 'webhook');
    await shot(page, 'webhook');
    healthy = true;
    await failed.getByRole('button', { name: /^Replay/ }).click();
    await page.getByText('Replayed: the receiver answered 2xx').waitFor();
    await page.locator('tr.ok').filter({ hasText: 'replay' }).first().waitFor();
    const last = c.t().capture.at(path).at(-1);
    expect(last?.json['repo']).toMatchObject({ name: repo });

    // Edit: a second watched item; the secret field stays empty (write-only, never shown).
    const other = `${owner.name}/${uniqueName('repo')}`;
    await page.getByLabel('Watched items').fill(`model:${repo}, model:${other}`);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const saved = await fetch(`${c.t().baseUrl}/api/settings/webhooks`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(((await saved.json()) as { watched: { name: string }[] }[])[0].watched.map((w) => w.name)).toEqual([
      repo,
      other,
    ]);
    // The failures may have suspended it by now (HUB_WEBHOOK_SUSPEND_AFTER_FAILURES): made active
    // again from its page, so that recovered deliveries go out.
    await page.reload();
    const state = page.locator('p', { hasText: 'State:' }).locator('strong');
    await state.waitFor();
    if ((await state.innerText()) !== 'active') {
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.locator('p', { hasText: 'State: active' }).waitFor();
    }
    // Recovery of every failed delivery since before the test began, with its progress shown.
    await page.getByLabel('Recover failed deliveries since').fill(localMinute(started - 60_000));
    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page.getByText('Recovery finished').waitFor({ timeout: HUB_WORK_MS });
    // The replayed delivery may have been retried to success meanwhile (nothing left to take).
    await page
      .getByText(/^(Recovery done: \d+ of \d+ sent, \d+ succeeded, 0 failed|Nothing to recover since .+)$/)
      .waitFor();

    // Back on the list: disable, enable, delete.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const listed = page.getByRole('row').filter({ hasText: c.t().capture.url(path) });
    await listed.getByRole('button', { name: 'Disable' }).click();
    await listed.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
    await listed.getByRole('button', { name: 'Enable' }).click();
    await listed.getByRole('cell', { name: 'active', exact: true }).waitFor();
    await listed.getByRole('button', { name: 'Delete' }).click();
    await answerConfirm(page, 'stops receiving events', true);
    await page.getByText('Deleted').waitFor();
    // The list reloads after the answer: the row goes when it has.
    await listed.waitFor({ state: 'detached' });
    expect(csp).toEqual([]);
    await page.close();
  }, 90_000);

  it('lets an operator sign in with the admin token: a user, a token shown once, an organization, a member, a test event', async () => {
    const { page } = await signedIn(c, c.t().adminToken);
    await page.getByRole('heading', { name: 'Operator' }).waitFor();
    const name = uniqueName('made');
    await page.getByLabel('User name', { exact: true }).fill(name);
    await page.getByLabel('E-mail').fill(`${name}@example.com`);
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User created').waitFor();
    await page.getByLabel('For user').fill(name);
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('alert').locator('code');
    await shown.waitFor();
    const token = await shown.innerText();
    // Said plainly, and copied as shown.
    await page.getByText('Copy it now: this is the only time it is shown.').waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.t().baseUrl });
    await page.getByRole('button', { name: 'Copy token' }).click();
    await page.getByRole('alert').getByText('Copied').waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(token);
    const me = await fetch(`${c.t().baseUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { name: string }).name).toBe(name);
    const org = uniqueName('org');
    await page.getByLabel('Name', { exact: true }).fill(org);
    await page.getByLabel('First admin (user name)').fill(name);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('Organization created').waitFor();
    const other = await makeUser(c.t());
    await page.getByLabel('Organization', { exact: true }).fill(org);
    await page.getByLabel('User', { exact: true }).fill(other.name);
    await page.locator('form').filter({ hasText: 'Add a member' }).getByLabel(/^Role/).selectOption('write');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('Member added').waitFor();
    const members = await fetch(`${c.t().baseUrl}/api/organizations/${org}/members`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await members.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ user: other.name, role: 'write' })]),
    );
    await page.getByLabel('Subject').fill('hub.events.repo.content.update');
    await page.getByLabel('Payload (JSON)').fill(JSON.stringify(repoEvent(`${name}/${uniqueName('repo')}`)));
    await page.getByRole('button', { name: 'Publish event' }).click();
    await page.getByText('Event published').waitFor();
    await noViolations(page, 'operator');
    await page.close();
  });
}
