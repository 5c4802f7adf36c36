import { http } from '../http-client';
import { makeUser } from '../hub-factory';
import { type ConsoleBrowser, goHash, noViolations, shot, signedIn, HUB_WORK_MS } from './console-page';

/** Issue 42 item 8: CPU and memory charts, a jobs list that follows its running jobs, scheduled jobs made here. */
export function consoleJobsLiveScenarios(c: ConsoleBrowser): void {
  it("charts a running job's CPU and memory from its metrics stream, and the jobs list follows it to COMPLETED without a reload", async () => {
    const user = await makeUser(c.t());
    // Running for a few seconds (asleep: the list needs no CPU from it), then done.
    const made = await http<{ id: string }>(c.t().baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        command: ['sh', '-c', 'echo waiting; sleep 12; echo done'],
        flavor: 'cpu-basic',
      },
    });
    expect(made.status).toBe(200);
    const { page } = await signedIn(c, user.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();

    // The list: a RUNNING row with its duration, which turns COMPLETED on its own.
    await goHash(page, '#/jobs');
    const row = page.getByRole('row').filter({ hasText: user.name });
    await row.locator('.pill.stage-running').waitFor({ timeout: HUB_WORK_MS });
    await expect(row.locator('td').nth(3).textContent()).resolves.toMatch(/^\d+ s$/);
    await page.evaluate('window.sameDocument = true');
    await noViolations(page, 'jobs, a running job');
    await shot(page, 'jobs-live');
    await row.locator('.pill.stage-completed').waitFor({ timeout: 60_000 });
    await expect(row.locator('td').nth(3).textContent()).resolves.toMatch(/^\d+ s$/);
    await expect(page.evaluate<boolean>('window.sameDocument')).resolves.toBe(true);

    // A busy job (a loop in the shell), watched from its page: the charts grow one point a sample.
    const second = await http<{ id: string }>(c.t().baseUrl, 'POST', `/api/jobs/${user.name}`, {
      token: user.token,
      body: {
        dockerImage: 'alpine:3',
        command: [
          'sh',
          '-c',
          'echo busy; end=$(($(date +%s)+15)); while [ $(date +%s) -lt $end ]; do :; done; echo done',
        ],
        flavor: 'cpu-basic',
      },
    });
    expect(second.status).toBe(200);
    await goHash(page, `#/jobs/${user.name}/${second.body.id}`);
    const cpu = page.getByRole('img', {
      name: /^CPU over the last \d+ samples, now \d+ % of one CPU \(2 CPUs allowed\)$/,
    });
    const memory = page.getByRole('img', { name: /^Memory over the last \d+ samples, now \d+ MB of 16\.0 GB$/ });
    await cpu.waitFor({ timeout: HUB_WORK_MS });
    await memory.waitFor();
    await page.getByRole('img', { name: /^CPU over the last ([3-9]|\d\d) samples/ }).waitFor({ timeout: HUB_WORK_MS });
    // The loop keeps a CPU busy: a sample shows it (on a loaded machine not every one does), and
    // its point stands above the baseline (y 47 is 0 %).
    await page
      .getByRole('img', { name: /^CPU over the last \d+ samples, now [1-9]\d* %/ })
      .waitFor({ timeout: HUB_WORK_MS });
    const points = await cpu.locator('polyline').getAttribute('points');
    expect((points ?? '').split(' ').length).toBeGreaterThanOrEqual(3);
    const heights = (points ?? '').split(' ').map((p) => Number(p.split(',')[1]));
    expect(Math.min(...heights)).toBeLessThan(47);
    await expect(page.getByText(/^CPU \d+ % of one CPU/).count()).resolves.toBe(1);
    await noViolations(page, 'job, charts');
    await shot(page, 'job-charts');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    await shot(page, 'phone-job-charts');
    await page.close();
    // Seen: its loop need not burn the rest of its 15 s of a CPU that the next tests share.
    await http(c.t().baseUrl, 'POST', `/api/jobs/${user.name}/${second.body.id}/cancel`, { token: user.token });
  });

  it('creates a scheduled job from its form (the schedule in words with its zone, a bad one refused at the field), and Run now links to the job it started', async () => {
    const user = await makeUser(c.t());
    const { page } = await signedIn(c, user.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.getByRole('link', { name: 'Scheduled jobs' }).click();
    await page.getByRole('heading', { name: 'Scheduled jobs' }).waitFor();
    await page.getByRole('button', { name: 'New scheduled job' }).click();
    const form = page.getByRole('form', { name: 'New scheduled job' });
    const schedule = form.getByLabel(/^Schedule/);
    await form.getByText('Runs every Monday to Friday at 09:00 (UTC)').waitFor();
    await schedule.fill('61 * * * *');
    await form.getByLabel('Command (sh -c)').fill('echo from-a-schedule');
    await form.getByRole('button', { name: 'Create scheduled job' }).click();
    // The API's 400 names the schedule: it shows there, and the field is marked.
    await form
      .locator('small.field-error')
      .filter({ hasText: /^400: .*schedule/ })
      .waitFor();
    await expect(schedule.getAttribute('aria-invalid')).resolves.toBe('true');
    await schedule.fill('CRON_TZ=Europe/Paris 30 7 * * *');
    await form.getByText('Runs every day at 07:30 (Europe/Paris)').waitFor();
    await noViolations(page, 'scheduled job form');
    await shot(page, 'scheduled-job-form');
    await form.getByRole('button', { name: 'Create scheduled job' }).click();
    const row = page.getByRole('row').filter({ hasText: 'CRON_TZ=Europe/Paris 30 7 * * *' });
    await row.waitFor();
    await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe(
      'every day at 07:30 (Europe/Paris)\nCRON_TZ=Europe/Paris 30 7 * * *',
    );
    // The next run reads as relative, the exact time on hover.
    await expect(row.getByRole('cell').nth(3).innerText()).resolves.toMatch(/^in \d+ (hours?|minutes?)$|^tomorrow$/);
    await row.getByRole('button', { name: 'Run now' }).click();
    await page.getByText('Started a run').waitFor();
    const link = page.getByRole('link', { name: /^Open the job it started \((\w+)\)$/ });
    const id = /\((\w+)\)$/.exec((await link.textContent()) ?? '')?.[1];
    await link.click();
    await page.getByRole('heading', { name: `Job ${id}` }).waitFor();
    await page.getByLabel('Job log').filter({ hasText: 'from-a-schedule' }).waitFor({ timeout: HUB_WORK_MS });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Scheduled jobs' }).click();
    await row.waitFor();
    await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    await shot(page, 'phone-scheduled-jobs');
    await page.close();
  });
}
