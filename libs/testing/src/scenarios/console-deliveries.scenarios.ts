import { http } from '../http-client';
import { makeUser, uniqueName } from '../hub-factory';
import { publishHubEvent } from '../notification-factory';
import { type ConsoleBrowser, goHash, noViolations, shot, signedIn, HUB_WORK_MS } from './console-page';
import { repoEvent } from './webhooks-helpers';

interface DeliveryAnswer {
  id: string;
  state: string;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
}

/** Issue 42 item 6 (the retry schedule per delivery, request and response in tabs) and item 9 (readable times). */
export function consoleDeliveriesScenarios(c: ConsoleBrowser): void {
  it('says "attempt 1 of 6 failed, next at …" for a delivery waiting out a Retry-After, with request and response in tabs to copy', async () => {
    const owner = await makeUser(c.t());
    const repo = `${owner.name}/${uniqueName('repo')}`;
    const path = `/console-next-${uniqueName('hook')}`;
    // The receiver asks for an hour's pause: the delivery waits in the queue for its second attempt.
    c.t().capture.on(path, () => ({
      status: 503,
      headers: { 'retry-after': '3600', 'x-receiver': 'busy' },
      body: '{"error":"come back later"}',
    }));
    const made = await http<{ webhook: { id: string } }>(c.t().baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { url: c.t().capture.url(path), watched: [{ type: 'model', name: repo }], domains: ['repo'] },
    });
    expect(made.status).toBe(200);
    const base = `/api/settings/webhooks/${made.body.webhook.id}`;
    const sentAt = Date.now();
    await publishHubEvent(c.t(), 'hub.events.repo.content.update', repoEvent(repo));
    await c.t().capture.waitFor(path, 1, HUB_WORK_MS);

    // The API: one delivery, pending, its next attempt an hour away (the schedule makes six at most).
    let listed: DeliveryAnswer[] = [];
    const deadline = Date.now() + HUB_WORK_MS;
    while (!(listed[0]?.attempts === 1 && listed[0]?.nextAttemptAt && Date.parse(listed[0].nextAttemptAt) > sentAt)) {
      if (Date.now() > deadline) throw new Error(`no pending delivery: ${JSON.stringify(listed)}`);
      await new Promise((r) => setTimeout(r, 200));
      listed = (await http<DeliveryAnswer[]>(c.t().baseUrl, 'GET', `${base}/deliveries`, { token: owner.token })).body;
    }
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ state: 'pending', attempts: 1, maxAttempts: 6 });
    const next = Date.parse(listed[0].nextAttemptAt ?? '');
    expect(next - sentAt).toBeGreaterThan(3500_000);
    // Bad input is named; another user's webhook is not there.
    const bad = await http<{ error: string }>(c.t().baseUrl, 'GET', `${base}/deliveries?limit=500`, {
      token: owner.token,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('limit must be an integer 1..100');
    const stranger = await makeUser(c.t());
    expect((await http(c.t().baseUrl, 'GET', `${base}/deliveries`, { token: stranger.token })).status).toBe(404);

    const { page } = await signedIn(c, owner.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: c.t().baseUrl });
    await goHash(page, `#/webhooks/${made.body.webhook.id}`);
    const row = page.locator('table.deliveries tbody tr').filter({ hasText: listed[0].id });
    await row.waitFor();
    const state = row.locator('td.state');
    await expect(state.textContent()).resolves.toBe(
      `attempt 1 of 6 failed, next at ${await page.evaluate((ms) => new Date(ms).toLocaleTimeString(), next)}`,
    );
    // Hovering the next time gives the exact date and timezone.
    await expect(state.locator('time').getAttribute('title')).resolves.toMatch(/\d{4}.*(UTC|GMT)/);
    await expect(row.getAttribute('class')).resolves.toBe('retrying');
    // Times read as relative, with the exact one on hover.
    await expect(row.locator('td').first().textContent()).resolves.toMatch(/^(now|\d+ seconds? ago|1 minute ago)$/);
    await expect(row.locator('td time').first().getAttribute('title')).resolves.toMatch(/(UTC|GMT)/);

    // The attempt's request and response are tabs, each copied as shown.
    await row.getByText('1 attempt, last 503').click();
    await row.getByText('Request and response').click();
    const tabs = row.getByRole('tab');
    await expect(tabs.allTextContents()).resolves.toEqual(['Request', 'Response']);
    await expect(row.getByRole('tab', { name: 'Request' }).getAttribute('aria-selected')).resolves.toBe('true');
    const panel = row.getByRole('tabpanel');
    await expect(panel.locator('pre').textContent()).resolves.toContain(`webhook-id: ${listed[0].id}`);
    await row.getByRole('tab', { name: 'Response' }).click();
    await expect(panel.locator('pre').textContent()).resolves.toMatch(
      /^HTTP 503\n[\s\S]*x-receiver: busy[\s\S]*\{"error":"come back later"\}$/,
    );
    await panel.getByRole('button', { name: 'Copy response' }).click();
    await panel.getByText('Copied').waitFor();
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(await panel.locator('pre').textContent());
    await noViolations(page, 'webhook, delivery waiting for its next attempt');
    await shot(page, 'webhook-delivery-next-attempt');

    // On a phone the open attempt stays within the screen, its panel in the table's own box.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
    await page.close();
  });

  it('"Send test event" on a webhook page sends a ping the receiver gets, and the log shows it as a test', async () => {
    const owner = await makeUser(c.t());
    const path = `/console-test-${uniqueName('hook')}`;
    c.t().capture.on(path, () => ({ status: 200 }));
    const made = await http<{ webhook: { id: string } }>(c.t().baseUrl, 'POST', '/api/settings/webhooks', {
      token: owner.token,
      body: { url: c.t().capture.url(path), watched: [{ type: 'user', name: owner.name }], domains: ['repo'] },
    });
    expect(made.status).toBe(200);
    const { page } = await signedIn(c, owner.token, 'light', { width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await goHash(page, `#/webhooks/${made.body.webhook.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test event sent: the receiver answered 2xx').waitFor();
    const [got] = await c.t().capture.waitFor(path, 1);
    expect(got.json['event']).toEqual({ action: 'ping', scope: 'webhook' });
    await page.locator('table.deliveries tbody tr').filter({ hasText: 'test' }).first().waitFor();
    await page.close();
  });
}
