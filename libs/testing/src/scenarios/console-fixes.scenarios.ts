import { readFileSync } from 'node:fs';
import { http } from '../http-client';
import { addMember, makeOrg, makeUser, type TestUser, uniqueName } from '../hub-factory';
import { discussionEvent, publishHubEvent } from '../notification-factory';
import {
  answerConfirm,
  type ConsoleBrowser,
  expectText,
  goHash,
  noViolations,
  shot,
  signedIn,
  HUB_WORK_MS,
} from './console-page';
import { repoEvent } from './webhooks-helpers';

async function runJob(c: ConsoleBrowser, user: TestUser, namespace: string, script: string): Promise<string> {
  const res = await http<{ id: string }>(c.t().baseUrl, 'POST', `/api/jobs/${namespace}`, {
    token: user.token,
    body: { dockerImage: 'alpine:3', command: ['sh', '-c', script], flavor: 'cpu-basic' },
  });
  if (res.status !== 200) throw new Error(`job create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** What sticks out past 390 px outside a scrolling table: elements, and text running out of its element. */
const STICKING_OUT = `(() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n && out.length < 5; n = walk.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(n);
    if (range.getBoundingClientRect().right > 390 && !n.parentElement.closest('.table-box'))
      out.push(n.parentElement.tagName + ': ' + n.textContent.slice(0, 40));
  }
  return out;
})()`;

/** Issue 42's broken items, each as its user met it. */
export function consoleFixesScenarios(c: ConsoleBrowser): void {
  it("shows only the new job's log, timeline and banners when going from one job's page to another's", async () => {
    const user = await makeUser(c.t());
    const first = await runJob(c, user, user.name, 'echo first-job-line; sleep 120');
    const second = await runJob(c, user, user.name, 'echo second-job-line; echo "Error: disk full"');
    const { page } = await signedIn(c, user.token);
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await goHash(page, `#/jobs/${user.name}/${first}`);
    const log = page.getByLabel('Job log');
    await log.filter({ hasText: 'first-job-line' }).waitFor({ timeout: HUB_WORK_MS });
    // Cancelling asks first; the first answer (Cancel) leaves the job running.
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await answerConfirm(page, `Job ${first} stops now`, false);
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await answerConfirm(page, `Job ${first} stops now`, true);
    await page.getByText('Cancel requested').waitFor();
    await page.getByRole('listitem').filter({ hasText: 'CANCELED' }).waitFor({ timeout: HUB_WORK_MS });

    await goHash(page, `#/jobs/${user.name}/${second}`);
    await page.getByRole('heading', { name: `Job ${second}` }).waitFor();
    await log.filter({ hasText: 'second-job-line' }).waitFor({ timeout: HUB_WORK_MS });
    await page.getByRole('listitem').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: HUB_WORK_MS });
    await expect(log.innerText()).resolves.toBe('second-job-line\nError: disk full');
    await expect(page.getByRole('listitem').filter({ hasText: 'CANCELED' }).count()).resolves.toBe(0);
    await expect(page.getByText('Cancel requested').count()).resolves.toBe(0);
    await expect(page.locator('p strong').first().innerText()).resolves.toBe('COMPLETED');
    await page.getByText('The log stream has ended.').waitFor({ timeout: HUB_WORK_MS });
    // The log's tools: jump to the first error, search, download.
    await page.getByRole('button', { name: 'Jump to first error' }).click();
    await log.locator('.hit').filter({ hasText: 'Error: disk full' }).waitFor();
    await page.getByLabel('Search the log').fill('DISK');
    await expect(log.innerText()).resolves.toBe('Error: disk full');
    await page.getByRole('button', { name: 'Download log' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Save job-${second}.log` }).click(),
    ]);
    expect(readFileSync(await download.path(), 'utf8')).toBe('second-job-line\nError: disk full');
    await noViolations(page, 'job, log tools');
    await page.close();
  });

  it('lists each event once with its attempts, says when retries are used up, previews and explains a recovery', async () => {
    const owner = await makeUser(c.t());
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const path = `/console-retries-${uniqueName('hook')}`;
    let healthy = false;
    c.t().capture.on(path, () => (healthy ? { status: 200 } : { status: 500, body: '{"error":"down"}' }));
    const made = await http<{ webhook: { id: string } }>(c.t().baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { url: c.t().capture.url(path), watched: [{ type: 'model', name: repo }], domains: ['repo'] },
    });
    expect(made.status).toBe(200);
    await publishHubEvent(c.t(), 'hub.events.repo.content.update', repoEvent(repo));
    // The retry schedule of the tests is 5 × 0.2 s: six attempts, then the delivery is given up.
    await c.t().capture.waitFor(path, 6, HUB_WORK_MS);
    const { page } = await signedIn(c, owner.token);
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await goHash(page, `#/webhooks/${made.body.webhook.id}`);
    const rows = page.locator('table.deliveries tbody tr');
    const spent = rows.filter({ hasText: 'attempt 6 of 6 failed, retries used up' });
    const deadline = Date.now() + HUB_WORK_MS;
    while ((await spent.count()) === 0) {
      if (Date.now() > deadline) throw new Error('no delivery with its retries used up');
      await page.waitForTimeout(300);
      await page.reload();
      await page.getByRole('heading', { name: /^Webhook / }).waitFor();
    }
    // One event, one row: its six attempts are inside it, each a 500.
    await expect(rows.count()).resolves.toBe(1);
    await spent.getByText('6 attempts, last 500').click();
    await expect(spent.locator('ol.attempts > li').count()).resolves.toBe(6);
    await expect(spent.locator('ol.attempts > li.failed').count()).resolves.toBe(6);
    await noViolations(page, 'webhook, deliveries');
    await shot(page, 'webhook-deliveries');

    // The preview counts what a recovery would take; the recovery takes it and says so.
    await page.getByRole('button', { name: 'Last hour' }).click();
    await page
      .getByText('Of the deliveries shown below, 1 has used up its retries since then and would be resent')
      .waitFor();
    healthy = true;
    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page.getByText('Recovery done: 1 of 1 sent, 1 succeeded, 0 failed').waitFor({ timeout: HUB_WORK_MS });
    await rows.filter({ hasText: 'delivered (recovery)' }).waitFor();
    // Again: nothing left to take, and the page says why instead of "0 of 0 sent".
    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page
      .getByText(/^Nothing to recover since .+: only deliveries whose retries are used up are recovered\.$/)
      .waitFor({ timeout: HUB_WORK_MS });
    await expect(page.getByText('0 of 0 sent').count()).resolves.toBe(0);
    // The list shows its health at a glance: six failures and the recovered one, oldest first.
    await goHash(page, '#/webhooks');
    const strip = page.getByRole('img', { name: '1 of the last 7 attempts succeeded' });
    await strip.waitFor();
    await expect(strip.locator('.mark.failed').count()).resolves.toBe(6);
    await expect(strip.locator('.mark').last().getAttribute('class')).resolves.toBe('mark ok');
    await goHash(page, `#/webhooks/${made.body.webhook.id}`);
    await page.getByRole('heading', { name: /^Webhook / }).waitFor();
    // The API's refusal shows as it comes: a disabled webhook is not recovered.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.locator('p', { hasText: 'State: disabled' }).waitFor();
    await page.getByRole('button', { name: 'Last day' }).click();
    await page.getByRole('button', { name: 'Recover', exact: true }).click();
    await page
      .locator('.status.error')
      .filter({ hasText: /^409: / })
      .waitFor();
    await page.close();
  });

  it('asks before deleting a webhook (a cancelled confirm deletes nothing) and sends one request per click', async () => {
    const owner = await makeUser(c.t());
    const url = c.t().capture.url(`/console-confirm-${uniqueName('hook')}`);
    const made = await http(c.t().baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { url, watched: [{ type: 'user', name: owner.name }], domains: ['repo'] },
    });
    expect(made.status).toBe(200);
    const count = async (): Promise<number> =>
      (await http<unknown[]>(c.t().baseUrl, 'GET', '/api/settings/webhooks', { token: owner.token })).body.length;
    const { page } = await signedIn(c, owner.token);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const row = page.getByRole('row').filter({ hasText: url });
    await row.getByRole('button', { name: 'Delete' }).click();
    await noViolations(page, 'webhooks, confirm');
    await answerConfirm(page, `${url} stops receiving events`, false);
    await expect(count()).resolves.toBe(1);
    await expect(row.count()).resolves.toBe(1);

    // Held on its way: while it runs, the buttons are disabled, and a second click sends nothing.
    let deletes = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/settings/webhooks/*', async (route) => {
      if (route.request().method() !== 'DELETE') return route.continue();
      deletes += 1;
      await held;
      await route.continue();
    });
    await row.getByRole('button', { name: 'Delete' }).click();
    await answerConfirm(page, `${url} stops receiving events`, true);
    await expect(row.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
    await row.getByRole('button', { name: 'Delete' }).click({ force: true });
    release();
    await page.getByText('Deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(deletes).toBe(1);
    await expect(count()).resolves.toBe(0);
    await page.close();
  }, 60_000);

  it('says that "Delete all matching" with no filter is the whole inbox, with its count, and a cancel keeps it', async () => {
    const [bob, alice] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const repo = `${alice.name}/${uniqueName('repo')}`;
    for (const title of ['One', 'Two', 'Three'])
      await publishHubEvent(
        c.t(),
        'hub.events.discussion.create',
        discussionEvent({ actor: alice, repo, title, mentions: [bob] }),
      );
    const inbox = async (): Promise<number> =>
      (await http<{ count: { all: number } }>(c.t().baseUrl, 'GET', '/api/notifications', { token: bob.token })).body
        .count.all;
    const { page } = await signedIn(c, bob.token);
    await expectText(page, '.count', '3 unread of 3');
    await page.getByRole('button', { name: 'Delete all matching' }).click();
    await answerConfirm(page, 'Delete your whole inbox (3 notifications)?', false);
    await expect(inbox()).resolves.toBe(3);
    await expectText(page, '.count', '3 unread of 3');
    // With a filter, it says how many match.
    await page.getByLabel('Read status').selectOption('unread');
    await page.waitForURL(/readStatus=unread/);
    await page.getByRole('button', { name: 'Delete all matching' }).click();
    await answerConfirm(page, 'Delete 3 matching notifications?', true);
    await page.getByText('Deleted').waitFor();
    await expect(inbox()).resolves.toBe(0);
    await page.close();
  }, 60_000);

  it('keeps every screen within a 390 px phone, the menu wrapped and Sign out on screen', async () => {
    const user = await makeUser(c.t());
    await runJob(c, user, user.name, 'echo phone');
    const made = await http<{ webhook: { id: string } }>(c.t().baseUrl, 'POST', '/api/settings/webhooks', {
      token: user.token,
      body: {
        url: c.t().capture.url(`/console-phone-${uniqueName('a-rather-long-path-that-does-not-break')}`),
        watched: [{ type: 'user', name: user.name }],
        domains: ['repo'],
      },
    });
    expect(made.status).toBe(200);
    const { page } = await signedIn(c, user.token, 'light', { width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    // Each screen, and a row it lists (the tables are what pushed pages wide).
    const screens: [string, string | RegExp, string?][] = [
      ['#/notifications', 'Notifications'],
      ['#/webhooks', 'Webhooks', 'console-phone-'],
      [`#/webhooks/${made.body.webhook.id}`, /^Webhook /],
      ['#/jobs', 'Jobs', 'alpine:3'],
      ['#/scheduled-jobs', 'Scheduled jobs'],
      ['#/organizations', 'Organizations'],
      ['#/settings', 'Settings'],
    ];
    for (const [hash, title, row] of screens) {
      await goHash(page, hash);
      await page.getByRole('heading', { name: title, exact: typeof title === 'string' }).waitFor();
      if (row) await page.getByRole('row').filter({ hasText: row }).first().waitFor();
      // Lists load after the heading: measured once the network is quiet.
      await page.waitForLoadState('networkidle');
      const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      // On failure, the innermost elements that stick out say what to fix.
      const wide = width <= 390 ? 'within 390' : { width, sticking: await page.evaluate(STICKING_OUT) };
      expect({ hash, scrollWidth: wide }).toEqual({ hash, scrollWidth: 'within 390' });
      const out = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
      expect({ hash, visible: !!out && out.x >= 0 && out.x + out.width <= 390 && out.y >= 0 }).toEqual({
        hash,
        visible: true,
      });
    }
    await goHash(page, '#/jobs');
    await page.getByRole('row').filter({ hasText: 'alpine:3' }).waitFor();
    await noViolations(page, 'jobs, phone');
    await shot(page, 'phone-jobs');
    await goHash(page, '#/notifications');
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await shot(page, 'phone-notifications');
    await page.close();
  }, 90_000);

  it("offers a read-only member no Duplicate, Cancel or Run job on its organization's jobs", async () => {
    const [admin, reader] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const org = await makeOrg(c.t(), 'enterprise', [admin.name]);
    await addMember(c.t(), org.name, reader.name, 'read');
    await runJob(c, admin, org.name, 'echo org-job; sleep 60');
    await runJob(c, reader, reader.name, 'echo own-job');
    const { page } = await signedIn(c, reader.token);
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    const orgRow = page.getByRole('row').filter({ hasText: org.name });
    const ownRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: reader.name, exact: true }) });
    await orgRow.waitFor();
    await ownRow.getByRole('button', { name: /^Duplicate/ }).waitFor();
    await expect(orgRow.getByRole('button').count()).resolves.toBe(0);
    // The form offers only the namespaces it may run in.
    await expect(page.getByLabel('Namespace').locator('option').allInnerTexts()).resolves.toEqual([reader.name]);
    await orgRow.getByRole('link').click();
    await page.getByRole('heading', { name: /^Job / }).waitFor();
    await page.getByLabel('Job log').filter({ hasText: 'org-job' }).waitFor({ timeout: HUB_WORK_MS });
    await expect(page.getByRole('button', { name: /^(Cancel job|Run again)$/ }).count()).resolves.toBe(0);
    await page.close();
  }, 90_000);
}
