import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { memoryLogger } from '../testing/delivery.fixtures';
import { createWebhooksServer, type WebhooksServer } from './webhooks.server';

const CHROMIUM = '/usr/bin/chromium';
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
const ARTIFACTS = resolve(__dirname, '../../../../test-artifacts/webhook-receiver');
const SECRET = 'landing-secret-never-shown';

const browserAvailable = existsSync(CHROMIUM);
const infraRequired = process.env['HUB_TEST_REQUIRE_INFRA'] === '1';
if (!browserAvailable && !infraRequired) {
  console.warn(
    `\n*** SKIPPING the landing page browser test: ${CHROMIUM} not found (apt-get install -y chromium) ***\n`,
  );
}

describe('landing page prerequisites', () => {
  (infraRequired ? it : it.skip)('has chromium when HUB_TEST_REQUIRE_INFRA=1', () => {
    expect(existsSync(CHROMIUM)).toBe(true);
  });
});

(browserAvailable ? describe : describe.skip)('landing page in a real browser', () => {
  let browser: Browser;
  const servers: WebhooksServer[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  async function start(secret?: string): Promise<string> {
    const server = createWebhooksServer({ secret, port: 0, host: '127.0.0.1', logger: memoryLogger() });
    server.add(function onModelUpdate() {
      return undefined;
    });
    server.add(() => undefined, { name: 'retrain' });
    servers.push(server);
    return (await server.listen()).url;
  }

  it('shows each route with a curl command, the secret status and how to register the webhook', async () => {
    const url = await start(SECRET);
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    const response = await page.goto(`${url}/`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Webhooks receiver');

    const routes = await page.locator('li.route h3').allInnerTexts();
    expect(routes).toEqual(['POST /webhooks/onModelUpdate', 'POST /webhooks/retrain']);
    const commands = await page.locator('li.route pre').allInnerTexts();
    expect(commands[0]).toContain(`curl -X POST '${url}/webhooks/onModelUpdate'`);
    expect(commands[1]).toContain(`'${url}/webhooks/retrain'`);
    expect(commands[0]).toContain("-H 'X-Webhook-Secret: <your secret>'");

    const text = await page.locator('body').innerText();
    expect(text).toContain('A secret is set');
    expect(text).toContain('$HUB_URL/api/settings/webhooks');
    expect(text).toContain('Authorization: Bearer $HUB_TOKEN');
    expect(text).toContain(
      `"watched":[{"type":"model","name":"owner/name"}],"domains":["repo","discussion"],"url":"${url}/webhooks/onModelUpdate"`,
    );
    expect(await page.content()).not.toContain(SECRET);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'landing.png'), fullPage: true });
    await page.close();
  });

  it('says plainly when no secret is set', async () => {
    const saved = process.env['WEBHOOK_SECRET'];
    delete process.env['WEBHOOK_SECRET'];
    try {
      const url = await start();
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      expect(await page.locator('.status').innerText()).toContain(
        'No secret is set: these routes accept requests from anyone.',
      );
      expect(await page.locator('li.route pre').first().innerText()).not.toContain('X-Webhook-Secret');
      await page.screenshot({ path: join(ARTIFACTS, 'landing-open.png'), fullPage: true });
      await page.close();
    } finally {
      if (saved !== undefined) process.env['WEBHOOK_SECRET'] = saved;
    }
  });
});
