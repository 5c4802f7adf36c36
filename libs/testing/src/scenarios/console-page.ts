import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { axeViolations } from '../browser';
import { type ConsoleTarget } from './console-helpers';

/** Where the screenshots of each screen go when HUB_CONSOLE_SCREENSHOTS is set (docs/console/ keeps them). */
const SHOTS = process.env['HUB_CONSOLE_SCREENSHOTS'];

export async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

export async function noViolations(page: Page, screen: string): Promise<void> {
  expect({ screen, violations: await axeViolations(page) }).toEqual({ screen, violations: [] });
}

/**
 * Ceilings, not expectations, for what waits on the hub's asynchronous work (a delivery and its
 * retries, a job's start, a notification's fan-out): 30 s was missed in CI at load 20-25 with the
 * same tests passing alone in seconds. A test ends as soon as what it waits for shows.
 */
export const HUB_WORK_MS = 90_000;
/** A step of the page itself (a click's answer, a render). */
const PAGE_STEP_MS = 30_000;

/** What the browser scenarios share: the hub, the browser, and signing in through the page. */
export interface ConsoleBrowser {
  t: () => ConsoleTarget;
  browser: () => Browser;
}

/** Opens the console, checks the sign-in page (CSP, axe), signs in with the token; collects CSP reports. */
export async function signedIn(
  c: ConsoleBrowser,
  token: string,
  colorScheme: 'light' | 'dark' = 'light',
  viewport = { width: 1200, height: 900 },
): Promise<{ page: Page; csp: string[] }> {
  const page = await c.browser().newPage({ viewport, colorScheme });
  // A step that cannot happen fails on its own, naming what it waited for, before the test's timeout.
  page.setDefaultTimeout(PAGE_STEP_MS);
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  const res = await page.goto(`${c.t().baseUrl}/`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await noViolations(page, 'sign-in');
  await shot(page, 'sign-in');
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { page, csp };
}

/** A datetime-local field's value (the browser's local time, as this process's) for an instant. */
export function localMinute(ms: number): string {
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export async function expectText(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).filter({ hasText: text }).waitFor({ timeout: PAGE_STEP_MS });
}

/**
 * The log is read when the page opens: reload until the row shows (deliveries land asynchronously).
 * A ceiling, not an expectation: on a busy machine the outcome's write came after 30 s once.
 */
export async function waitForReload(page: Page, row: ReturnType<Page['locator']>): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if ((await row.count()) > 0) return;
    if (Date.now() > deadline) throw new Error('no failed delivery in the log');
    await page.waitForTimeout(300);
    await page.reload();
    await page.getByRole('heading', { name: /^Webhook / }).waitFor();
  }
}

/** Answers the console's confirm dialog (decision 0802): checks it names `what`, then goes ahead or cancels. */
export async function answerConfirm(page: Page, what: RegExp | string, go: boolean): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.filter({ hasText: what }).waitFor();
  if (go)
    await dialog
      .getByRole('button')
      .filter({ hasNotText: /^Cancel$/ })
      .click();
  else await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * In-app navigation: the hash changes, the page is not loaded again. A string: the scenarios are
 * compiled without the DOM's types, whose fetch would replace Node's in every project using them.
 */
export async function goHash(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}
