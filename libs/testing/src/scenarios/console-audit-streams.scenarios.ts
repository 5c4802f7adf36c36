import { type Page } from 'playwright-core';
import { startHttpsReceiver } from '../audit-stream-receivers';
import { addMember, makeOrg, makeUser } from '../hub-factory';
import { SECRET } from './audit-streams-helpers';
import { answerConfirm, type ConsoleBrowser, goHash, noViolations, shot, signedIn, HUB_WORK_MS } from './console-page';

/** Waits on progress: `check` is asked again until it holds (what the receiver or the page has seen). */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + HUB_WORK_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const row = (page: Page, text: string): ReturnType<Page['locator']> =>
  page
    .getByRole('table', { name: /^Audit log streams/ })
    .getByRole('row')
    .filter({ hasText: text });

/** The list is read when the page opens: reload until the stream's pill says `state` (the worker changes it). */
async function reloadUntil(page: Page, stream: ReturnType<Page['locator']>, state: string): Promise<void> {
  await until(`the stream ${state}`, async () => {
    await page.reload();
    await page.getByRole('table', { name: /^Audit log streams/ }).waitFor();
    return (await stream.locator('.pill').filter({ hasText: state }).count()) > 0;
  });
}

/**
 * Audit log streams on the organization page (issue 39 item 5, issue 42's rules): an Enterprise
 * organization's admin creates an HTTPS stream from the form, tests it, sees events arrive, sees it
 * fail through an outage and recover, pauses,
 * resumes, reads its delivery log and deletes it after confirming; a member is offered none of it.
 * The hub runs with AUDIT_STREAM_TEST_ENV and HUB_SECRET_KEY.
 */
