import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install -y chromium): no browser download is possible on these machines. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const browserAvailable = (): boolean => existsSync(CHROMIUM);

/** A fresh headless chromium (a new, empty profile each launch). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's violations on the page as it is now. Evaluated through the DevTools protocol, so the
 * page's CSP (no inline scripts) stays on while the check runs.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run: (context: unknown) => Promise<{ violations: AxeViolation[] }> };
    };
    return (await page.axe.run(page.document)).violations;
  });
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}
