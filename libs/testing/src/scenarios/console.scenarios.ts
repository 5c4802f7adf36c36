import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { axeViolations, browserAvailable, launchBrowser } from '../browser';
import { readFileSync } from 'node:fs';
import { createScheduledJob } from '@huggingface/hub';
import { addMember, makeOrg, makeUser, uniqueName } from '../hub-factory';
import { discussionEvent, publishHubEvent } from '../notification-factory';
import { type ConsoleTarget } from './console-helpers';
import { repoEvent } from './webhooks-helpers';

/** Where the screenshots of each screen go when HUB_CONSOLE_SCREENSHOTS is set (docs/console/ keeps them). */
const SHOTS = process.env['HUB_CONSOLE_SCREENSHOTS'];

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function noViolations(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await axeViolations(page) }).toEqual({ screen, violations: [] });
}

/** The console in a real browser (Debian's chromium), through the main flow of each screen. */
export function consoleScenarios(t: () => ConsoleTarget): void {
  (browserAvailable() ? describe : describe.skip)('web console in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function signedIn(
      token: string,
      colorScheme: 'light' | 'dark' = 'light',
    ): Promise<{ page: Page; csp: string[] }> {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, colorScheme });
      // A step that cannot happen fails on its own, naming what it waited for, before the test's timeout.
      page.setDefaultTimeout(15_000);
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
      });
      const res = await page.goto(`${t().baseUrl}/`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await noViolations(page, 'sign-in');
      await shot(page, 'sign-in');
      await page.getByLabel('Access token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return { page, csp };
    }

    it('signs in, marks a seeded notification read and unread, deletes it, and is refused after signing out', async () => {
      const [bob, alice] = await Promise.all([makeUser(t()), makeUser(t())]);
      const repo = `${alice.name}/${uniqueName('repo')}`;
      await publishHubEvent(
        t(),
        'hub.events.discussion.create',
        discussionEvent({ actor: alice, repo, title: 'Console check', mentions: [bob] }),
      );
      const { page, csp } = await signedIn(bob.token, 'dark');
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      // The event reaches the inbox on its own time: the page polls, the test waits on what it shows.
      const item = page.getByRole('listitem').filter({ hasText: 'Console check' });
      await item.waitFor({ timeout: 30_000 });
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

      const cookies = await page.context().cookies();
      expect(cookies.find((c) => c.name === 'hub_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // The cookie is gone from the browser, and the old value is refused by the hub.
      const old = cookies.find((c) => c.name === 'hub_session');
      const res = await fetch(`${t().baseUrl}/api/notifications`, { headers: { cookie: `hub_session=${old?.value}` } });
      expect(res.status).toBe(401);
      expect(csp).toEqual([]);
      await page.close();
    });

    it('creates a webhook, shows its failed delivery, replays it to a receiver that now answers 200, recovers, disables, enables and deletes it', async () => {
      const started = Date.now();
      const owner = await makeUser(t());
      const repo = `${owner.name}/${uniqueName('repo')}`;
      const path = `/console-${uniqueName('hook')}`;
      let healthy = false;
      t().capture.on(path, () => (healthy ? { status: 200 } : { status: 500, body: '{"error":"down"}' }));
      const { page, csp } = await signedIn(owner.token);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await page.getByLabel('Target URL').fill(t().capture.url(path));
      await page.getByLabel('Watched items').fill(`model:${repo}`);
      await page.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByText('Webhook created').waitFor();
      const row = page.getByRole('row').filter({ hasText: t().capture.url(path) });
      await row.waitFor();
      await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe('active');
      await noViolations(page, 'webhooks');
      await shot(page, 'webhooks');

      await publishHubEvent(t(), 'hub.events.repo.content.update', repoEvent(repo));
      await t().capture.waitFor(path, 1, 30_000);
      await row.getByRole('link').click();
      await page.getByRole('heading', { name: /^Webhook / }).waitFor();
      const failed = page.locator('tr.failed').filter({ hasText: '500' }).first();
      await waitForReload(page, failed);
      await noViolations(page, 'webhook');
      await shot(page, 'webhook');
      healthy = true;
      await failed.getByRole('button', { name: /^Replay/ }).click();
      await page.getByText('Replayed: the receiver answered 2xx').waitFor();
      await page.locator('tr.ok').filter({ hasText: 'replay' }).first().waitFor();
      const last = t().capture.at(path).at(-1);
      expect(last?.json['repo']).toMatchObject({ name: repo });

      // Recovery of every failed delivery since before the test began, with its progress shown.
      await page.getByLabel('Recover failed deliveries since').fill(localMinute(started - 60_000));
      await page.getByRole('button', { name: 'Recover', exact: true }).click();
      await page.getByText('Recovery finished').waitFor({ timeout: 30_000 });
      await page.getByText(/^Recovery done: \d+ of \d+ sent, \d+ succeeded, 0 failed$/).waitFor();

      // Back on the list: disable, enable, delete.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      const listed = page.getByRole('row').filter({ hasText: t().capture.url(path) });
      await listed.getByRole('button', { name: 'Disable' }).click();
      await listed.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
      await listed.getByRole('button', { name: 'Enable' }).click();
      await listed.getByRole('cell', { name: 'active', exact: true }).waitFor();
      await listed.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Deleted').waitFor();
      await expect(listed.count()).resolves.toBe(0);
      expect(csp).toEqual([]);
      await page.close();
    });

    it('runs a job from the form and shows its log lines as they arrive, then filters by its label', async () => {
      const user = await makeUser(t());
      const { page, csp } = await signedIn(user.token);
      await page.getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
      await noViolations(page, 'jobs');
      await page.getByLabel('Command (sh -c)').fill('for i in 1 2 3; do echo console-line-$i; sleep 1; done');
      await page.getByLabel(/^Labels/).fill('suite=console');
      await page.getByRole('button', { name: 'Run job' }).click();
      await page.getByRole('heading', { name: /^Job / }).waitFor();
      const log = page.getByLabel('Job log');
      // Lines arrive one a second: the first shows before the job has finished.
      await log.filter({ hasText: 'console-line-1' }).waitFor({ timeout: 30_000 });
      const stageWhenFirstLine = await page.locator('p strong').first().innerText();
      await log.filter({ hasText: 'console-line-3' }).waitFor({ timeout: 30_000 });
      expect(['SCHEDULING', 'RUNNING']).toContain(stageWhenFirstLine);
      await page.getByRole('listitem').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Timestamps').check();
      await expect(log.innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\dT\S+ console-line-1$/m);
      await noViolations(page, 'job');
      await shot(page, 'job');
      await page.getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.getByRole('button', { name: 'suite=console' }).first().click();
      await page.waitForURL(/label=suite%3Dconsole/);
      await page.getByText('Showing jobs labelled').waitFor();
      await shot(page, 'jobs');
      expect(csp).toEqual([]);
      await page.close();
    }, 120_000);

    it('cancels a running job from its page and duplicates it from the list', async () => {
      const user = await makeUser(t());
      const { page } = await signedIn(user.token);
      await page.getByRole('link', { name: 'Jobs', exact: true }).click();
      await page.getByLabel('Command (sh -c)').fill('echo started; sleep 120');
      await page.getByRole('button', { name: 'Run job' }).click();
      await page.getByLabel('Job log').filter({ hasText: 'started' }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Cancel job' }).click();
      await page.getByRole('listitem').filter({ hasText: 'CANCELED' }).waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'Jobs', exact: true }).click();
      const rows = page.getByRole('row').filter({ hasText: 'alpine:3' });
      await rows.first().waitFor();
      await rows.first().getByRole('button', { name: 'Duplicate' }).click();
      await page.getByText('Duplicated').waitFor();
      await expect(rows.count()).resolves.toBe(2);
      await page.close();
    }, 90_000);

    it("shows an organization's members and storage, and exports its audit log filtered by q", async () => {
      const [admin, member] = await Promise.all([makeUser(t()), makeUser(t())]);
      const org = await makeOrg(t(), 'enterprise', [admin.name]);
      await addMember(t(), org.name, member.name, 'read');
      const { page, csp } = await signedIn(admin.token);
      await page.getByRole('link', { name: 'Organizations' }).click();
      await page.getByRole('heading', { name: 'Organizations' }).waitFor();
      await page.getByRole('row').filter({ hasText: member.name }).waitFor();
      await page.getByLabel('Filter (q)').fill('type:org.add_user');
      // The audit log is fed through the outbox: export until the member's event is in it.
      const deadline = Date.now() + 30_000;
      for (;;) {
        await page.getByRole('button', { name: 'Export audit log' }).click();
        await page.getByText('Audit log read').waitFor();
        if ((await page.getByRole('row').filter({ hasText: 'org.add_user' }).count()) > 0) break;
        if (Date.now() > deadline) throw new Error('no org.add_user event in the export');
        await page.waitForTimeout(500);
      }
      await page.waitForURL(/q=type%3Aorg.add_user/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: /^Download/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${org.name}-audit-log-\\d{4}-\\d\\d-\\d\\d\\.json$`));
      const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as { type: string }[];
      expect(exported.length).toBeGreaterThan(0);
      expect(new Set(exported.map((e) => e.type))).toEqual(new Set(['org.add_user']));
      await noViolations(page, 'organizations');
      await shot(page, 'organizations');
      expect(csp).toEqual([]);
      await page.close();
    }, 90_000);

    it('changes a notification switch and adds and removes a watched item', async () => {
      const user = await makeUser(t());
      const { page } = await signedIn(user.token);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const first = page.locator('input.switch').first();
      await first.waitFor();
      const before = await first.isChecked();
      await first.click();
      await page.getByText('Settings saved').waitFor();
      const saved = await fetch(`${t().baseUrl}/api/settings/notifications`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const values = Object.values(((await saved.json()) as { notifications: Record<string, unknown> }).notifications);
      expect(values.filter((v) => typeof v === 'boolean')[0]).toBe(!before);
      await page.getByLabel('Type').selectOption('user');
      await page.getByLabel('Name').fill(user.name);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page
        .getByRole('listitem')
        .filter({ hasText: `user ${user.name}` })
        .waitFor();
      await noViolations(page, 'settings');
      await shot(page, 'settings');
      await page.getByRole('button', { name: `Remove ${user.name}` }).click();
      await page.getByText('Removed').waitFor();
      await expect(
        page
          .getByRole('listitem')
          .filter({ hasText: `user ${user.name}` })
          .count(),
      ).resolves.toBe(0);
      await page.close();
    });

    it('suspends, resumes, runs now and deletes a scheduled job', async () => {
      const user = await makeUser(t());
      await createScheduledJob({
        accessToken: user.token,
        hubUrl: t().baseUrl,
        namespace: user.name,
        schedule: '0 0 1 1 *',
        jobSpec: { dockerImage: 'alpine:3', command: ['sh', '-c', 'echo scheduled'], flavor: 'cpu-basic' },
      });
      const { page } = await signedIn(user.token);
      await page.getByRole('link', { name: 'Scheduled jobs' }).click();
      await page.getByRole('heading', { name: 'Scheduled jobs' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: '0 0 1 1 *' });
      await row.getByRole('button', { name: 'Suspend' }).click();
      await row.getByRole('cell', { name: 'yes', exact: true }).waitFor();
      await noViolations(page, 'scheduled-jobs');
      await shot(page, 'scheduled-jobs');
      await row.getByRole('button', { name: 'Resume' }).click();
      await row.getByRole('cell', { name: 'no', exact: true }).waitFor();
      await row.getByRole('button', { name: 'Run now' }).click();
      await page.getByText('Started a run').waitFor();
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No scheduled jobs.').waitFor();
      await page.close();
    });

    it('lets an operator sign in with the admin token: a user, a token shown once, an organization, a member, a test event', async () => {
      const { page } = await signedIn(t().adminToken);
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
      const me = await fetch(`${t().baseUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await me.json()) as { name: string }).name).toBe(name);
      const org = uniqueName('org');
      await page.getByLabel('Name', { exact: true }).fill(org);
      await page.getByLabel('First admin (user name)').fill(name);
      await page.getByRole('button', { name: 'Create organization' }).click();
      await page.getByText('Organization created').waitFor();
      const other = await makeUser(t());
      await page.getByLabel('Organization', { exact: true }).fill(org);
      await page.getByLabel('User', { exact: true }).fill(other.name);
      await page.locator('form').filter({ hasText: 'Add a member' }).getByLabel(/^Role/).selectOption('write');
      await page.getByRole('button', { name: 'Add member' }).click();
      await page.getByText('Member added').waitFor();
      const members = await fetch(`${t().baseUrl}/api/organizations/${org}/members`, {
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
      await shot(page, 'operator');
      await page.close();
    });
  });
}

/** A datetime-local field's value (the browser's local time, as this process's) for an instant. */
function localMinute(ms: number): string {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

async function expectText(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).filter({ hasText: text }).waitFor({ timeout: 15_000 });
}

/** The log is read when the page opens: reload until the row shows (deliveries land asynchronously). */
async function waitForReload(page: Page, row: ReturnType<Page['locator']>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if ((await row.count()) > 0) return;
    if (Date.now() > deadline) throw new Error('no failed delivery in the log');
    await page.waitForTimeout(300);
    await page.reload();
    await page.getByRole('heading', { name: /^Webhook / }).waitFor();
  }
}