export function consoleAuditStreamsScenarios(c: ConsoleBrowser): void {
  it('lets an Enterprise admin create, test, pause, resume, read the log of and delete an audit stream, seen failing and recovering; a member, or an admin of a Team organization, is offered none of it', async () => {
    const t = c.t();
    const receiver = await startHttpsReceiver(SECRET);
    try {
      const admin = await makeUser(t);
      const member = await makeUser(t);
      const org = await makeOrg(t, 'enterprise', [admin.name], 'streamed');

      const { page, csp } = await signedIn(c, admin.token);
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
      await goHash(page, `#/organizations?org=${org.name}`);
      await page.getByRole('heading', { name: 'Audit log streams' }).waitFor();
      await page.getByText('No streams yet.').waitFor();

      // A bad URL: the API's message at the URL field, which says it is invalid.
      await page.getByRole('button', { name: 'New stream' }).click();
      await page.getByLabel('Endpoint URL').fill('not a url');
      await page.getByLabel(/^Signing secret/).fill(SECRET);
      await page.getByRole('button', { name: 'Create stream' }).click();
      const urlError = page.locator('#stream-url-error');
      await urlError.filter({ hasText: 'url must be an absolute http or https URL' }).waitFor();
      await expect(page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByLabel('Endpoint URL').getAttribute('aria-describedby')).resolves.toBe('stream-url-error');
      await noViolations(page, 'audit stream form with a field error');

      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Create stream' }).click();
      const stream = row(page, receiver.url);
      await stream.waitFor();
      await stream.locator('.pill').filter({ hasText: 'active' }).waitFor();
      // The secret only as its hint: never on the page.
      await stream.getByText(`secret …${SECRET.slice(-4)}`).waitFor();
      expect(await page.content()).not.toContain(SECRET);

      // Test: the destination's answer on screen, and the synthetic record at the receiver.
      await stream.getByRole('button', { name: /^Test/ }).click();
      await page.getByRole('status').filter({ hasText: 'the destination answered 200' }).waitFor();
      await page.getByRole('status').filter({ hasText: '{"ok":true}' }).waitFor();
      await until('the test record', () => receiver.requests > 0);

      // A real action's audit event reaches the receiver.
      await addMember(t, org.name, member.name, 'read');
      await until('org.add_user at the receiver', () => receiver.events.some((e) => e.type === 'org.add_user'));

      // An outage: the stream turns failing with its last error under the pill, and recovers by itself.
      receiver.down = true;
      await addMember(t, org.name, (await makeUser(t)).name, 'read');
      await reloadUntil(page, stream, 'failing');
      await stream
        .locator('small.field-error')
        .filter({ hasText: /^HTTP 503/ })
        .waitFor();
      receiver.down = false;
      await reloadUntil(page, stream, 'active');

      await stream.getByRole('button', { name: /^Pause/ }).click();
      await stream.locator('.pill').filter({ hasText: 'paused' }).waitFor();
      await stream.getByRole('button', { name: /^Resume/ }).click();
      await stream.locator('.pill').filter({ hasText: 'active' }).waitFor();

      // The delivery log: the test and the batch, with status and latency.
      await stream.getByRole('button', { name: /^Delivery log/ }).click();
      const log = page.getByRole('table', { name: /^Delivery log/ });
      await until('a delivered batch in the log', async () => {
        if ((await log.getByRole('row').filter({ hasText: 'batch' }).count()) > 0) return true;
        await page.getByRole('button', { name: 'Refresh the delivery log' }).click();
        return false;
      });
      const batch = log.getByRole('row').filter({ hasText: 'batch' }).first();
      await expect(batch.getByRole('cell').nth(3).innerText()).resolves.toBe('200');
      await expect(batch.getByRole('cell').nth(5).innerText()).resolves.toMatch(/^\d+ ms$/);
      await log.getByRole('row').filter({ hasText: 'test' }).first().waitFor();
      expect(receiver.problems).toEqual([]);
      await noViolations(page, 'audit streams with a delivery log');
      await shot(page, 'audit-streams');
      // On a phone the streams and the log scroll in their own boxes: the page stays 390 px wide.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await stream.getByRole('button', { name: /^Delete/ }).scrollIntoViewIfNeeded();
      await shot(page, 'phone-audit-streams');
      await page.setViewportSize({ width: 1200, height: 900 });

      // Delete asks first: cancelled, the stream stays; confirmed, it goes.
      await stream.getByRole('button', { name: /^Delete/ }).click();
      await answerConfirm(page, 'Delete this stream?', false);
      await expect(stream.count()).resolves.toBe(1);
      await stream.getByRole('button', { name: /^Delete/ }).click();
      await answerConfirm(page, receiver.url, true);
      await page.getByText('No streams yet.').waitFor();
      await page.getByRole('status').filter({ hasText: 'Stream deleted' }).waitFor();
      // An admin of a Team organization is told streaming needs Enterprise, and offered nothing.
      const team = await makeOrg(t, 'team', [admin.name], 'unstreamed');
      // Made after the page read the caller's organizations: loaded again.
      await page.goto(`${t.baseUrl}/#/organizations?org=${team.name}`);
      await page.reload();
      await page.getByText(/needs the Enterprise plan\.$/).waitFor();
      await expect(page.getByRole('button', { name: 'New stream' }).count()).resolves.toBe(0);
      expect(csp).toEqual([]);
      await page.close();

      // A read member is offered no stream and no action that could only fail.
      const other = await signedIn(c, member.token);
      await other.page.getByRole('heading', { name: 'Notifications' }).waitFor();
      await goHash(other.page, `#/organizations?org=${org.name}`);
      await other.page
        .getByRole('table', { name: /^Members and roles/ })
        .getByText(member.name)
        .waitFor();
      await expect(other.page.getByRole('heading', { name: 'Audit log streams' }).count()).resolves.toBe(0);
      await expect(other.page.getByRole('button', { name: 'New stream' }).count()).resolves.toBe(0);
      await other.page.close();
    } finally {
      await receiver.close();
    }
  });
}
