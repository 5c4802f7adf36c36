import { readFileSync } from 'node:fs';
import { createScheduledJob } from '@huggingface/hub';
import { http } from '../http-client';
import { addMember, makeOrg, makeUser } from '../hub-factory';
import { answerConfirm, type ConsoleBrowser, noViolations, shot, signedIn, HUB_WORK_MS } from './console-page';

/** Jobs and a job's page, Organizations, Settings, Scheduled jobs: each screen's main flow. */
export function consoleWorkScenarios(c: ConsoleBrowser): void {
  it('runs a job from the form and shows its log lines as they arrive, then filters by its label', async () => {
    const user = await makeUser(c.t());
    const { page, csp } = await signedIn(c, user.token);
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
    await noViolations(page, 'jobs');
    await page.getByLabel('Command (sh -c)').fill('for i in 1 2 3; do echo console-line-$i; sleep 1; done');
    await page.getByLabel(/^Labels/).fill('suite=console');
    await page.getByRole('button', { name: 'Run job' }).click();
    await page.getByRole('heading', { name: /^Job / }).waitFor();
    const log = page.getByLabel('Job log');
    // Lines arrive one a second: the first shows before the job has finished.
    await log.filter({ hasText: 'console-line-1' }).waitFor({ timeout: HUB_WORK_MS });
    const stageWhenFirstLine = await page.locator('p strong').first().innerText();
    await log.filter({ hasText: 'console-line-3' }).waitFor({ timeout: HUB_WORK_MS });
    expect(['SCHEDULING', 'RUNNING']).toContain(stageWhenFirstLine);
    await page.getByRole('listitem').filter({ hasText: 'COMPLETED' }).waitFor({ timeout: HUB_WORK_MS });
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
  });

  it('cancels a running job from its page and duplicates it from the list', async () => {
    const user = await makeUser(c.t());
    const { page } = await signedIn(c, user.token);
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    await page.getByLabel('Command (sh -c)').fill('echo started; sleep 120');
    await page.getByRole('button', { name: 'Run job' }).click();
    await page.getByLabel('Job log').filter({ hasText: 'started' }).waitFor({ timeout: HUB_WORK_MS });
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await answerConfirm(page, 'stops now', true);
    await page.getByRole('listitem').filter({ hasText: 'CANCELED' }).waitFor({ timeout: HUB_WORK_MS });
    await page.getByRole('link', { name: 'Jobs', exact: true }).click();
    const rows = page.getByRole('row').filter({ hasText: 'alpine:3' });
    await rows.first().waitFor();
    await rows.first().getByRole('button', { name: 'Duplicate' }).click();
    await page.getByText('Duplicated').waitFor();
    await rows.nth(1).waitFor();
    await expect(rows.count()).resolves.toBe(2);
    await page.close();
  }, 90_000);

  it("shows an organization's members and storage, lists its audit log as it opens, searches it by q and downloads it", async () => {
    const [admin, member] = await Promise.all([makeUser(c.t()), makeUser(c.t())]);
    const org = await makeOrg(c.t(), 'enterprise', [admin.name]);
    await addMember(c.t(), org.name, member.name, 'read');
    const repo = await http(c.t().baseUrl, 'POST', '/admin/repos', {
      token: c.t().adminToken,
      body: { name: `${org.name}/weights`, type: 'model', private: true, storage: 3 * 1024 * 1024 },
    });
    expect(repo.status).toBeLessThan(300);
    // The audit log is fed through the outbox: wait until the member's event is in it.
    const deadline = Date.now() + HUB_WORK_MS;
    for (;;) {
      const log = await http<{ type: string }[]>(
        c.t().baseUrl,
        'GET',
        `/api/organizations/${org.name}/audit-log/export?q=type:org.add_user`,
        { token: admin.token },
      );
      if (log.status === 200 && log.body.length > 0) break;
      if (Date.now() > deadline) throw new Error(`no org.add_user event in the export: ${log.status}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const { page, csp } = await signedIn(c, admin.token);
    await page.getByRole('link', { name: 'Organizations' }).click();
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByRole('row', { name: `${member.name} read`, exact: true }).waitFor();
    // Listed as the page opens: no export or search first.
    const auditRows = page.getByRole('region', { name: 'Audit events table' }).getByRole('row');
    await auditRows.filter({ hasText: 'org.add_user' }).first().waitFor();
    await page
      .getByRole('row')
      .filter({ hasText: `${org.name}/weights` })
      .filter({ hasText: '3.0 MB' })
      .waitFor();
    await page.getByLabel('Filter (q)').fill('type:org.add_user');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Audit log read').waitFor();
    await auditRows.filter({ hasText: 'org.add_user' }).first().waitFor();
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
    const user = await makeUser(c.t());
    const { page } = await signedIn(c, user.token);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // A switch reads as a sentence; it changes the key it stands for.
    const announcements = page.getByLabel('Email me announcements');
    await announcements.waitFor();
    const before = await announcements.isChecked();
    await announcements.click();
    await page.getByText('Settings saved').waitFor();
    const saved = await fetch(`${c.t().baseUrl}/api/settings/notifications`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    const values = ((await saved.json()) as { notifications: Record<string, unknown> }).notifications;
    expect(values['announcements']).toBe(!before);
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
    await page
      .getByRole('listitem')
      .filter({ hasText: `user ${user.name}` })
      .waitFor({ state: 'detached' });
    await page.close();
  });

  it('suspends, resumes, runs now and deletes a scheduled job', async () => {
    const user = await makeUser(c.t());
    await createScheduledJob({
      accessToken: user.token,
      hubUrl: c.t().baseUrl,
      namespace: user.name,
      schedule: '0 0 1 1 *',
      jobSpec: { dockerImage: 'alpine:3', command: ['sh', '-c', 'echo scheduled'], flavor: 'cpu-basic' },
    });
    const { page } = await signedIn(c, user.token);
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
    await answerConfirm(page, '(0 0 1 1 *)', false);
    await expect(row.count()).resolves.toBe(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await answerConfirm(page, '(0 0 1 1 *)', true);
    await page.getByText('No scheduled jobs.').waitFor();
    await page.close();
  }, 60_000);
}
